"""Snapshot and export of a math checkpoint.

    python3 tools/recognition/math/export_math.py --ckpt /work/state/quire-math/ckpt.pt [more.pt ...] \
        [--snapshot tools/recognition/checkpoints/math.pt] [--log /work/state/quire-math/log.tsv] \
        [--out Resources/recognition/quire-math.bin]

--snapshot: the model in float16 without the optimizer state (1.6 MB; train_math.py --init takes it
and starts a fresh Adam). --log: copied beside this script as train-log.tsv. --out: the weight file
in the text recognizer's format (docs/RECOGNITION-MODEL.md) with the math alphabet as its charset
and role "math"; the Swift RecognitionModel loads it unchanged (classes = charset count + 1).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import data  # noqa: E402
import export  # noqa: E402
import model as model_mod  # noqa: E402
import symbols as S  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", nargs="+", default=["/work/state/quire-math/ckpt.pt"],
                    help="one checkpoint, or several of one run whose weights are averaged (the last gives "
                         "step and history): the mean of checkpoints a few thousand steps apart reads "
                         "validation expressions better than any one of them (docs/MATH-EXPERIMENTS.md)")
    ap.add_argument("--snapshot")
    ap.add_argument("--log")
    ap.add_argument("--out")
    ap.add_argument("--recipe", default="OMP_NUM_THREADS=1 python3 tools/recognition/math/train_math.py "
                    "--run /work/state/quire-math --seed 1")
    args = ap.parse_args()
    cks = [torch.load(p, map_location="cpu", weights_only=False) for p in args.ckpt]
    for p, c in zip(args.ckpt, cks):
        if c.get("alphabet") != S.CHARSET:
            raise SystemExit(f"{p} is not a checkpoint of this math alphabet")
    ck = dict(cks[-1])
    if len(cks) > 1:
        ck["model"] = {k: sum(c["model"][k].float() for c in cks) / len(cks) for k in ck["model"]}
        ck["history"] = list(ck.get("history", [])) + [{"averaged_steps": [c["step"] for c in cks]}]
    if args.snapshot:
        small = {k: v for k, v in ck.items() if k != "optimizer"}
        small["model"] = {k: v.half() for k, v in ck["model"].items()}
        torch.save(small, args.snapshot + ".tmp")
        os.replace(args.snapshot + ".tmp", args.snapshot)
        print(f"wrote {args.snapshot} ({os.path.getsize(args.snapshot)} bytes)")
    if args.log:
        shutil.copyfile(args.log, os.path.join(HERE, "train-log.tsv"))
    if args.out:
        cfg = model_mod.CONFIG
        sd = {k: v.float() for k, v in ck["model"].items()}
        header = {
            "format": "quire-recognizer", "format_version": export.FORMAT_VERSION,
            "architecture": "conv1d-bilstm-ctc", "role": "math",
            "layer_order": ["conv", "relu"] + [f"bilstm{i}" for i in range(cfg["layers"])] + ["out", "log_softmax"],
            "config": cfg, "lstm_gate_order": "ifgo", "charset": S.CHARSET, "blank_index": 0,
            "num_classes": S.NUM_CLASSES, "junk": S.JUNK,
            "preprocess": {"min_height_mm": data.MIN_HEIGHT_MM, "spacing": data.SPACING, "clip": data.CLIP,
                           "num_features": data.NUM_FEATURES, "features": ["dx", "dy", "pen_up", "y"],
                           "max_points": data.MAX_POINTS},
            "training": {"step": ck["step"], "samples": ck["samples"], "hours": round(ck.get("hours", 0.0), 3),
                         "command": args.recipe, "history": ck.get("history", [])},
            "data": "UNIPEN train_r01_v07 (CC BY 4.0), UCI pendigits (CC BY 4.0); expressions composed by "
                    "tools/recognition/math/compose.py",
        }
        export.write_bin(args.out, export.tensor_list(sd, cfg), header)
        print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, step {ck['step']})")


if __name__ == "__main__":
    main()
