"""Evaluate a checkpoint on the writer-disjoint validation split (greedy CTC decoding, PyTorch).

    OMP_NUM_THREADS=1 python3 tools/recognition/eval.py [--ckpt tools/recognition/checkpoints/latest.pt]
        [--limit 500] [--weights Resources/recognition/quire-rec.bin-equivalent: --fp16]

Multi-line ink of the 'lines' category is split into lines (data.group_lines, as the Swift
TextRecognizer.groupLines does) and the line results are joined with spaces.
Prints per category (digits, upper, lower, symbols, words, lines): samples, CER (edit distance /
reference length), accuracy (exact match of the whole label), and ms per sample (p50/p95, batch 1).
--limit takes a fixed, seeded subset per category (the same one every time).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import export  # noqa: E402
import model as model_mod  # noqa: E402
from train import edit_distance, greedy_decode  # noqa: E402

torch.set_num_threads(1)
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default=os.path.join(ROOT, "tools/recognition/checkpoints/latest.pt"))
    ap.add_argument("--limit", type=int, default=0, help="samples per category (0 = all)")
    ap.add_argument("--fp16", action="store_true", help="evaluate the float16-rounded weights that ship")
    args = ap.parse_args()
    ck = torch.load(args.ckpt, map_location="cpu", weights_only=False)
    cfg = ck.get("config", model_mod.CONFIG)
    if args.fp16:
        net = export.dequantized_model(export.tensor_list(ck["model"], cfg), cfg)
    else:
        net = model_mod.build(cfg)
        net.load_state_dict(ck["model"])
    net.eval()
    _, val = data.split(data.load_all())
    subset = data.val_subset(val, args.limit) if args.limit > 0 else None
    if subset is None:
        subset = {}
        for s in val:
            subset.setdefault(s.cat, []).append(s)
    print(f"checkpoint step {ck['step']} ({ck['samples']} samples, {ck.get('hours', 0):.2f} h), "
          f"{'float16' if args.fp16 else 'float32'} weights, greedy decoding, validation writers only")
    print(f"{'category':<9} {'n':>6} {'CER':>7} {'acc':>7} {'ms p50':>7} {'ms p95':>7}")
    tot_e = tot_c = 0
    for cat in ("digits", "upper", "lower", "symbols", "words", "lines"):
        samples = subset.get(cat, [])
        errs = chars = ok = n = 0
        times = []
        for s in samples:
            parts = []
            t = time.perf_counter()
            for f in data.eval_features(s):
                with torch.no_grad():
                    lp, ol = net(torch.from_numpy(f)[None], torch.tensor([len(f)]))
                parts.append(greedy_decode(lp[0], int(ol[0])))
            times.append((time.perf_counter() - t) * 1000)
            hyp = " ".join(p for p in parts if p)
            errs += edit_distance(hyp, s.label)
            chars += len(s.label)
            ok += hyp == s.label
            n += 1
        tot_e += errs
        tot_c += chars
        if n:
            print(f"{cat:<9} {n:>6} {errs / chars:>7.3f} {ok / n:>7.3f} {np.percentile(times, 50):>7.1f} "
                  f"{np.percentile(times, 95):>7.1f}", flush=True)
    print(f"{'all':<9} {'':>6} {tot_e / max(1, tot_c):>7.3f}")


if __name__ == "__main__":
    main()
