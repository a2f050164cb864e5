#!/usr/bin/env python3
"""Average the weights of several checkpoints of the same network (a "model soup").

    python3 tools/recognition/average.py --out soup.pt RUN_A/keep-24100.pt RUN_B/ckpt.pt ...

Checkpoints late in one run's learning-rate decay, or of runs that branched from one checkpoint
and trained on with other seeds, lie in one basin; the mean of their weights usually reads better
than any one of them, at no cost at run time. The result keeps the largest step/samples/hours of
its inputs (so a training run can resume from it) and lists its inputs under "averaged".
"""
from __future__ import annotations

import argparse
import os

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-optimizer", action="store_true",
                    help="leave the optimizer state out (a third of the size; a resumed run starts Adam afresh)")
    ap.add_argument("ckpts", nargs="+")
    args = ap.parse_args()
    cks = [torch.load(p, map_location="cpu", weights_only=False) for p in args.ckpts]
    keys = list(cks[0]["model"])
    for p, ck in zip(args.ckpts, cks):
        if list(ck["model"]) != keys or ck.get("config") != cks[0].get("config"):
            raise SystemExit(f"{p}: not the same network as {args.ckpts[0]}")
    model = {k: sum(ck["model"][k].double() for ck in cks).div(len(cks)).to(cks[0]["model"][k].dtype) for k in keys}
    last = max(cks, key=lambda c: c["samples"])
    out = {k: v for k, v in last.items() if k not in ("model", "optimizer")}
    out["model"] = model
    out["optimizer"] = None if args.no_optimizer else last.get("optimizer")
    out["averaged"] = [{"path": os.path.relpath(p), "step": ck["step"], "samples": ck["samples"]}
                       for p, ck in zip(args.ckpts, cks)]
    tmp = args.out + ".tmp"
    torch.save(out, tmp)
    os.replace(tmp, args.out)
    print(f"wrote {args.out}: mean of {len(cks)} checkpoints, steps {[c['step'] for c in cks]}")


if __name__ == "__main__":
    main()
