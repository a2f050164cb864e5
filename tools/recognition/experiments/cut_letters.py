"""Lone letters cut out of the training writers' printed words, for the character model.

    OMP_NUM_THREADS=1 python3 tools/recognition/experiments/cut_letters.py \
        --ckpt tools/recognition/checkpoints/chars.pt --out /work/state/quire-cache/cut-letters.pkl

The isolated lower-case letters of the training split come from 222 writers; the validation
writers' lone letters differ from all of them in style (docs/RECOGNITION-MODEL.md, "Lone
characters"). Printed words hold the letters of more writers: where a word's strokes fall into as
many x-overlap groups as it has letters (data.cut_letters), each group is one letter. A piece is
kept when the checkpoint ranks its letter among the 3 best of its case (26 classes), which drops
wrong cuts (a lone dot, a crossing bar, two letters) but keeps shapes the network misreads.
Training on them (train.py --cut-letters, 'cut' in --mix) did not raise the validation lower-case
figure; the runs are in docs/RECOGNITION-MODEL.md, "Lone characters: what did not help".
"""
from __future__ import annotations

import argparse
import collections
import os
import pickle
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import data  # noqa: E402
import model as model_mod  # noqa: E402

LOWER = "abcdefghijklmnopqrstuvwxyz"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True, help="checkpoint that filters the pieces")
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-rank", type=int, default=3, help="keep a piece when its letter ranks below this")
    a = ap.parse_args()
    torch.set_num_threads(1)
    ck = torch.load(a.ckpt, map_location="cpu", weights_only=False)
    net = model_mod.build(ck.get("config", model_mod.CONFIG))
    net.load_state_dict(ck["model"])
    net.eval()
    train, _ = data.split(data.load_all(verbose=False))
    pieces = data.cut_letters(train)
    kept, counts = [], collections.Counter()
    for p in pieces:
        field = LOWER if p.label.islower() else LOWER.upper()
        f, _ = data.features(data.normalize(p.strokes, p.in_mm))
        if len(f) < 3:
            continue
        scores = model_mod.field_scores(net, f, field)
        rank = int((scores > scores[field.index(p.label)]).sum())
        counts[rank == 0] += 1
        if rank < a.max_rank:
            kept.append(p)
    tmp = a.out + ".tmp"
    with open(tmp, "wb") as f:
        pickle.dump([(p.id, p.cat, p.label, p.target, p.writer, p.strokes, p.in_mm) for p in kept], f,
                    protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, a.out)
    writers = len({p.writer for p in kept})
    lower = sum(p.cat == "lower" for p in kept)
    right = counts[True] / max(1, len(pieces))
    print(f"{len(pieces)} pieces cut, read right by the checkpoint {right:.3f}; "
          f"kept {len(kept)} ({lower} lower case) of {writers} writers -> {a.out}")


if __name__ == "__main__":
    main()
