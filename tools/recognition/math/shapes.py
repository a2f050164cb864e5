"""Shape variation of one glyph for training (compose.Hand with variation > 0, and the isolated
characters of train_math.py): shapes that writers the training kits do not hold make, generated
from the kits' own glyphs without looking at any validation writer.

- stroke_affine: every stroke of a multi-stroke glyph moved, turned and scaled a little on its own
  (the pieces of a '4', 'E', '+' never sit the same way twice).
- elastic: a smooth low-frequency displacement of the whole glyph (a few Gaussian bumps), so
  curves bulge, tops flatten and corners round as in other hands ('z' vs '2', 'g' vs '9').
- close_gap: two strokes whose ends nearly meet are joined (a '4' with its top closed, a 't'
  written without a lift), either into one stroke or by extending one stroke up to the other.
- open_loop: a loop whose stroke returns to its start is left open (a '9' or '6' with a gap, a
  one-stroke '4' with an open top).
- flag_one: a '1' gets a flag at its top (a short down-left lead-in, in the same stroke or apart)
  and sometimes a foot bar.

All amounts are relative to the glyph's size, so they hold at any scale (glyphs are in mm).
"""
from __future__ import annotations

import math
import random

import numpy as np

# Loops whose opening keeps the symbol what it is (a small gap, never half the loop).
LOOPED = set("04689abdgqopBDOPQR")
# Multi-stroke glyphs whose nearly-touching ends may be joined (dots and separate marks excluded).
JOINABLE = set("4579ktfxyEFHKATXYk<>[]{}")


def size_of(strokes) -> float:
    p = np.concatenate(strokes)
    return max(float(np.ptp(p[:, 0])), float(np.ptp(p[:, 1])), 1e-6)


def extent(s) -> float:
    return max(float(np.ptp(s[:, 0])), float(np.ptp(s[:, 1]))) if len(s) else 0.0


def stroke_affine(strokes, rng: random.Random, amount: float = 1.0):
    size = size_of(strokes)
    out = []
    for s in strokes:
        c = s.mean(axis=0)
        a = rng.gauss(0, 0.07 * amount)
        k = math.exp(rng.gauss(0, 0.07 * amount))
        m = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * k
        shift = np.array([rng.gauss(0, 0.035 * amount), rng.gauss(0, 0.035 * amount)]) * size
        out.append((s - c) @ m.T + c + shift)
    return out


def elastic(strokes, rng: random.Random, amount: float = 1.0):
    size = size_of(strokes)
    p = np.concatenate(strokes)
    lo = p.min(axis=0)
    bumps = []
    for _ in range(rng.randint(2, 4)):
        centre = lo + np.array([rng.random(), rng.random()]) * np.ptp(p, axis=0)
        disp = np.array([rng.gauss(0, 0.06), rng.gauss(0, 0.06)]) * size * amount
        bumps.append((centre, disp, (0.25 + 0.25 * rng.random()) * size))
    out = []
    for s in strokes:
        d = np.zeros_like(s)
        for centre, disp, r in bumps:
            w = np.exp(-((s - centre) ** 2).sum(axis=1) / (2 * r * r))
            d += w[:, None] * disp
        out.append(s + d)
    return out


def bridge(a: np.ndarray, b: np.ndarray, spacing: float) -> np.ndarray:
    """Points strictly between a and b at about the stroke's own spacing."""
    n = max(1, int(np.hypot(*(b - a)) / max(spacing, 1e-6)))
    t = np.linspace(0, 1, n + 2)[1:-1, None]
    return a + (b - a) * t


def spacing_of(s: np.ndarray) -> float:
    return float(np.median(np.hypot(*np.diff(s, axis=0).T))) if len(s) > 1 else 0.1


def close_gap(strokes, rng: random.Random, max_gap: float = 0.4):
    """Join the nearest pair of ends of two strokes (both longer than 0.2 of the glyph) within
    max_gap of the glyph's size: merged into one stroke (60%) or one stroke extended to the other."""
    if len(strokes) < 2:
        return strokes
    size = size_of(strokes)
    best = None
    for i, s in enumerate(strokes):
        for j, t in enumerate(strokes):
            if j <= i or extent(s) < 0.2 * size or extent(t) < 0.2 * size:
                continue
            for ei in (0, -1):
                for ej in (0, -1):
                    d = float(np.hypot(*(s[ei] - t[ej])))
                    if 0.02 * size < d < max_gap * size and (best is None or d < best[0]):
                        best = (d, i, ei, j, ej)
    if best is None:
        return strokes
    _, i, ei, j, ej = best
    s = strokes[i] if ei == -1 else strokes[i][::-1]      # s ends at the joint
    t = strokes[j] if ej == 0 else strokes[j][::-1]       # t starts at the joint
    mid = bridge(s[-1], t[0], spacing_of(s))
    mid = mid + np.random.default_rng(rng.getrandbits(32)).normal(0, 0.01 * size, mid.shape)
    rest = [x for k, x in enumerate(strokes) if k not in (i, j)]
    if rng.random() < 0.6:
        joined = np.concatenate([s, mid, t])
        return rest[:min(i, len(rest))] + [joined] + rest[min(i, len(rest)):]
    out = list(strokes)
    out[i] = np.concatenate([s, mid, t[:1]]) if ei == -1 else np.concatenate([s, mid, t[:1]])[::-1]
    return out


