"""Data hygiene of the symbol kits: samples that cannot be the symbol they are labelled (corrupted
sparse coordinates, oversize boxes, specks) are dropped before composing (docs/MATH-MODEL.md "Data
hygiene"; pinned by test_hygiene.py). compose.py re-exports these names."""
from __future__ import annotations

import collections

import numpy as np

import data
import symbols as S

DIGITS = set(S.DIGITS)

# Hygiene: samples that cannot be the symbol they are labelled. Thresholds are in units of the
# writer's median digit height H and were read off the statistics of ALL writers' kits (training and
# validation alike; docs/MATH-MODEL.md "Data hygiene" gives the distributions and the counts).
SPARSE_STEP_H = 0.5      # mean distance between consecutive points over 0.5 H: not pen-sampled ink
OVERSIZE_H = 6.0         # box over 6 H: a bracket or a letter is at most ~3 H in any kit
SPECK_H, SPECK_POINTS = 0.15, 3   # a letter or digit that is a speck of at most 3 points
DOT_LIKE = set(".,:;'\"`-_~")
HYGIENE_RULES = ("sparse", "oversize", "speck")


def digit_height(kit: dict, keep=lambda st: True) -> float:
    hs = [np.ptp(np.concatenate(st)[:, 1]) for lab in S.DIGITS for st in kit.get(lab, []) if keep(st)]
    return float(np.median(hs)) if hs else 0.0


def mean_step(st) -> float:
    """Mean distance between consecutive recorded points of a sample (mm)."""
    length = sum(float(np.hypot(*np.diff(s, axis=0).T).sum()) for s in st if len(s) > 1)
    steps = sum(len(s) - 1 for s in st)
    return length / max(steps, 1)


def rejection(lab: str, st, H: float):
    """The hygiene rule a sample fails (None if it passes); H is the writer's digit height (mm)."""
    if H <= 0:
        return None
    p = np.concatenate(st)
    ext = max(float(np.ptp(p[:, 0])), float(np.ptp(p[:, 1])))
    if mean_step(st) > SPARSE_STEP_H * H:
        return "sparse"
    if ext > OVERSIZE_H * H:
        return "oversize"
    if lab not in DOT_LIKE and len(p) <= SPECK_POINTS and ext < SPECK_H * H:
        return "speck"
    return None


def hygiene(kit: dict):
    """(kit without the samples that fail a rule, {rule: [labels dropped]}). H is measured twice: the
    second time without the sparse samples, whose boxes are tens of H (corrupted coordinates)."""
    H = digit_height(kit)
    H = digit_height(kit, lambda st: mean_step(st) <= SPARSE_STEP_H * H) or H
    out, dropped = {}, {r: [] for r in HYGIENE_RULES}
    for lab, lst in kit.items():
        keep = []
        for st in lst:
            why = rejection(lab, st, H)
            if why:
                dropped[why].append(lab)
            else:
                keep.append(st)
        if keep:
            out[lab] = keep
    return out, dropped


def hygiene_report():
    """Per rule, samples dropped from the kits of training and validation writers (docs/MATH-MODEL.md)."""
    raw: dict = {}
    for s in data.load_all():
        if s.cat in ("digits", "upper", "lower", "symbols"):
            raw.setdefault(s.writer, {}).setdefault(s.label, []).append([a.astype(np.float64) for a in s.strokes])
    raw = {w: k for w, k in raw.items() if DIGITS <= set(k)}
    for split in (False, True):
        names = [w for w in raw if data.is_validation_writer(w) == split]
        total = sum(len(v) for w in names for v in raw[w].values())
        print(f"{'validation' if split else 'training'} writers: {len(names)}, samples {total}")
        for rule in HYGIENE_RULES:
            labs, who = [], set()
            for w in names:
                d = hygiene(raw[w])[1][rule]
                labs += d
                if d:
                    who.add(w)
            common = " ".join(f"{c}:{n}" for c, n in collections.Counter(labs).most_common(8))
            print(f"  {rule:9s} {len(labs):5d} samples of {len(who)} writers  ({common})")
