"""Resumable training of the math symbol classifier (the text network with the math alphabet).

    OMP_NUM_THREADS=1 python3 tools/recognition/math/train_math.py --run /work/state/quire-math \
        [--init tools/recognition/checkpoints/chars.pt] [--seed 1]

Resumes from RUN/ckpt.pt if present; else starts from --init: a math checkpoint (same alphabet), or a
text checkpoint whose output layer is re-mapped onto the math alphabet (recognize.build_net).
Examples (CTC, one-character targets): the stroke groups of expressions composed from TRAINING
writers (compose.py), each true symbol labelled with its class; hypotheses the segmenter would form
that span pieces of two or more symbols labelled JUNK (at most 0.6 per true symbol); pieces of a
single multi-stroke symbol (one bar of '=') are not used. Plus --iso of isolated characters of
training writers whose label is in the alphabet. Validation writers (data.is_validation_writer) are
never drawn. Every --ckpt-minutes: RUN/ckpt.pt (atomic) and a row in RUN/log.tsv with the figures of
a fixed set of composed validation expressions (symbols classified with the true segmentation, and
the whole pipeline: symbol accuracy and expression rate).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import signal
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import compose  # noqa: E402
import cut_math_letters  # noqa: E402
import data  # noqa: E402
import recognize as R  # noqa: E402
import segment  # noqa: E402
import shapes  # noqa: E402
import strokes as sm  # noqa: E402
import symbols as S  # noqa: E402

torch.set_num_threads(1)
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
LOG_COLUMNS = ["step", "samples", "hours", "samples_per_s", "train_loss", "lr",
               "val_cls_acc", "val_junk_ok", "val_sym_acc", "val_expr_rate", "val_n"]


class MathMixer:
    def __init__(self, kits, seed, iso_share, variation=0.0, extra_iso=False, confusable=0.0, cut=()):
        self.rng = random.Random(seed)
        np.random.seed(seed % (2 ** 32))
        names = compose.writers(kits, validation=False)
        assert not any(data.is_validation_writer(w) for w in names)
        self.stream = compose.expression_stream(kits, names, seed, variation)
        self.variation = variation
        self.iso = [(lab, st) for w in names for lab, lst in kits[w].items() if lab in S.INDEX and len(lab) == 1
                    for st in lst]
        if extra_iso:
            self.iso += extra_isolated(kits)
        self.iso += list(cut)  # letters cut from training writers' words (cut_math_letters.py)
        self.iso_share = iso_share
        self.confusable = confusable
        self.by_label = {}
        for lab, st in self.iso:
            if lab in shapes.CONFUSABLE:
                self.by_label.setdefault(lab, []).append(st)
        self.queue = []

    def examples_of(self, e):
        strokes = e["strokes"]
        truth = {tuple(sorted(s["strokes"])): s["sym"] for s in e["symbols"]}
        owner = {i: k for k, s in enumerate(e["symbols"]) for i in s["strokes"]}
        out = [(list(g), c) for g, c in truth.items()]
        junk = []
        for g in segment.candidates(strokes):
            if g in truth:
                continue
            if len({owner[i] for i in g}) == 1:
                continue  # a piece of one symbol: it may well look like another symbol
            junk.append(list(g))
        self.rng.shuffle(junk)
        out += [(g, S.JUNK) for g in junk[: max(1, int(0.6 * len(truth)))]]
        return [([strokes[i] for i in g], c) for g, c in out]

    def draw(self):
        while True:
            st, lab = self.draw_strokes()
            f = data.sample_features(st, True, self.rng, augment=True)
            if f is None or (len(f) + 1) // 2 < 3:
                continue
            return f, [S.INDEX[lab]]

    def draw_strokes(self):
        """One training group as (strokes in mm, class): the mix the sequence network and the glyph
        image network (train_glyph.py) both learn from."""
        if self.rng.random() < self.confusable:
            # each class of the confusable pairs equally often, whatever its count in the data
            lab = self.rng.choice(sorted(self.by_label))
            st = shapes.confusable_variant(lab, self.rng.choice(self.by_label[lab]), self.rng)
        elif self.rng.random() < self.iso_share:
            lab, st = self.rng.choice(self.iso)
            if lab in compose.Hand.SPLITTABLE and self.rng.random() < self.variation:
                st = sm.split_strokes(st, self.rng)
            st = shapes.vary(lab, st, self.rng, self.variation * compose.Hand.shape_share)
        else:
            if not self.queue:
                self.queue = self.examples_of(next(self.stream))
                self.rng.shuffle(self.queue)
            st, lab = self.queue.pop()
        return st, lab


def extra_isolated(kits):
    """Isolated characters of TRAINING writers the kits leave out (no full set of digits: UNIPEN
    writers of letters or symbols only, Omniglot's mouse-drawn lower case), after the kits' hygiene
    rules with H = the writer's digit height, else his capitals' height, else 1.6 x his small letters'.
    Omniglot has no resolution: each sample is scaled to its label's median height in the kits."""
    ref = {}
    for k in kits.values():
        for lab, lst in k.items():
            ref.setdefault(lab, []).extend(float(np.ptp(np.concatenate(st)[:, 1])) for st in lst[:5])
    ref = {lab: float(np.median(v)) for lab, v in ref.items()}
    by: dict = {}
    for s in data.load_all(verbose=False):
        if (s.cat in ("digits", "upper", "lower", "symbols") and s.writer not in kits and s.label in S.INDEX
                and len(s.label) == 1 and not data.is_validation_writer(s.writer)):
            st = [a.astype(np.float64) for a in s.strokes]
            if not s.in_mm:
                if s.label not in ref:
                    continue
                h = max(float(np.ptp(np.concatenate(st)[:, 1])), 1e-6)
                st = [a * (ref[s.label] / h) for a in st]
            by.setdefault(s.writer, {}).setdefault(s.label, []).append(st)
    out = []
    for w, kit in by.items():
        hs = lambda labs: [float(np.ptp(np.concatenate(st)[:, 1])) for lab in labs for st in kit.get(lab, [])]  # noqa: E731
        H = (np.median(hs(S.DIGITS)) if hs(S.DIGITS) else np.median(hs(S.UPPER)) if hs(S.UPPER)
             else 1.6 * np.median(hs(S.LOWER)) if hs(S.LOWER) else 0.0)
        out += [(lab, st) for lab, lst in kit.items() for st in lst if not compose.rejection(lab, st, float(H))]
    assert not any(data.is_validation_writer(w) for w in by)
    print(f"extra isolated characters: {len(out)} of {len(by)} training writers outside the kits", flush=True)
    return out


def validation_set(kits, n, seed=777):
    names = compose.writers(kits, validation=True)
    stream = compose.expression_stream(kits, names, seed)
    return [next(stream) for _ in range(n)]


@torch.no_grad()
def evaluate(net, exprs, full_n):
    """(classification accuracy on true groups, share of junk groups whose best class is JUNK,
    pipeline symbol accuracy, expression rate) on composed validation expressions."""
    net.eval()
    feats, labels = [], []
    for e in exprs:
        owner = {i: k for k, s in enumerate(e["symbols"]) for i in s["strokes"]}
        truth = {tuple(sorted(s["strokes"])): s["sym"] for s in e["symbols"]}
        for g, c in truth.items():
            feats.append(R.group_features(e["strokes"], g))
            labels.append(c)
        for g in segment.candidates(e["strokes"])[:400]:
            if g not in truth and len({owner[i] for i in g}) > 1:
                feats.append(R.group_features(e["strokes"], g))
                labels.append(S.JUNK)
    keep = [k for k, f in enumerate(feats) if f is not None]
    lps = R.log_probs(net, [feats[k] for k in keep])
    ok = junk_ok = n_sym = n_junk = 0
    for k, lp in zip(keep, lps):
        cs = segment.class_scores(lp)
        pred = S.CHARSET[int(np.argmax(cs[1:]))]
        if labels[k] == S.JUNK:
            n_junk += 1
            junk_ok += pred == S.JUNK
        else:
            n_sym += 1
            ok += pred == labels[k]
    right = total = exact = 0
    for e in exprs[:full_n]:
        latex, groups = R.recognize(net, e["strokes"])
        a, b, c = R.score_expression(e, latex, groups)
        right, total, exact = right + a, total + b, exact + c
    net.train()
    return ok / max(1, n_sym), junk_ok / max(1, n_junk), right / max(1, total), exact / max(1, full_n)


def save_atomic(obj, path):
    torch.save(obj, path + ".tmp")
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--init", default=os.path.join(ROOT, "tools/recognition/checkpoints/chars.pt"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=6e-4)
    ap.add_argument("--min-lr", type=float, default=3e-5)
    ap.add_argument("--halve-every", type=float, default=400_000)
    ap.add_argument("--iso", type=float, default=0.15, help="share of isolated characters in the draws")
    ap.add_argument("--variation", type=float, default=0.15,
                    help="writer-like variants per glyph (one-stroke '+', digits and letters in more strokes)")
    ap.add_argument("--shapes", type=float, default=1.0,
                    help="rate of shapes.vary (per-stroke affine, elastic, closed gaps, open loops, "
                         "flagged 1) relative to --variation; 0: the recipe before it")
    ap.add_argument("--extra-iso", action="store_true",
                    help="add isolated characters of training writers outside the kits (extra_isolated)")
    ap.add_argument("--confusable", type=float, default=0.0,
                    help="share of draws that are isolated glyphs of shapes.CONFUSABLE ('1' '/' '6' 'b' '4' "
                         "'9') of training writers through shapes.confusable_variant")
    ap.add_argument("--cut-file", help="letters cut from training writers' words (cut_math_letters.py), "
                    "added to the isolated characters")
    ap.add_argument("--cooldown-hours", type=float, default=0.0,
                    help="if > 0: from this run's start the lr falls along a half cosine from the halving "
                         "schedule's value to --min-lr over this many hours of training (then stays there)")
    ap.add_argument("--batch-points", type=int, default=3000)
    ap.add_argument("--max-batch", type=int, default=64)
    ap.add_argument("--pool", type=int, default=256)
    ap.add_argument("--ckpt-minutes", type=float, default=5.0)
    ap.add_argument("--val-exprs", type=int, default=150)
    ap.add_argument("--val-full", type=int, default=100, help="expressions read by the whole pipeline")
    ap.add_argument("--max-hours", type=float, default=1e9)
    args = ap.parse_args()

    os.makedirs(args.run, exist_ok=True)
    ckpt_path, log_path = os.path.join(args.run, "ckpt.pt"), os.path.join(args.run, "log.tsv")
    step = samples_seen = 0
    hours = 0.0
    history = []
    opt_state = None
    ck_cool = None
    if os.path.exists(ckpt_path) or (args.init and torch.load(args.init, map_location="cpu",
                                                               weights_only=False).get("alphabet") == S.CHARSET):
        src = ckpt_path if os.path.exists(ckpt_path) else args.init
        ck = torch.load(src, map_location="cpu", weights_only=False)
        net = R.build_net(None)
        net.load_state_dict(ck["model"])
        step, samples_seen, hours = ck["step"], ck["samples"], ck.get("hours", 0.0)
        history, opt_state = list(ck.get("history", [])), ck.get("optimizer")
        ck_cool = ck.get("cooldown") if src == ckpt_path else None
        print(f"resumed from {src} at step {step}, {samples_seen} samples", flush=True)
    else:
        net = R.build_net(args.init)
        print(f"new math output layer on {args.init}", flush=True)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    if opt_state:
        opt.load_state_dict(opt_state)
    history.append({"step": step, "samples": samples_seen, "args": vars(args)})

    kits = compose.load_kits()
    val = validation_set(kits, args.val_exprs)
    compose.Hand.shape_share = args.shapes
    mixer = MathMixer(kits, args.seed * 1_000_003 + step, args.iso, args.variation, args.extra_iso,
                      args.confusable, cut_math_letters.load(args.cut_file) if args.cut_file else ())
    torch.manual_seed(args.seed + step)
    if not os.path.exists(log_path):
        with open(log_path, "w") as f:
            f.write("\t".join(LOG_COLUMNS) + "\n")

    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True, reduction="sum")
    halving = lambda: max(args.min_lr, args.lr * min(1.0, (step + 1) / 300) * 0.5 ** (samples_seen / args.halve_every))  # noqa: E731
    # The cool-down starts where this run first started (kept in the checkpoint, so a resume goes on
    # along the same curve) from the halving schedule's lr there.
    cool = ck_cool if ck_cool else ({"hours": hours, "lr": halving()} if args.cooldown_hours > 0 else None)
    t_start = t_ckpt = win_t = time.time()

    def lr_at():
        if not cool:
            return halving()
        t = min(1.0, (hours + (time.time() - t_start) / 3600 - cool["hours"]) / args.cooldown_hours)
        return args.min_lr + (cool["lr"] - args.min_lr) * 0.5 * (1 + math.cos(math.pi * t))

    win_samples, win_loss = 0, 0.0

    def checkpoint():
        nonlocal t_ckpt, win_samples, win_loss, win_t
        sps = win_samples / max(time.time() - win_t, 1e-9)
        loss = win_loss / max(1, win_samples)
        cur_hours = hours + (time.time() - t_start) / 3600
        save_atomic({"model": net.state_dict(), "optimizer": opt.state_dict(), "step": step,
                     "samples": samples_seen, "hours": cur_hours, "alphabet": S.CHARSET,
                     "args": vars(args), "history": history, "cooldown": cool}, ckpt_path)
        ev = evaluate(net, val, args.val_full)
        row = [step, samples_seen, f"{cur_hours:.3f}", f"{sps:.1f}", f"{loss:.4f}", f"{lr_at():.2e}"]
        row += [f"{v:.4f}" for v in ev] + [args.val_full]
        with open(log_path, "a") as f:
            f.write("\t".join(map(str, row)) + "\n")
        print(" ".join(f"{k}={v}" for k, v in zip(LOG_COLUMNS, row)), flush=True)
        t_ckpt = win_t = time.time()
        win_samples, win_loss = 0, 0.0

    stop = {"flag": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(flag=True))
    net.train()
    while not stop["flag"]:
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
            L = torch.tensor([len(f) for f, _ in b])
            x = torch.zeros(len(b), int(L.max()), data.NUM_FEATURES)
            for r, (f, _) in enumerate(b):
                x[r, :len(f)] = torch.from_numpy(f)
            tg = torch.tensor([t[0] for _, t in b])
            for g in opt.param_groups:
                g["lr"] = lr_at()
            lp, ol = net(x, L)
            loss = ctc(lp.transpose(0, 1), tg, ol, torch.ones(len(b), dtype=torch.long))
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