def open_loop(strokes, rng: random.Random):
    """Trim a stroke's start (or end) where it closes a loop, leaving a gap of 0.08-0.2 of the size."""
    size = size_of(strokes)
    cands = []
    for k, s in enumerate(strokes):
        n = len(s)
        if n < 12:
            continue
        for end in (0, -1):
            far = s[n // 3:] if end == 0 else s[: n - n // 3]
            if float(np.hypot(*(far - s[end]).T).min()) < 0.12 * size:
                cands.append((k, end))
    if not cands:
        return strokes
    k, end = rng.choice(cands)
    s = strokes[k]
    gap = rng.uniform(0.08, 0.2) * size
    run = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(s if end == 0 else s[::-1], axis=0).T))])
    cut = int(np.searchsorted(run, gap))
    if cut >= len(s) - 4:
        return strokes
    out = list(strokes)
    out[k] = s[cut:] if end == 0 else s[: len(s) - cut]
    return out


def flag_one(strokes, rng: random.Random):
    """A '1' with a flag (a lead-in from its top down to the left) and, 25% of the time, a foot."""
    size = size_of(strokes)
    main = max(range(len(strokes)), key=lambda k: extent(strokes[k]))
    s = strokes[main]
    top_first = s[0][1] <= s[-1][1]
    top = s[0] if top_first else s[-1]
    ang = math.radians(rng.uniform(35, 65))   # flatter flags read as a '7's bar
    length = rng.uniform(0.15, 0.4) * size
    tip = top + np.array([-math.cos(ang), math.sin(ang)]) * length
    sp = spacing_of(s)
    flag = np.concatenate([[tip], bridge(tip, top, sp)])
    flag = flag + np.random.default_rng(rng.getrandbits(32)).normal(0, 0.01 * size, flag.shape)
    out = list(strokes)
    if rng.random() < 0.7:
        out[main] = np.concatenate([flag, s if top_first else s[::-1]])
    else:
        out.insert(main, flag)
    if rng.random() < 0.25:
        bot = s[-1] if top_first else s[0]
        w = rng.uniform(0.2, 0.35) * size
        a, b = bot + np.array([-w, 0]), bot + np.array([w, 0])
        out.append(np.concatenate([[a], bridge(a, b, sp), [b]]))
    return out


def vary(sym: str, strokes, rng: random.Random, p: float):
    """The glyph with each variation applied with its own probability (all scaled by p)."""
    if p <= 0 or not strokes:
        return strokes
    st = [np.asarray(s, dtype=np.float64) for s in strokes if len(s)]
    if not st:
        return strokes
    if sym == "1" and rng.random() < 2 * p:
        st = flag_one(st, rng)
    if sym in LOOPED and rng.random() < p:
        st = open_loop(st, rng)
    if sym in JOINABLE and len(st) >= 2 and rng.random() < p:
        st = close_gap(st, rng)
    if len(st) >= 2 and rng.random() < 2 * p:
        st = stroke_affine(st, rng)
    if sym not in ".·" and rng.random() < 2 * p:
        st = elastic(st, rng)
    return st


# Pairs the Swift recognizer confuses on validation writers (docs/MATH-EXPERIMENTS.md, step 35,740): a
# '1' that leans with no flag read '/', '6' read 'b', a closed '4' read '9' (and the reverse of each).
CONFUSABLE = "1/6b49"


def lean(strokes, rng: random.Random, lo: float = 0.25, hi: float = 0.6):
    """The glyph sheared so its top goes right by lo..hi of its height (about 14-31 degrees) on top
    of the training augmentation's slant: the steep-leaning '1' of hands the kits lack."""
    k = rng.uniform(lo, hi)
    p = np.concatenate(strokes)
    y0 = float(p[:, 1].max())   # y grows downwards: the bottom stays put
    return [s + np.stack([k * (y0 - s[:, 1]), np.zeros(len(s))], axis=1) for s in strokes]


def confusable_variant(sym: str, strokes, rng: random.Random):
    """A glyph of a CONFUSABLE class made to look more like its partner while staying itself: a
    '1' leaning with no flag, a '4' with its top closed, and both sides of each pair with the usual
    variations at a higher rate so the network learns the cues that remain (length, loop, stem)."""
    st = [np.asarray(s, dtype=np.float64) for s in strokes if len(s)]
    if not st:
        return strokes
    if sym == "1":
        if rng.random() < 0.6:
            st = lean(st, rng)
        elif rng.random() < 0.5:
            st = flag_one(st, rng)
    elif sym == "/":
        if rng.random() < 0.5:
            st = lean(st, rng, -0.3, 0.15)   # a '/' steeper or flatter than the writer's own
    elif sym == "4" and len(st) >= 2 and rng.random() < 0.6:
        st = close_gap(st, rng, max_gap=0.5)
    if sym in LOOPED and rng.random() < 0.3:
        st = open_loop(st, rng)
    if len(st) >= 2 and rng.random() < 0.5:
        st = stroke_affine(st, rng)
    if rng.random() < 0.6:
        st = elastic(st, rng, 1.3)
    return st
