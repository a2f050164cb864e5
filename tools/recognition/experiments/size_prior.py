"""Lone lower-case letters told apart by size against the writer's own letters: an upper bound.

    OMP_NUM_THREADS=1 python3 tools/recognition/experiments/size_prior.py \
        --ckpt tools/recognition/checkpoints/chars.pt

Every network here reads a letter normalised to its own height, so a writer whose looped e is his
looped l at half the height, or whose i is a bare stroke, is read by shape alone and the letters
are the same. This measures what a size reference would give. The reference is each writer's
median lone lower-case letter height (all his letters, labels unused) - for a validation writer
that uses his other letters, which a single field does not have. Per letter, log(height /
reference) is a Gaussian fitted on the training writers (median, 1.4826 x MAD); its
log-likelihood, each class's penalty capped at `cap` nats below the best class, is added with
weight `w` to the character model's exact per-class CTC scores. The grid is read on the
validation letters themselves, so its best row is an upper bound. Figures: docs/RECOGNITION-MODEL.md,
"Lone characters: what did not help".
"""
from __future__ import annotations

import argparse
import collections
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import data  # noqa: E402
import model as model_mod  # noqa: E402

LOWER = "abcdefghijklmnopqrstuvwxyz"


def height(s: data.Sample) -> float:
    a = np.concatenate([np.asarray(st)[:, :2] for st in s.strokes])
    return max(float(a[:, 1].max() - a[:, 1].min()), 1e-3)


def references(samples) -> dict[str, float]:
    by: dict[str, list[float]] = collections.defaultdict(list)
    for s in samples:
        if s.cat == "lower":
            by[s.writer].append(height(s))
    return {w: float(np.median(v)) for w, v in by.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", required=True)
    args = ap.parse_args()
    torch.set_num_threads(1)
    train, val = data.split(data.load_all(verbose=False))

    ref_train = references(train)
    logs: dict[str, list[float]] = collections.defaultdict(list)
    for s in train:
        if s.cat == "lower" and s.label in LOWER:
            logs[s.label].append(np.log(height(s) / ref_train[s.writer]))
    mu = np.array([np.median(logs[c]) for c in LOWER])
    sd = np.array([1.4826 * np.median(np.abs(np.array(logs[c]) - np.median(logs[c]))) for c in LOWER])
    print("log(height / writer reference), training writers:",
          " ".join(f"{c} {m:+.2f}+-{d:.2f}" for c, m, d in zip(LOWER, mu, sd)))

    ck = torch.load(args.ckpt, map_location="cpu", weights_only=False)
    net = model_mod.build(ck.get("config", model_mod.CONFIG))
    net.load_state_dict(ck["model"])
    net.eval()
    ref_val = references(val)
    letters = [s for s in val if s.cat == "lower" and s.label in LOWER]
    scores = np.array([model_mod.field_scores(net, data.features(data.normalize(s.strokes, s.in_mm))[0], LOWER)
                       for s in letters])
    rel = np.array([np.log(height(s) / ref_val[s.writer]) for s in letters])
    truth = np.array([LOWER.index(s.label) for s in letters])
    base = scores.argmax(1)
    prior = -0.5 * ((rel[:, None] - mu[None]) / sd[None]) ** 2 - np.log(sd[None])
    prior -= prior.max(1, keepdims=True)
    print(f"{len(letters)} validation letters, character model alone {np.mean(base == truth):.2%}")
    for cap in (1, 2, 3, 5, float("inf")):
        for w in (0.5, 1.0):
            pred = (scores + w * np.maximum(prior, -cap)).argmax(1)
            fixed = int(((base != truth) & (pred == truth)).sum())
            broke = int(((base == truth) & (pred != truth)).sum())
            print(f"cap {cap:>4} w {w}: {np.mean(pred == truth):.2%} (fixes {fixed}, breaks {broke})")


if __name__ == "__main__":
    main()
