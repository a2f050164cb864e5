"""Evaluate a math checkpoint on expressions composed from VALIDATION writers (never trained on).

    OMP_NUM_THREADS=1 python3 tools/recognition/math/eval_math.py --ckpt /work/state/quire-math/ckpt.pt \
        [-n 500] [--seed 2024] [--oracle] [--jsonl out.jsonl]

Prints per structure class (linear, frac, script, root, mixed, nested): expressions, expression rate
(canonical LaTeX exact), symbol accuracy (exact stroke set and class), and ms per expression
(PyTorch reference, one thread; not the Swift figure). --oracle parses the true symbols instead
(measures the structure parser alone).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compose  # noqa: E402
import parse  # noqa: E402
import recognize as R  # noqa: E402

torch.set_num_threads(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="/work/state/quire-math/ckpt.pt")
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--penalty", type=float, default=None)
    ap.add_argument("--oracle", action="store_true")
    ap.add_argument("--split", choices=["val", "train"], default="val",
                    help="train: expressions of training writers, for tuning (e.g. --penalty) without "
                         "looking at validation writers")
    ap.add_argument("--jsonl")
    ap.add_argument("--errors", type=int, default=15)
    args = ap.parse_args()
    kits = compose.load_kits()
    stream = compose.expression_stream(kits, compose.writers(kits, validation=args.split == "val"), args.seed)
    exprs = [next(stream) for _ in range(args.n)]
    net = None
    if not args.oracle:
        ck = torch.load(args.ckpt, map_location="cpu", weights_only=False)
        net = R.build_net(None)
        net.load_state_dict(ck["model"])
        net.eval()
        print(f"checkpoint {args.ckpt}: step {ck['step']}, {ck['samples']} samples, {ck.get('hours', 0):.2f} h")
    stats = collections.defaultdict(lambda: [0, 0, 0, 0, []])
    errors = []
    out = open(args.jsonl, "w") if args.jsonl else None
    for e in exprs:
        t = time.perf_counter()
        if args.oracle:
            latex = parse.to_latex([(s["sym"], s["box"], [e["strokes"][i] for i in s["strokes"]]) for s in e["symbols"]])
            groups = [(tuple(s["strokes"]), s["sym"], 0.0) for s in e["symbols"]]
        else:
            kw = {} if args.penalty is None else {"penalty": args.penalty}
            latex, groups = R.recognize(net, e["strokes"], **kw)
        ms = (time.perf_counter() - t) * 1000
        a, b, ok = R.score_expression(e, latex, groups)
        for k in (e["class"], "all"):
            st = stats[k]
            st[0] += 1
            st[1] += ok
            st[2] += a
            st[3] += b
            st[4].append(ms)
        if not ok:
            errors.append((e["latex"], latex, e["writer"]))
        if out:
            out.write(json.dumps({"id": e["id"], "truth": e["latex"], "latex": latex, "ms": round(ms, 1)}) + "\n")
    print(f"{'class':8} {'n':>5} {'expr':>7} {'symbols':>8} {'ms p50':>7} {'ms p95':>7}")
    for k in ["linear", "frac", "script", "root", "mixed", "nested", "all"]:
        if k in stats:
            n, ok, a, b, ms = stats[k]
            print(f"{k:8} {n:5d} {ok / n:7.3f} {a / max(1, b):8.3f} {np.percentile(ms, 50):7.1f} {np.percentile(ms, 95):7.1f}")
    for t, g, w in errors[: args.errors]:
        print(f"  want {t}\n  got  {g}   ({w})")


if __name__ == "__main__":
    main()
