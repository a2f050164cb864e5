"""Resumable CTC training for the Quire recognizer (one CPU thread).

    OMP_NUM_THREADS=1 python3 tools/recognition/train.py --run /work/state/quire-train [--seed 1]

Resumes from RUN/ckpt.pt if present (else from --init, e.g. tools/recognition/checkpoints/latest.pt).
Writes RUN/ckpt.pt atomically every --ckpt-minutes and appends figures to RUN/log.tsv.
The data stream is seeded by (seed, step) so a resumed run is reproducible from the checkpoint on.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import model as model_mod  # noqa: E402

torch.set_num_threads(1)

LOG_COLUMNS = ["step", "samples", "hours", "samples_per_s", "train_loss", "lr",
               "cer_digits", "cer_upper", "cer_lower", "cer_symbols", "cer_words", "cer_lines"]


def edit_distance(a, b) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[-1]


def greedy_decode(lp: torch.Tensor, length: int) -> str:
    best = lp[:length].argmax(-1).tolist()
    out, last = [], 0
    for k in best:
        if k != last and k != 0:
            out.append(k)
        last = k
    return data.decode_indices(out)


def collate(items):
    lengths = torch.tensor([len(f) for f, _ in items], dtype=torch.long)
    T = int(lengths.max())
    x = torch.zeros(len(items), T, data.NUM_FEATURES)
    for i, (f, _) in enumerate(items):
        x[i, : len(f)] = torch.from_numpy(f)
    tl = torch.tensor([len(t) for _, t in items], dtype=torch.long)
    tg = torch.tensor([c for _, t in items for c in t], dtype=torch.long)
    return x, lengths, tg, tl


@torch.no_grad()
def evaluate(net, subset, max_batch_points=6000):
    """Greedy CER / exact-match accuracy per category (multi-line 'lines' ink is split into lines)."""
    net.eval()
    res = {}
    for cat, samples in subset.items():
        items = []  # (features, sample index, part index)
        for si, s in enumerate(samples):
            for pi, f in enumerate(data.eval_features(s)):
                items.append((f, si, pi))
        items.sort(key=lambda it: len(it[0]))
        hyps = [dict() for _ in samples]
        i = 0
        while i < len(items):
            j = i + 1
            while j < len(items) and (j - i + 1) * len(items[j][0]) <= max_batch_points and j - i < 64:
                j += 1
            batch = items[i:j]
            x, L, _, _ = collate([(f, [1]) for f, _, _ in batch])
            lp, ol = net(x, L)
            for k, (_, si, pi) in enumerate(batch):
                hyps[si][pi] = greedy_decode(lp[k], int(ol[k]))
            i = j
        errs = chars = words_ok = 0
        for s, h in zip(samples, hyps):
            hyp = " ".join(h[k] for k in sorted(h) if h[k])
            errs += edit_distance(hyp, s.label)
            chars += len(s.label)
            words_ok += hyp == s.label
        res[cat] = (errs / max(1, chars), words_ok / max(1, len(samples)), len(samples))
    net.train()
    return res


def lr_at(args, step, samples):
    warm = min(1.0, (step + 1) / 300)
    return max(args.min_lr, args.lr * warm * 0.5 ** (samples / args.halve_every))


def parse_mix(text):
    if not text:
        return None
    weights = {}
    for part in text.split(","):
        kind, _, value = part.partition("=")
        weights[kind.strip()] = float(value)
    if not set(data.Mixer.WEIGHTS) <= set(weights) <= set(data.Mixer.WEIGHTS) | {"cut"}:
        raise SystemExit(f"--mix needs exactly {sorted(data.Mixer.WEIGHTS)} and may add cut")
    return weights


def save_atomic(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--init", default=None, help="checkpoint to start from if RUN/ckpt.pt is absent")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=1.5e-3)
    ap.add_argument("--min-lr", type=float, default=1e-4)
    ap.add_argument("--halve-every", type=float, default=1.5e6, help="halve lr every N training samples")
    ap.add_argument("--batch-points", type=int, default=5000, help="max padded points per batch")
    ap.add_argument("--max-batch", type=int, default=48)
    ap.add_argument("--pool", type=int, default=384)
    ap.add_argument("--ckpt-minutes", type=float, default=5.0)
    ap.add_argument("--val-per-cat", type=int, default=100)
    ap.add_argument("--max-hours", type=float, default=1e9)
    ap.add_argument("--mix", default=None,
                    help="draw weights after the warm-up, e.g. chars=0.4,words=0.3,lines=0.16,composed=0.14 "
                         "(default data.Mixer.WEIGHTS)")
    ap.add_argument("--cut-letters", default=None,
                    help="pickle of letters cut out of training words (experiments/cut_letters.py), "
                         "drawn as 'cut' in --mix")
    ap.add_argument("--loop-aug", type=float, default=0.0,
                    help="probability of re-starting a closed stroke elsewhere on its loop (data.LOOP_AUG_P)")
    args = ap.parse_args()
    data.LOOP_AUG_P = args.loop_aug

    os.makedirs(args.run, exist_ok=True)
    ckpt_path = os.path.join(args.run, "ckpt.pt")
    log_path = os.path.join(args.run, "log.tsv")

    net = model_mod.build()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    step, samples_seen, hours = 0, 0, 0.0
    history = []  # every start of training (args and where it began), so a checkpoint tells its recipe
    src = ckpt_path if os.path.exists(ckpt_path) else args.init
    if src and os.path.exists(src):
        ck = torch.load(src, map_location="cpu", weights_only=False)
        net.load_state_dict(ck["model"])
        if ck.get("optimizer"):
            opt.load_state_dict(ck["optimizer"])
        step, samples_seen, hours = ck["step"], ck["samples"], ck.get("hours", 0.0)
        history = list(ck.get("history", []))
        if ck.get("averaged"):
            history.append({"averaged": ck["averaged"]})
        print(f"resumed from {src} at step {step}, {samples_seen} samples", flush=True)
    print(f"params {model_mod.num_params(net)}", flush=True)
    history.append({"step": step, "samples": samples_seen, "args": vars(args)})

    samples = data.load_all()
    train, val = data.split(samples)
    subset = data.val_subset(val, args.val_per_cat)
    cut = data.load_cut_letters(args.cut_letters) if args.cut_letters else None
    mixer = data.Mixer(train, seed=args.seed * 1_000_003 + step, weights=parse_mix(args.mix), cut=cut)
    torch.manual_seed(args.seed + step)

    if not os.path.exists(log_path):
        # continuing from a committed checkpoint on a fresh machine: carry the committed log over
        prior = os.path.join(os.path.dirname(os.path.abspath(__file__)), "train-log.tsv")
        if src and src != ckpt_path and os.path.exists(prior):
            with open(prior) as f_in, open(log_path, "w") as f:
                f.write(f_in.read())
        else:
            with open(log_path, "w") as f:
                f.write("\t".join(LOG_COLUMNS) + "\n")

    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True, reduction="sum")
    t_start = time.time()
    t_ckpt = time.time()
    win_samples, win_loss, win_t = 0, 0.0, time.time()
    net.train()

    def checkpoint():
        nonlocal t_ckpt, win_samples, win_loss, win_t
        el = time.time() - win_t
        sps = win_samples / max(el, 1e-9)
        loss = win_loss / max(1, win_samples)
        ev = evaluate(net, subset)
        cur_hours = hours + (time.time() - t_start) / 3600
        save_atomic({"model": net.state_dict(), "optimizer": opt.state_dict(), "step": step,
                     "samples": samples_seen, "hours": cur_hours, "config": model_mod.CONFIG,
                     "args": vars(args), "history": history}, ckpt_path)
        row = [step, samples_seen, f"{cur_hours:.3f}", f"{sps:.1f}", f"{loss:.4f}",
               f"{lr_at(args, step, samples_seen):.2e}"]
        row += [f"{ev[c][0]:.4f}" if c in ev else "" for c in
                ("digits", "upper", "lower", "symbols", "words", "lines")]
        with open(log_path, "a") as f:
            f.write("\t".join(map(str, row)) + "\n")
        print(" ".join(f"{k}={v}" for k, v in zip(LOG_COLUMNS, row)), flush=True)
        t_ckpt = time.time()
        win_samples, win_loss, win_t = 0, 0.0, time.time()

    import signal

    stop = {"flag": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(flag=True))
    while not stop["flag"]:
        mixer.set_progress(samples_seen)
        pool = [mixer.draw() for _ in range(args.pool)]
        pool.sort(key=lambda it: len(it[0]))
        batches, i = [], 0
        while i < len(pool):
            j = i + 1
            while j < len(pool) and (j - i + 1) * len(pool[j][0]) <= args.batch_points and j - i < args.max_batch:
                j += 1
            batches.append(pool[i:j])
            i = j
        mixer.rng.shuffle(batches)
        for b in batches:
            x, L, tg, tl = collate([(f, t) for f, t, _ in b])
            for g in opt.param_groups:
                g["lr"] = lr_at(args, step, samples_seen)
            lp, ol = net(x, L)
            loss = ctc(lp.transpose(0, 1), tg, ol, tl)
            opt.zero_grad()
            (loss / len(b)).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            opt.step()
            step += 1
            samples_seen += len(b)
            win_samples += len(b)
            win_loss += loss.item()
            if time.time() - t_ckpt > args.ckpt_minutes * 60 or stop["flag"]:
                checkpoint()
            if stop["flag"]:
                break
        if time.time() - t_start > args.max_hours * 3600:
            checkpoint()
            break


if __name__ == "__main__":
    main()
