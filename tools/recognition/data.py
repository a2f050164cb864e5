"""Quire recognition data pipeline.

Reads the common JSONL format of ../shared/data (see /work/shared/data/README.md), normalises and
resamples the ink, builds per-point features, makes a writer-disjoint split and augments.

The preprocessing here is mirrored exactly by Sources/InkRecognition/Preprocess.swift; the constants
are written into the weight file header by export.py. Change one, change both (the parity test only
checks the network; tests/test_preprocess_parity is checked through parity.json's "preprocess" case).

Normalisation (documented in docs/RECOGNITION-MODEL.md):
  * Coordinates in millimetres where the device resolution is known (ppi), else in raw units.
  * Size unit U = max(ink bounding-box height, MIN_HEIGHT_MM) for millimetre ink; for ink without a
    resolution (pendigits, Omniglot, a few UNIPEN words) U = bounding-box height (or width if the
    height is 0). Using an absolute floor in mm keeps isolated punctuation ('.', ',', '-') small
    relative to a letter instead of blowing it up to full height; the app always passes millimetres.
  * x' = (x - min x) / U, y' = (y - (min y + max y)/2) / U.
  * Each stroke is resampled along its arc length: k = max(1, round(L / SPACING)) equal steps,
    k + 1 points including both ends (a stroke of length 0 keeps 1 point).
  * Features per resampled point: dx, dy (difference to the previous point, clipped to +-CLIP, 0 for
    the first point), pen_up (1 for the first point of every stroke), y' (clipped to +-CLIP).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import pickle
import random
from dataclasses import dataclass

import numpy as np

DATA_DIR = os.environ.get("QUIRE_DATA", "/work/shared/data")
CACHE_DIR = os.environ.get("QUIRE_CACHE", "/work/state/quire-cache")

MIN_HEIGHT_MM = 4.0
SPACING = 0.1
CLIP = 4.0
NUM_FEATURES = 4
MAX_POINTS = 6000  # resampled points; longer ink is rejected (Swift does the same)

# Character set: blank (index 0) + printable ASCII 32..126 (index 1..95).
CHARSET = "".join(chr(c) for c in range(32, 127))
NUM_CLASSES = len(CHARSET) + 1
CHAR_TO_INDEX = {c: i + 1 for i, c in enumerate(CHARSET)}

FILES = [
    "unipen-chars.train.jsonl.gz",
    "unipen-words.train.jsonl.gz",
    "unipen-text.train.jsonl.gz",
    "pendigits.train.jsonl.gz",
    "omniglot-latin.train.jsonl.gz",
]


def is_validation_writer(writer: str) -> bool:
    """The fixed writer-disjoint split rule: 10% of writer keys go to validation."""
    return int(hashlib.sha1(writer.encode("utf-8")).hexdigest(), 16) % 10 == 0


def category(sample: dict) -> str:
    cat = sample["cat"]
    if cat in ("1a", "digit"):
        return "digits"
    if cat == "1b":
        return "upper"
    if cat in ("1c", "latin-lowercase"):
        return "lower"
    if cat == "1d":
        return "symbols"
    if cat in ("6", "7"):
        return "words"
    if cat == "8":
        return "lines"
    return "other"


def encode_label(label: str) -> list[int] | None:
    out = []
    for ch in label:
        idx = CHAR_TO_INDEX.get(ch)
        if idx is None:
            return None
        out.append(idx)
    return out


def decode_indices(idx) -> str:
    return "".join(CHARSET[i - 1] for i in idx if 0 < i <= len(CHARSET))


# --------------------------------------------------------------------------------------------
# Normalisation / resampling / features (mirrored in Swift)
# --------------------------------------------------------------------------------------------

def normalize(strokes: list[np.ndarray], in_mm: bool) -> list[np.ndarray]:
    """strokes: list of (n,2) float64 arrays. Returns normalised strokes (finite points only)."""
    clean = []
    for s in strokes:
        s = np.asarray(s, dtype=np.float64).reshape(-1, 2)
        s = s[np.isfinite(s).all(axis=1)]
        if len(s):
            clean.append(s)
    if not clean:
        return []
    allp = np.concatenate(clean)
    minx, miny = allp.min(axis=0)
    maxx, maxy = allp.max(axis=0)
    h = maxy - miny
    w = maxx - minx
    if in_mm:
        u = max(h, MIN_HEIGHT_MM)
    else:
        u = h if h > 0 else (w if w > 0 else 1.0)
    cy = (miny + maxy) / 2.0
    off = np.array([minx, cy])
    return [(s - off) / u for s in clean]


def resample_stroke(s: np.ndarray, spacing: float) -> np.ndarray:
    if len(s) == 1:
        return s.copy()
    seg = np.sqrt(((s[1:] - s[:-1]) ** 2).sum(axis=1))
    length = seg.sum()
    if not (length > 0):
        return s[:1].copy()
    k = max(1, int(math.floor(length / spacing + 0.5)))
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    targets = np.arange(k + 1) * (length / k)
    targets[-1] = length
    x = np.interp(targets, cum, s[:, 0])
    y = np.interp(targets, cum, s[:, 1])
    return np.stack([x, y], axis=1)


def features(strokes: list[np.ndarray], spacing: float = SPACING) -> tuple[np.ndarray, np.ndarray]:
    """Normalised strokes -> (features (T,4) float32, stroke index per point (T,) int32)."""
    pts, pen, sid = [], [], []
    for i, s in enumerate(strokes):
        r = resample_stroke(s, spacing)
        pts.append(r)
        p = np.zeros(len(r))
        p[0] = 1.0
        pen.append(p)
        sid.append(np.full(len(r), i, dtype=np.int32))
    if not pts:
        return np.zeros((0, NUM_FEATURES), np.float32), np.zeros(0, np.int32)
    P = np.concatenate(pts)
    d = np.zeros_like(P)
    d[1:] = P[1:] - P[:-1]
    d = np.clip(d, -CLIP, CLIP)
    f = np.empty((len(P), NUM_FEATURES), dtype=np.float32)
    f[:, 0:2] = d
    f[:, 2] = np.concatenate(pen)
    f[:, 3] = np.clip(P[:, 1], -CLIP, CLIP)
    return f, np.concatenate(sid)


def group_lines(strokes: list[np.ndarray], gap: float = 0.6, small: float = 0.5, dot: float = 0.6,
                mark_floor: float = 3.0, near: float = 2.0) -> list[list[int]]:
    """Split ink into text lines (mirror of Swift TextRecognizer.groupLines without guides).

    Strokes sorted by top edge join the current line while their top lies at most gap*h below the
    line's bottom (h = median stroke height, at least 1 unit); then lines shorter than small*h merge
    into the nearer neighbour, and so do marks within near*s of it (or anywhere when the ink holds
    nothing but marks): lines shorter than small*s, or under s tall and made only of strokes under
    dot*s each way (dots, commas, bars), s = max(h, mark_floor). Returns stroke indices per line,
    top to bottom."""
    iv = [(i, float(st[:, 1].min()), float(st[:, 1].max()),
           float(max(np.ptp(st[:, 1]), np.ptp(st[:, 0])))) for i, st in enumerate(strokes) if len(st)]
    if not iv:
        return []
    hs = sorted(b - a for _, a, b, _ in iv)
    h = max(hs[len(hs) // 2], 1.0)
    s = max(h, mark_floor)
    groups = []  # [members, top, bottom, largest stroke extent]
    for i, a, b, e in sorted(iv, key=lambda t: (t[1], t[0])):
        if groups and a <= groups[-1][2] + gap * h:
            g = groups[-1]
            g[0].append(i)
            g[2] = max(g[2], b)
            g[3] = max(g[3], e)
        else:
            groups.append([[i], a, b, e])

    def tiny(g):
        return g[2] - g[1] < small * h

    def mark(g):
        return g[2] - g[1] < small * s or (g[3] < dot * s and g[2] - g[1] < s)

    changed = True
    while changed and len(groups) > 1:
        changed = False
        only_marks = all(mark(g) for g in groups)
        for j, g in enumerate(groups):
            if tiny(g) or mark(g):
                if j == len(groups) - 1:
                    nb = j - 1
                elif j == 0:
                    nb = 1
                else:
                    nb = j - 1 if g[1] - groups[j - 1][2] <= groups[j + 1][1] - g[2] else j + 1
                gp = g[1] - groups[nb][2] if nb < j else groups[nb][1] - g[2]
                if not (tiny(g) or gp <= near * s or only_marks):
                    continue
                o = groups[nb]
                o[0] += g[0]
                o[1] = min(o[1], g[1])
                o[2] = max(o[2], g[2])
                o[3] = max(o[3], g[3])
                del groups[j]
                changed = True
                break
    return [sorted(g[0]) for g in groups]


def raw_to_strokes(sample: dict) -> tuple[list[np.ndarray], bool]:
    ppi = sample.get("ppi")
    out = []
    for st in sample["strokes"]:
        a = np.array([[p[0], p[1]] for p in st], dtype=np.float64)
        if ppi:
            a[:, 0] *= 25.4 / ppi[0]
            a[:, 1] *= 25.4 / ppi[1]
        out.append(a)
    return out, bool(ppi)


# --------------------------------------------------------------------------------------------
# Loading + cache
# --------------------------------------------------------------------------------------------

@dataclass
class Sample:
    id: str
    cat: str
    label: str
    target: list
    writer: str
    strokes: list  # list of (n,2) float32 arrays in mm (or raw units if not in_mm)
    in_mm: bool


def clean_label(label: str) -> str:
    return " ".join(label.split())


def load_all(data_dir: str = DATA_DIR, cache_dir: str = CACHE_DIR, verbose=True) -> list[Sample]:
    cache = os.path.join(cache_dir, "samples-v2.pkl")
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return [Sample(*t) for t in pickle.load(f)]
    samples = []
    skipped = 0
    for fn in FILES:
        path = os.path.join(data_dir, fn)
        if not os.path.exists(path):
            continue
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                s = json.loads(line)
                raw = s["label"]
                if "\n" in raw.strip() or "\r" in raw.strip():
                    skipped += 1  # multi-line text blocks: ink spans several written lines
                    continue
                label = clean_label(raw)
                if not label:
                    skipped += 1
                    continue
                tgt = encode_label(label)
                if tgt is None:
                    skipped += 1
                    continue
                strokes, in_mm = raw_to_strokes(s)
                strokes = [a.astype(np.float32) for a in strokes if len(a)]
                if not strokes:
                    skipped += 1
                    continue
                samples.append(Sample(s["id"], category(s), label, tgt, s["writer"], strokes, in_mm))
    if verbose:
        print(f"loaded {len(samples)} samples, skipped {skipped}", flush=True)
    os.makedirs(cache_dir, exist_ok=True)
    tmp = cache + ".tmp"
    with open(tmp, "wb") as f:
        pickle.dump([(s.id, s.cat, s.label, s.target, s.writer, s.strokes, s.in_mm) for s in samples], f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, cache)
    return samples


def split(samples: list[Sample]):
    train = [s for s in samples if not is_validation_writer(s.writer)]
    val = [s for s in samples if is_validation_writer(s.writer)]
    return train, val


# --------------------------------------------------------------------------------------------
# Augmentation
# --------------------------------------------------------------------------------------------

def augment_strokes(strokes: list[np.ndarray], rng: random.Random) -> list[np.ndarray]:
    """Random affine (slant, rotation, scale, aspect) + jitter, applied to normalised strokes."""
    shear = rng.uniform(-0.35, 0.35)
    rot = rng.uniform(-0.12, 0.12)
    sx = math.exp(rng.uniform(-0.2, 0.2))
    sy = sx * math.exp(rng.uniform(-0.15, 0.15))
    c, s = math.cos(rot), math.sin(rot)
    # y down: shear x by -shear*y to slant right for positive shear
    m = np.array([[c, -s], [s, c]]) @ np.array([[1.0, -shear], [0.0, 1.0]]) @ np.diag([sx, sy])
    jit = rng.uniform(0.0, 0.012)
    out = []
    for st in strokes:
        a = st.astype(np.float64) @ m.T
        if jit > 0 and len(a) > 1:
            a = a + np.random.default_rng(rng.getrandbits(32)).normal(0, jit, a.shape)
        out.append(a)
    return out


def delay_short_strokes(strokes: list[np.ndarray], rng: random.Random, p: float = 0.25) -> list[np.ndarray]:
    """Stroke-order noise: with probability p, move short strokes (i/j dots, t crossings, accents:
    extent < 0.25 U) that are not the first stroke to the end, as writers who dot a word afterwards do."""
    if len(strokes) < 3 or rng.random() >= p:
        return strokes
    short = [i for i, st in enumerate(strokes) if i > 0 and float(np.ptp(st, axis=0).max()) < 0.25]
    if not short:
        return strokes
    moved = set(short)
    return [st for i, st in enumerate(strokes) if i not in moved] + [strokes[i] for i in short]


# Probability that a closed stroke (an O, 0, 8, loop of a 6 or 9) is re-started at another point of
# the loop and possibly traced the other way round. Writers differ in where they start closed shapes
# (an 8 begun at the bottom, an O drawn clockwise); the data has too few such writers for the network
# to learn it. 0 keeps the recipe of the weights trained before this option existed.
LOOP_AUG_P = 0.0


def restart_loops(strokes: list[np.ndarray], rng: random.Random, p: float) -> list[np.ndarray]:
    """With probability p per closed stroke, move its start point along the loop and, half of the time,
    reverse its direction. A stroke is closed when its ends are within 20% of its extent."""
    if p <= 0:
        return strokes
    out = []
    for st in strokes:
        n = len(st)
        if n >= 8 and rng.random() < p:
            ext = float(np.ptp(st, axis=0).max())
            if ext > 0 and float(np.hypot(*(st[-1] - st[0]))) < 0.2 * ext:
                k = rng.randrange(1, n - 1)
                st = np.concatenate([st[k:], st[1:k + 1]])
                if rng.random() < 0.5:
                    st = st[::-1].copy()
        out.append(st)
    return out


def renormalize_after_aug(strokes):
    """Re-apply the translation part of normalisation (min x = 0, vertical centre = 0)."""
    allp = np.concatenate(strokes)
    minx = allp[:, 0].min()
    cy = (allp[:, 1].min() + allp[:, 1].max()) / 2
    off = np.array([minx, cy])
    return [s - off for s in strokes]


def compose_line(words: list[Sample], rng: random.Random):
    """Concatenate one writer's word samples (same units) into a pseudo line."""
    strokes = []
    x = 0.0
    heights = []
    for w in words:
        allp = np.concatenate(w.strokes)
        heights.append(allp[:, 1].max() - allp[:, 1].min())
    ref = float(np.median(heights)) if heights else 1.0
    labels = []
    for w in words:
        allp = np.concatenate(w.strokes).astype(np.float64)
        mx = allp[:, 0].min()
        my = float(np.median(allp[:, 1]))
        dy = rng.uniform(-0.08, 0.08) * ref
        for st in w.strokes:
            a = st.astype(np.float64).copy()
            a[:, 0] += x - mx
            a[:, 1] += -my + dy
            strokes.append(a)
        x += (allp[:, 0].max() - mx) + ref * rng.uniform(0.35, 0.9)
        labels.append(w.label)
    return strokes, " ".join(labels)


