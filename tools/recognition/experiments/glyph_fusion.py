#!/usr/bin/env python3
"""Experiment (not shipped): does an image classifier of lone characters, fused with the character
model, read validation fields better? Results and the conclusion: docs/RECOGNITION-MODEL.md,
"Lone characters: what did not help".

    cd tools/recognition/experiments
    python3 glyph_fusion.py render --channels 1 --variants 4 --out /tmp/glyph   # ~4 min
    python3 glyph_fusion.py train  --channels 1 --epochs 3 --out /tmp/glyph     # ~16 min on 2 threads
    python3 glyph_fusion.py fuse   --channels 1 --out /tmp/glyph \
        --ckpt ../checkpoints/chars.pt                                           # ~3 min

Images are 32x32: the ink fitted into the square by its larger side (aspect kept), drawn by
bilinear splats of points every 0.35 px, blurred [1 2 1]/4 both ways. --channels 9 adds eight
direction planes (each point's direction of travel split between its two nearest of eight bins),
which carry the online direction without the stroke order. Training draws: each training
character once as written and --variants - 1 times through data.augment_strokes. The network:
four 3x3 convolutions (two max-pools between), 192 hidden units, the 95 printable characters.
"fuse" scores each validation digit/capital/lower-case field as the character model's CTC
log-likelihood of every allowed character plus w times the classifier's log-probability.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "2")
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import data  # noqa: E402
import model as model_mod  # noqa: E402

S = 32
SINGLE = ("digits", "upper", "lower", "symbols")
FIELDS = {"digits": "0123456789", "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
          "lower": "abcdefghijklmnopqrstuvwxyz"}
BLUR = np.array([0.25, 0.5, 0.25], np.float32)


def render(strokes, channels: int) -> np.ndarray:
    st = [np.asarray(s, float).reshape(-1, 2) for s in strokes]
    st = [s for s in st if len(s)]
    allp = np.concatenate(st)
    lo, hi = allp.min(0), allp.max(0)
    scale = (S - 6) / max(float((hi - lo).max()), 1e-6)
    off = (S - 1) / 2 - (lo + hi) / 2 * scale
    pts, dirs = [], []
    for s in st:
        p = s * scale + off
        seg = np.sqrt(((p[1:] - p[:-1]) ** 2).sum(1))
        total = float(seg.sum()) if len(p) > 1 else 0.0
        if total <= 0:
            pts.append(p[:1])
            dirs.append(np.full(1, -1.0))  # a dot has no direction
            continue
        cum = np.concatenate([[0], np.cumsum(seg)])
        t = np.linspace(0, total, max(2, int(total / 0.35) + 1))
        q = np.stack([np.interp(t, cum, p[:, 0]), np.interp(t, cum, p[:, 1])], 1)
        g = np.gradient(q, axis=0)
        pts.append(q)
        dirs.append((np.arctan2(g[:, 1], g[:, 0]) / (2 * math.pi) * 8) % 8)
    p, d = np.concatenate(pts), np.concatenate(dirs)
    img = np.zeros((channels, S + 2, S + 2), np.float32)
    x0, y0 = np.floor(p[:, 0]).astype(int), np.floor(p[:, 1]).astype(int)
    fx, fy = p[:, 0] - x0, p[:, 1] - y0
    x0, y0 = np.clip(x0, 0, S - 1) + 1, np.clip(y0, 0, S - 1) + 1
    moving = d >= 0
    b0 = np.floor(np.maximum(d, 0)).astype(int) % 8
    fb = np.maximum(d, 0) - np.floor(np.maximum(d, 0))
    for dx, dy, w in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        np.add.at(img[0], (y0 + dy, x0 + dx), w)
        if channels == 9:
            m = moving
            np.add.at(img, (1 + b0[m], y0[m] + dy, x0[m] + dx), w[m] * (1 - fb[m]))
            np.add.at(img, (1 + (b0[m] + 1) % 8, y0[m] + dy, x0[m] + dx), w[m] * fb[m])
    img = img[:, 1:S + 1, 1:S + 1]
    img = np.apply_along_axis(lambda r: np.convolve(r, BLUR, "same"), 1, img)
    img = np.apply_along_axis(lambda r: np.convolve(r, BLUR, "same"), 2, img)
    return np.minimum(img * 1.6, 1.0)


class Net(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        w = 32 if channels > 1 else 16
        self.c1, self.c2 = nn.Conv2d(channels, w, 3, padding=1), nn.Conv2d(w, 32, 3, padding=1)
        self.c3, self.c4 = nn.Conv2d(32, 64, 3, padding=1), nn.Conv2d(64, 128, 3, padding=1)
        self.f1, self.f2 = nn.Linear(128 * 16, 192), nn.Linear(192, len(data.CHARSET))
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c2(F.relu(self.c1(x)))), 2)
        x = F.max_pool2d(F.relu(self.c4(F.max_pool2d(F.relu(self.c3(x)), 2))), 2)
        return self.f2(self.drop(F.relu(self.f1(x.flatten(1)))))


def singles(samples):
    return [s for s in samples if s.cat in SINGLE and len(s.label) == 1 and s.label in data.CHARSET]


def cmd_render(a):
    train, val = data.split(data.load_all(verbose=False))
    rng = random.Random(a.seed)
    xs, ys = [], []
    for k in range(a.variants):
        for s in singles(train):
            st = data.normalize(s.strokes, s.in_mm)
            if st:
                xs.append((render(data.augment_strokes(st, rng) if k else st, a.channels) * 255).astype(np.uint8))
                ys.append(data.CHARSET.index(s.label))
        print(f"variant {k + 1}/{a.variants}: {len(xs)} images", flush=True)
    val = [s for s in singles(val) if data.normalize(s.strokes, s.in_mm)]
    vx = np.stack([(render(data.normalize(s.strokes, s.in_mm), a.channels) * 255).astype(np.uint8) for s in val])
    np.savez(os.path.join(a.out, f"images{a.channels}.npz"), X=np.stack(xs), y=np.array(ys), VX=vx,
             vids=np.array([s.id for s in val]), vcat=np.array([s.cat for s in val]),
             vy=np.array([data.CHARSET.index(s.label) for s in val]))


def cmd_train(a):
    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    d = np.load(os.path.join(a.out, f"images{a.channels}.npz"))
    X, Y = torch.from_numpy(d["X"]), torch.from_numpy(d["y"]).long()
    torch.manual_seed(a.seed)
    net = Net(a.channels)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    batch = 128
    steps = int(a.epochs * len(X) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps, pct_start=0.1)
    t, step = time.time(), 0
    while step < steps:
        perm = torch.randperm(len(X))
        for i in range(0, len(X) - batch + 1, batch):
            if step >= steps:
                break
            x = X[perm[i:i + batch]].reshape(batch, a.channels, S, S).float() / 255
            dx, dy = np.random.randint(-2, 3, 2)
            x = torch.roll(x, (int(dy), int(dx)), (2, 3))
            loss = F.cross_entropy(net(x), Y[perm[i:i + batch]], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 1000 == 0:
                print(f"step {step}/{steps} loss {loss.item():.3f} {time.time() - t:.0f}s", flush=True)
    net.eval()
    with torch.no_grad():
        vx = torch.from_numpy(d["VX"]).reshape(len(d["VX"]), a.channels, S, S).float() / 255
        lp = torch.cat([F.log_softmax(net(vx[i:i + 512]), 1) for i in range(0, len(vx), 512)]).numpy()
    np.save(os.path.join(a.out, f"val-logprobs{a.channels}.npy"), lp)
    torch.save(net.state_dict(), os.path.join(a.out, f"glyph{a.channels}.pt"))


def cmd_fuse(a):
    torch.set_num_threads(1)
    d = np.load(os.path.join(a.out, f"images{a.channels}.npz"))
    lp = np.load(os.path.join(a.out, f"val-logprobs{a.channels}.npy"))
    row = {i: k for k, i in enumerate(d["vids"])}
    ck = torch.load(a.ckpt, map_location="cpu", weights_only=False)
    net = model_mod.build(ck.get("config", model_mod.CONFIG))
    net.load_state_dict(ck["model"])
    net.eval()
    _, val = data.split(data.load_all(verbose=False))
    rows = []  # (field, label index in field, CTC scores, classifier scores)
    for s in val:
        if s.cat not in FIELDS or s.id not in row:
            continue
        allowed = FIELDS[s.cat]
        f, _ = data.features(data.normalize(s.strokes, s.in_mm))
        rows.append((s.cat, allowed.index(s.label), model_mod.field_scores(net, f, allowed),
                     lp[row[s.id]][[data.CHARSET.index(c) for c in allowed]]))
    for w in (0.0, 0.25, 0.5, 1.0, 2.0, None):
        acc = {}
        for cat in FIELDS:
            r = [x for x in rows if x[0] == cat]
            acc[cat] = np.mean([np.argmax(c if w is None else o + w * c) == y for _, y, o, c in r])
        name = "classifier alone" if w is None else f"w={w}"
        print(name, " ".join(f"{k} {v:.4f}" for k, v in acc.items()), flush=True)
    r = [x for x in rows if x[0] == "lower"]
    either = np.mean([np.argmax(o) == y or np.argmax(c) == y for _, y, o, c in r])
    print(f"lower case, either one right: {either:.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=("render", "train", "fuse"))
    ap.add_argument("--channels", type=int, choices=(1, 9), default=1)
    ap.add_argument("--variants", type=int, default=4)
    ap.add_argument("--epochs", type=float, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ckpt", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "checkpoints", "chars.pt"))
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    {"render": cmd_render, "train": cmd_train, "fuse": cmd_fuse}[a.command](a)


if __name__ == "__main__":
    main()
