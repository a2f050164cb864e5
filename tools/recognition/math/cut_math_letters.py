"""Letters cut out of TRAINING writers' printed words, as extra isolated glyphs for train_glyph.py
(--cut-file, --cut) and train_math.py (--cut-file): UNIPEN's word writers are about 250, the math
kits' letter writers under 90.

    OMP_NUM_THREADS=1 python3 tools/recognition/math/cut_math_letters.py \
        --glyph Resources/recognition/quire-glyph.bin --out /work/state/quire-cache/math-cut-letters.pkl

`data.cut_letters` splits a printed word into x-overlap groups when their count is its letter count.
Some pieces are wrong (a dot given to the neighbour, a crossing bar on its own, two letters that
touch), so a piece is kept only when its letter is among the --top best classes the given glyph
network reads in it. Words in device units (no resolution) are scaled so the word's median piece
height is 3.5 mm (a small letter's height at a digit height of 6 mm). Validation writers: never
(asserted). Output: a pickle of (label, strokes in mm) pairs.
"""
from __future__ import annotations

import argparse
import collections
import os
import pickle
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import data  # noqa: E402
import glyph_image as GI  # noqa: E402
import symbols as S  # noqa: E402

torch.set_num_threads(1)

# Cut letters that are also digits' shapes (`l` 1, `I` 1, `o` 0, `O` 0): a word's context says which,
# a lone piece does not, and these would teach that every bar is a letter.
LEFT_OUT = set("lIoO")


def load(path: str) -> list:
    """The (label, strokes in mm) pieces of `path` (this script's output) that training uses."""
    with open(path, "rb") as f:
        return [p for p in pickle.load(f) if p[0] not in LEFT_OUT]


def pieces():
    """(label, strokes in mm, writer) of every cut letter of a training writer's printed word."""
    words = [s for s in data.load_all(verbose=False)
             if s.cat == "words" and not data.is_validation_writer(s.writer)]
    for p in data.cut_letters(words):
        if p.label not in S.INDEX:
            continue
        st = [np.asarray(a, np.float64)[:, :2] for a in p.strokes if len(a)]
        if not st:
            continue
        yield p.label, st, p.writer, p.in_mm, p.id.split("#")[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glyph", required=True, help="glyph network weights (export_glyph.py) that filter pieces")
    ap.add_argument("--out", required=True)
    ap.add_argument("--top", type=int, default=3)
    args = ap.parse_args()
    import train_glyph  # here: train_glyph imports this module
    net = train_glyph.read_bin(args.glyph).eval()
    raw = list(pieces())
    assert not any(data.is_validation_writer(w) for _, _, w, _, _ in raw)
    by_word = collections.defaultdict(list)
    for _, st, _, mm, word in raw:
        if not mm:
            by_word[word].append(float(np.ptp(np.concatenate(st)[:, 1])))
    scale = {w: 3.5 / max(float(np.median(h)), 1e-6) for w, h in by_word.items()}
    items = []
    for lab, st, w, mm, word in raw:
        if not mm:
            st = [a * scale[word] for a in st]
        items.append((lab, st, w))
    keep, writers = [], set()
    with torch.no_grad():
        for k in range(0, len(items), 512):
            chunk = items[k:k + 512]
            x = torch.from_numpy(np.stack([GI.image(st) for _, st, _ in chunk]))
            top = net(x).topk(args.top, 1).indices
            for (lab, st, w), t in zip(chunk, top):
                if S.CHARSET.index(lab) in t.tolist():
                    keep.append((lab, st))
                    writers.add(w)
    counts = collections.Counter(lab for lab, _ in keep)
    print(f"{len(keep)} of {len(items)} pieces kept, {len(writers)} writers; "
          f"fewest: {counts.most_common()[-8:]}", flush=True)
    with open(args.out, "wb") as f:
        pickle.dump(keep, f)


if __name__ == "__main__":
    main()