def sample_features(s_strokes, in_mm, rng: random.Random | None, augment: bool):
    st = normalize(s_strokes, in_mm)
    if not st:
        return None
    spacing = SPACING
    if augment and rng is not None:
        st = restart_loops(st, rng, LOOP_AUG_P)
        st = renormalize_after_aug(delay_short_strokes(augment_strokes(st, rng), rng))
        spacing = SPACING * math.exp(rng.uniform(-0.2, 0.2))
    f, _ = features(st, spacing)
    if len(f) == 0 or len(f) > MAX_POINTS:
        return None
    return f


def eval_features(s: Sample) -> list:
    """Features for evaluation: ink of the 'lines' category is split into text lines first (as the app
    does for a block), each line recognised on its own and the results joined with spaces."""
    if s.cat == "lines":
        groups = group_lines(s.strokes)
        parts = [sample_features([s.strokes[k] for k in g], s.in_mm, None, augment=False) for g in groups]
        return [p for p in parts if p is not None]
    f = sample_features(s.strokes, s.in_mm, None, augment=False)
    return [f] if f is not None else []


def printed_letter_groups(strokes: list[np.ndarray]) -> list[list[int]]:
    """Stroke indices of the letters of a printed word: strokes whose x-extents overlap form one
    group (an i and its dot, a t and its bar), groups ordered left to right. Cursive ink gives fewer
    groups than letters; `cut_letters` keeps only words where the counts agree."""
    ext = sorted((float(s[:, 0].min()), float(s[:, 0].max()), i)
                 for i, s in enumerate(strokes) if len(s))
    groups: list[tuple[float, float, list[int]]] = []
    for lo, hi, i in ext:
        if groups and min(hi, groups[-1][1]) - max(lo, groups[-1][0]) > 0:
            glo, ghi, ids = groups[-1]
            groups[-1] = (min(lo, glo), max(hi, ghi), ids + [i])
        else:
            groups.append((lo, hi, [i]))
    return [sorted(ids) for _, _, ids in groups]


def cut_letters(words: list[Sample]) -> list[Sample]:
    """Lone letters cut out of printed words (category lower/upper, the word's writer and units):
    one group of strokes per letter where the word has as many x-overlap groups as letters. Some
    pieces are wrong (a dot given to the neighbour, a crossing bar on its own); the caller filters
    them (experiments/cut_letters.py keeps a piece when its letter is among the 3 best a checkpoint
    reads in its case)."""
    out = []
    for w in words:
        if w.cat != "words" or not w.label.isascii() or not w.label.isalpha():
            continue
        groups = printed_letter_groups(w.strokes)
        if len(groups) != len(w.label):
            continue
        for k, (g, ch) in enumerate(zip(groups, w.label)):
            out.append(Sample(f"{w.id}#{k}", "lower" if ch.islower() else "upper", ch, encode_label(ch),
                              w.writer, [w.strokes[i] for i in g], w.in_mm))
    return out


def load_cut_letters(path: str) -> list[Sample]:
    """The filtered pieces written by experiments/cut_letters.py; refuses validation writers' ink."""
    with open(path, "rb") as f:
        pieces = [Sample(*t) for t in pickle.load(f)]
    if any(is_validation_writer(p.writer) for p in pieces):
        raise ValueError(f"{path} holds letters of validation writers")
    return pieces


class Mixer:
    """Draws training examples from category pools with fixed weights (and composed lines)."""

    WEIGHTS = {"chars": 0.25, "words": 0.35, "lines": 0.22, "composed": 0.18}
    # Curriculum: while fewer than WARM_SAMPLES training samples have been seen, draw mostly short ink
    # (characters and words train much faster per sample and get CTC off the all-blank plateau).
    WARM_WEIGHTS = {"chars": 0.35, "words": 0.45, "lines": 0.10, "composed": 0.10}
    WARM_SAMPLES = 80_000

    def __init__(self, train: list[Sample], seed: int, weights: dict | None = None,
                 cut: list[Sample] | None = None):
        """cut: letters cut out of training words (`cut_letters`), drawn with weight weights["cut"]."""
        self.weights = dict(weights or self.WEIGHTS)
        self.rng = random.Random(seed)
        np.random.seed(seed)
        self.pools = {"chars": [], "words": [], "lines": [], "cut": list(cut or [])}
        if self.weights.get("cut", 0) > 0 and not self.pools["cut"]:
            raise ValueError("a 'cut' draw weight needs cut letters")
        self.words_by_writer: dict[str, list[Sample]] = {}
        for s in train:
            if s.cat in ("digits", "upper", "lower", "symbols"):
                self.pools["chars"].append(s)
            elif s.cat == "words":
                self.pools["words"].append(s)
                if s.in_mm:
                    self.words_by_writer.setdefault(s.writer, []).append(s)
            elif s.cat == "lines":
                # Multi-line ink (word lists written one per line): as lines it would teach the network
                # to read a column; when the line count equals the word count, train on the words.
                groups = group_lines(s.strokes)
                words = s.label.split(" ")
                if len(groups) == 1:
                    self.pools["lines"].append(s)
                elif len(groups) == len(words):
                    for g, w in zip(groups, words):
                        self.pools["words"].append(Sample(s.id, "words", w, encode_label(w), s.writer,
                                                          [s.strokes[k] for k in g], s.in_mm))
                self.multiline = getattr(self, "multiline", 0) + (len(groups) > 1)
        self.writers = [w for w, v in self.words_by_writer.items() if len(v) >= 3]
        self.kinds = list(self.WEIGHTS) + ["cut"]
        self.set_progress(0)

    def set_progress(self, samples_seen: int):
        w = self.WARM_WEIGHTS if samples_seen < self.WARM_SAMPLES else self.weights
        self.kw = [w.get(k, 0.0) for k in self.kinds]

    def draw(self):
        rng = self.rng
        while True:
            kind = rng.choices(self.kinds, self.kw)[0]
            if kind == "composed":
                ws = self.words_by_writer[rng.choice(self.writers)]
                n = rng.randint(2, 6)
                words = [rng.choice(ws) for _ in range(n)]
                strokes, label = compose_line(words, rng)
                in_mm = True
            else:
                s = rng.choice(self.pools[kind])
                strokes, label, in_mm = s.strokes, s.label, s.in_mm
            tgt = encode_label(label)
            f = sample_features(strokes, in_mm, rng, augment=True)
            if f is None or tgt is None:
                continue
            if (len(f) + 1) // 2 < 2 * len(tgt) + 1:
                continue  # too short for CTC with repeats; skip
            return f, tgt, kind


def val_subset(val: list[Sample], per_cat: int = 150, seed: int = 1234):
    """A fixed validation subset per category (deterministic)."""
    rng = random.Random(seed)
    by = {}
    for s in val:
        by.setdefault(s.cat, []).append(s)
    out = {}
    for cat in sorted(by):
        lst = sorted(by[cat], key=lambda s: s.id)
        rng.shuffle(lst)
        out[cat] = lst[:per_cat]
    return out


if __name__ == "__main__":
    import time
    t = time.time()
    samples = load_all()
    train, val = split(samples)
    print(len(train), len(val), time.time() - t)
    from collections import Counter
    print("train", Counter(s.cat for s in train))
    print("val", Counter(s.cat for s in val))
    print("val writers", len({s.writer for s in val}), "train writers", len({s.writer for s in train}))
    for cat, lst in val_subset(val).items():
        lens = [len(sample_features(s.strokes, s.in_mm, None, False)) for s in lst]
        ll = [len(s.label) for s in lst]
        print(cat, "points median", np.median(lens), "p95", np.percentile(lens, 95), "chars", np.median(ll),
              "pts/char", np.median(np.array(lens) / np.array(ll)))
    m = Mixer(train, 1)
    t = time.time()
    for _ in range(500):
        m.draw()
    print("draw ms", (time.time() - t) / 500 * 1000)
