"""Compose handwritten math expressions from one writer's isolated characters (../shared/data).

    python3 tools/recognition/math/compose.py --png sample.png [-n 24] [--split val] [--seed 0]
    python3 tools/recognition/math/compose.py --jsonl out.jsonl -n 500 --split val

Every expression is written by ONE writer (Hand): his digits, letters and symbols (UNIPEN 1a-1d,
pendigits), his '-' stretched into fraction bars, composites built from his own glyphs (÷ from his
'-' and dots, ± from his '+' and '-', ≤ ≥ from his '<' '>' and '-', ≠ from his '=' and '/', θ from his
'0' or 'O' and a bar) and stroke models in his style (strokes.py) for what he never wrote (√, ×, π, α,
β, and + - = ( ) / < > [ ] , ! % where his samples lack them). Layout: one digit height H per
expression, glyphs scaled to their place on the line (symbols.metrics) with +-7% size noise,
writer-specific gaps, baseline drift (random walk), scripts at 0.55-0.75 H raised or lowered,
fractions stacked over a bar overhanging the longer part, radicals whose overbar spans the radicand,
brackets stretched around tall content, then a global rotation and shear.

Ground truth per expression: canonical LaTeX, and per symbol its class, LaTeX token, stroke indices
and box (mm, y down).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import random
import sys
from dataclasses import dataclass, field

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import data  # noqa: E402
import shapes  # noqa: E402
import strokes as sm  # noqa: E402
import symbols as S  # noqa: E402

KIT_CACHE = os.path.join(data.CACHE_DIR, "math-kits-v2.pkl")  # v2: samples that fail hygiene() dropped
DIGITS = set(S.DIGITS)


# ------------------------------------------------------------------------------------------------
# Writers
# ------------------------------------------------------------------------------------------------

def load_kits() -> dict:
    """writer -> {label: [strokes (list of (n,2) float64 mm)]} for writers with all ten digits.
    pendigits (no resolution) are scaled to a writer-specific digit height of 5-9 mm."""
    if os.path.exists(KIT_CACHE):
        with open(KIT_CACHE, "rb") as f:
            return pickle.load(f)
    kits: dict = {}
    for s in data.load_all():
        if s.cat not in ("digits", "upper", "lower", "symbols"):
            continue
        kits.setdefault(s.writer, {}).setdefault(s.label, []).append([a.astype(np.float64) for a in s.strokes])
    kits = {w: k for w, k in kits.items() if DIGITS <= set(k)}
    for w, k in kits.items():
        if w.startswith("pendigits") or w.startswith("omniglot"):
            hs = [np.ptp(np.concatenate(st)[:, 1]) for lab in S.DIGITS for st in k[lab]]
            target = 5 + 4 * (int(data.hashlib.sha1(w.encode()).hexdigest(), 16) % 1000) / 1000
            f = target / float(np.median(hs))
            for lab in k:
                k[lab] = [[a * f for a in st] for st in k[lab]]
    kits = {w: hygiene(k)[0] for w, k in kits.items()}
    kits = {w: k for w, k in kits.items() if DIGITS <= set(k)}
    os.makedirs(os.path.dirname(KIT_CACHE), exist_ok=True)
    with open(KIT_CACHE + ".tmp", "wb") as f:
        pickle.dump(kits, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(KIT_CACHE + ".tmp", KIT_CACHE)
    return kits


# Hygiene rules (hygiene.py), re-exported: train_math.py and the tests use them through compose.
from hygiene import (DOT_LIKE, HYGIENE_RULES, OVERSIZE_H, SPARSE_STEP_H, SPECK_H, SPECK_POINTS,  # noqa: E402,F401
                     digit_height, hygiene, hygiene_report, mean_step, rejection)


def writers(kits: dict, validation: bool) -> list[str]:
    return sorted(w for w in kits if data.is_validation_writer(w) == validation)


def bbox(strokes):
    p = np.concatenate(strokes)
    return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())


def fit(strokes, x0, y0, x1, y1, keep_aspect=True):
    """Scale and translate strokes into the box (uniformly when keep_aspect, centred)."""
    a, b, c, d = bbox(strokes)
    w, h = max(c - a, 1e-6), max(d - b, 1e-6)
    sx, sy = (x1 - x0) / w, (y1 - y0) / h
    if keep_aspect:
        sx = sy = min(sx, sy) if (x1 - x0) > 0 and (y1 - y0) > 0 else max(sx, sy)
    cx, cy = (a + c) / 2, (b + d) / 2
    return [np.stack([(s[:, 0] - cx) * sx + (x0 + x1) / 2, (s[:, 1] - cy) * sy + (y0 + y1) / 2], 1) for s in strokes]


class Hand:
    """One writer: his glyphs, his style, his spacing habits."""

    COMPOSITES = set("÷±≤≥≠θ·")

    # Labels whose real samples may be re-written with more pen lifts (strokes.split_strokes).
    SPLITTABLE = set(S.DIGITS + S.LOWER + S.UPPER + "<>[]{}%")

    shape_share = 1.0  # shapes.vary's rate relative to variation (train_math.py --shapes)

    def __init__(self, writer: str, kit: dict, rng: random.Random, variation: float = 0.0):
        """variation: probability of a writer-like variant per glyph (training only: one-stroke '+',
        multi-stroke digits and letters); 0 draws nothing extra, so validation sets stay as they were."""
        self.writer, self.kit, self.rng, self.variation = writer, kit, rng, variation
        self.style = sm.WriterStyle.measure([st for lab in S.DIGITS for st in kit[lab]][:60])
        self.gap = rng.uniform(0.12, 0.45)          # gap between symbols, in H
        self.op_gap = rng.uniform(1.0, 1.8)         # extra factor around operators
        self.frac_scale = rng.uniform(0.7, 1.0)     # size of numerators / denominators
        self.script_scale = rng.uniform(0.5, 0.75)

    def has(self, sym: str) -> bool:
        return (sym in self.kit or sym in sm.MODELS or sym in self.COMPOSITES or sym in ".×√"
                or (sym == "|" and "l" in self.kit))

    def sample(self, sym):
        return [a.copy() for a in self.rng.choice(self.kit[sym])]

    def glyph(self, sym: str) -> list[np.ndarray]:
        """sym in the writer's hand at his natural size (any origin)."""
        rng, H = self.rng, self.style.height
        if self.variation and sym == "+" and rng.random() < self.variation:
            return sm.model_strokes("+1", H * rng.uniform(0.5, 0.9), self.style, rng)
        st = self.plain_glyph(sym)
        if self.variation and sym in self.SPLITTABLE and rng.random() < self.variation:
            st = sm.split_strokes(st, rng)
        return shapes.vary(sym, st, rng, self.variation * self.shape_share)

    def plain_glyph(self, sym: str) -> list[np.ndarray]:
        rng, H = self.rng, self.style.height
        real = sym in self.kit and sym not in "×"
        if real and (sym not in sm.MODELS or rng.random() < 0.85):
            return self.sample(sym)
        if sym in self.COMPOSITES:
            return self.composite(sym)
        if sym == ".":
            return [sm.dot((0, 0), H * rng.uniform(0.04, 0.1), self.style, rng)]
        return sm.model_strokes(sym, H * rng.uniform(0.5, 1.0), self.style, rng)

    def part(self, sym, x0, y0, x1, y1, keep=True):
        return fit(self.glyph(sym), x0, y0, x1, y1, keep)

    def composite(self, sym):
        rng, H = self.rng, self.style.height
        j = lambda: rng.gauss(0, 0.03 * H)  # noqa: E731
        if sym == "·":
            return self.glyph(".")
        if sym == "÷":
            d = H * rng.uniform(0.07, 0.12)
            return (self.part("-", 0, .45 * H, .7 * H, .5 * H, keep=False)
                    + fit(self.glyph("."), .35 * H - d / 2 + j(), .1 * H, .35 * H + d / 2 + j(), .1 * H + d)
                    + fit(self.glyph("."), .35 * H - d / 2 + j(), .8 * H, .35 * H + d / 2 + j(), .8 * H + d))
        if sym == "±":
            return (self.part("+", 0, 0, .6 * H, .6 * H)
                    + self.part("-", j(), .8 * H + j(), .6 * H + j(), .82 * H, keep=False))
        if sym in "≤≥":
            base = "<" if sym == "≤" else ">"
            return (self.part(base, 0, 0, .55 * H, .6 * H)
                    + self.part("-", j(), .8 * H + j(), .55 * H + j(), .82 * H + j(), keep=False))
        if sym == "≠":
            eq = self.part("=", 0, .2 * H, .6 * H, .5 * H)
            return eq + self.part("/", .1 * H, 0, .5 * H, .75 * H) if rng.random() < 0.5 else \
                self.part("/", .1 * H, 0, .5 * H, .75 * H) + eq
        if sym == "θ":
            src = [c for c in "0O" if c in self.kit]
            if not src:
                return sm.model_strokes("θ", H, self.style, rng)
            oval = fit(self.sample(rng.choice(src)), 0, 0, .6 * H, H)
            a, b, c, d = bbox(oval)
            return oval + self.part("-", a - .05 * H + j(), (b + d) / 2, c + .05 * H + j(), (b + d) / 2 + .02 * H, keep=False)
        raise KeyError(sym)

    def bar(self, length: float) -> list[np.ndarray]:
        """A fraction bar: his '-' stretched to the length (its wobble grows with the square root)."""
        st = self.glyph("-")
        a, b, c, d = bbox(st)
        kx = length / max(c - a, 1e-6)
        ky = min(kx, math.sqrt(kx)) if d - b > 0 else 1
        return [np.stack([(s[:, 0] - a) * kx, (s[:, 1] - (b + d) / 2) * ky], 1) for s in st]


# Expression trees (exprtree.py), re-exported.
from exprtree import count, depth, kinds, latex_node, latex_row, structure_class  # noqa: E402,F401


class Generator:
    """Random calculator-style expressions a given hand can write."""

    VARS = "xyzabcnkt"

    def __init__(self, hand: Hand, rng: random.Random):
        self.h, self.r = hand, rng
        self.letters = [c for c in S.LOWER if c in hand.kit]
        self.vars = [c for c in self.VARS if c in hand.kit] or self.letters
        self.upper = [c for c in S.UPPER if c in hand.kit]
        self.funcs = [f for f in S.FUNCTIONS if all(c in hand.kit for c in f)]

    def number(self, maxlen=3):
        r = self.r
        n = r.choice([1, 1, 1, 2, 2, 3][: 2 * maxlen])
        ds = [r.choice(S.DIGITS[1:] if n > 1 else S.DIGITS)] + [r.choice(S.DIGITS) for _ in range(n - 1)]
        row = [("s", d) for d in ds]
        if r.random() < 0.1:
            row += [("s", "." if r.random() < 0.8 else ",")] + [("s", r.choice(S.DIGITS))]
        return row

    def var(self):
        r = self.r
        if self.upper and r.random() < 0.05:
            return ("s", r.choice(self.upper))
        if r.random() < 0.12:
            return ("s", r.choice("πθαβ"))
        pool = self.vars if r.random() < 0.75 else self.letters
        return ("s", r.choice(pool)) if pool else ("s", r.choice(S.DIGITS))

    def atom(self, d):
        r = self.r
        x = r.random()
        if d > 0 and x < 0.17:
            return [("frac", self.expr(d - 1, r.randint(1, 2)), self.expr(d - 1, r.randint(1, 2)))]
        if d > 0 and x < 0.30:
            return [("sqrt", self.expr(d - 1, r.randint(1, 2)))]
        if d > 0 and x < 0.45:
            base = self.var() if r.random() < 0.6 else ("grp", [("s", "(")] + self.expr(0, 2) + [("s", ")")])
            if r.random() < 0.5:
                base = ("s", r.choice(S.DIGITS[1:])) if base[0] == "grp" and r.random() < 0.5 else base
            if r.random() < 0.75:
                e = self.number(1) if r.random() < 0.6 else ([("s", "-")] + self.number(1) if r.random() < 0.3
                                                              else self.expr(d - 1, r.randint(1, 2)))
                return [("sup", base, e)]
            sub = [("s", r.choice(S.DIGITS))] if r.random() < 0.7 else [self.var()]
            return [("sub", self.var(), sub)]
        if d > 0 and x < 0.52:
            return [("s", "(")] + self.expr(d - 1, r.randint(2, 3)) + [("s", ")")]
        if self.funcs and r.random() < 0.04:
            return [("fn", r.choice(self.funcs)), ("s", "(")] + self.term(0) + [("s", ")")]
        return self.term(d)

    def term(self, d):
        r = self.r
        x = r.random()
        if x < 0.5:
            row = self.number()
            if r.random() < 0.05:
                row.append(("s", r.choice("!%")))
            return row
        if x < 0.75:
            return [("s", r.choice(S.DIGITS[2:]))] + [self.var()]
        return [self.var()]

    def expr(self, d, n):
        r = self.r
        row = self.atom(d)
        for _ in range(n - 1):
            op = r.choices("+-×÷·/", [.34, .3, .13, .08, .05, .1])[0]
            row += [("s", op)] + self.atom(d)
        return row

    def expression(self, want_depth: int):
        r = self.r
        for _ in range(200):
            row = self.expr(want_depth, r.choice([1, 2, 2, 3]))
            x = r.random()
            if x < 0.35:
                row.append(("s", "="))
            elif x < 0.55:
                row += [("s", "=")] + self.expr(0, 1)
            elif x < 0.65:
                row += [("s", r.choice("<>≤≥≠"))] + self.expr(0, 1)
            if 2 <= count(row) <= 15 and depth(row) <= 2 and all(self.h.has(c) for c in syms_of(row)):
                return row
        return self.number() + [("s", "+")] + self.number() + [("s", "=")]


def syms_of(row) -> str:
    out = []

    def walk(n):
        if isinstance(n, list):
            for x in n:
                walk(x)
        elif n[0] == "s":
            out.append(n[1])
        elif n[0] == "fn":
            out.extend(n[1])
        else:
            for x in n[1:]:
                walk(x)
    walk(row)
    return "".join(out)


# ------------------------------------------------------------------------------------------------
# Layout
# ------------------------------------------------------------------------------------------------

@dataclass
class Glyph:
    sym: str           # classifier class ('-' for a fraction bar, '.' for a centred dot)
    latex: str         # its LaTeX token ('\frac' for a bar, '\sqrt' for a radical)
    strokes: list


@dataclass
class Box:
    glyphs: list = field(default_factory=list)

    def extent(self):
        if not self.glyphs:
            return 0.0, 0.0, 0.0, 0.0
        return bbox([s for g in self.glyphs for s in g.strokes])

    def shift(self, dx, dy):
        for g in self.glyphs:
            g.strokes = [s + np.array([dx, dy]) for s in g.strokes]
        return self


OPS = set("+-×÷·/=<>≤≥≠±")


class Layout:
    def __init__(self, hand: Hand, H: float, rng: random.Random):
        self.h, self.H, self.r = hand, H, rng

    def symbol(self, sym, H, height_override=None) -> Box:
        r = self.r
        kind, a, b = S.metrics(sym)
        st = self.h.glyph(sym)
        x0, y0, x1, y1 = bbox(st)
        w, h = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        z = math.exp(r.gauss(0, 0.07))
        if kind == "box":
            top, bot = a * H, b * H
            if height_override:
                top, bot = height_override
            k = (bot - top) * z / h
            if w * k > 1.6 * (bot - top):           # a flat sample (a ',' drawn as a dash): cap its width
                k = 1.6 * (bot - top) / w
            cy = (top + bot) / 2 + r.gauss(0, 0.03 * H)
        elif kind == "c":
            k = b * H * z / max(w, h)
            cy = a * H + r.gauss(0, 0.04 * H)
        elif kind == "wide":
            k = b * H * z / w
            if h * k > 0.4 * H:
                k = 0.4 * H / h
            cy = a * H + r.gauss(0, 0.04 * H)
        else:  # dot
            k = H / self.h.style.height
            ext = max(w, h) * k
            k *= min(max(ext, 0.03 * H), 0.14 * H) / max(ext, 1e-6)
            cy = a * H - max(h * k, 0.02 * H) / 2 + r.gauss(0, 0.03 * H)
        strokes = [np.stack([(s[:, 0] - x0) * k, (s[:, 1] - (y0 + y1) / 2) * k + cy], 1) for s in st]
        cls = "." if sym == "·" else sym
        return Box([Glyph(cls, S.latex_of(sym), strokes)])

    def node(self, n, H) -> Box:
        r = self.r
        k = n[0]
        if k == "s":
            return self.symbol(n[1], H)
        if k == "fn":
            return self.row([("s", c) for c in n[1]], H, tight=True)
        if k == "grp":
            return self.row(n[1], H)
        if k == "frac":
            num = self.row(n[1], H * self.h.frac_scale)
            den = self.row(n[2], H * self.h.frac_scale)
            nx0, ny0, nx1, ny1 = num.extent()
            dx0, dy0, dx1, dy1 = den.extent()
            L = max(nx1 - nx0, dx1 - dx0) + H * (r.uniform(0.05, 0.3) + r.uniform(0.05, 0.3))
            bar = Box([Glyph("-", "\\frac", self.h.bar(L))])
            by = S.AXIS * H + r.gauss(0, 0.03 * H)
            bar.shift(0, by)
            gap = lambda: H * r.uniform(0.1, 0.32)  # noqa: E731
            num.shift(L / 2 - (nx0 + nx1) / 2 + r.gauss(0, 0.05 * L), by - gap() - ny1)
            den.shift(L / 2 - (dx0 + dx1) / 2 + r.gauss(0, 0.05 * L), by + gap() - dy0)
            x = r.random()
            order = [num, bar, den] if x < 0.7 else ([bar, num, den] if x < 0.85 else [num, den, bar])
            return Box([g for b in order for g in b.glyphs])
        if k == "sqrt":
            rad = self.row(n[1], H)
            x0, y0, x1, y1 = rad.extent()
            top = y0 - H * r.uniform(0.1, 0.25)
            bottom = max(y1, 0) + H * r.uniform(-0.05, 0.1)
            mid = bottom - (bottom - top) * r.uniform(0.3, 0.5)
            tick = H * r.uniform(0.3, 0.55)
            rad.shift(tick + H * r.uniform(0.08, 0.2) - x0, 0)
            end = rad.extent()[2] + H * r.uniform(0.0, 0.2)
            st = sm.radical(0, top, bottom, mid, end, tick, self.h.style, r, separate_bar=r.random() < 0.25)
            root = Box([Glyph("√", "\\sqrt", st)])
            return Box(root.glyphs + rad.glyphs if r.random() < 0.85 else rad.glyphs + root.glyphs)
        if k in ("sup", "sub"):
            base = self.node(n[1], H)
            bx0, by0, bx1, by1 = base.extent()
            sH = H * self.h.script_scale
            scr = self.row(n[2], sH)
            sx0, sy0, sx1, sy1 = scr.extent()
            if k == "sup":
                ref = min(by0, -0.5 * H)
                dy = ref * r.uniform(0.45, 0.75)
            else:
                dy = H * r.uniform(0.15, 0.35)
            scr.shift(bx1 + H * r.uniform(0.0, 0.12) - sx0, dy)
            return Box(base.glyphs + scr.glyphs)
        raise KeyError(k)

    def row(self, nodes, H, tight=False) -> Box:
        r = self.r
        boxes: list = [None] * len(nodes)
        for i, n in enumerate(nodes):
            if not (n[0] == "s" and n[1] in "()"):
                boxes[i] = self.node(n, H)
        stack = []
        for i, n in enumerate(nodes):  # brackets stretch around what they enclose
            if n[0] == "s" and n[1] == "(":
                stack.append(i)
            elif n[0] == "s" and n[1] == ")" and stack:
                j = stack.pop()
                inner = [b.extent() for b in boxes[j + 1:i] if b is not None and b.glyphs]
                top = min([e[1] for e in inner] + [-1.0 * H]) - 0.12 * H
                bot = max([e[3] for e in inner] + [0.1 * H]) + 0.12 * H
                boxes[j] = self.symbol("(", H, (top, bot))
                boxes[i] = self.symbol(")", H, (top, bot))
        for i, n in enumerate(nodes):
            if boxes[i] is None:
                boxes[i] = self.node(n, H)
        out = Box()
        x, drift, prev = 0.0, 0.0, None
        for n, b in zip(nodes, boxes):
            x0 = b.extent()[0]
            gap = 0.0
            if prev is not None:
                gap = H * self.h.gap * math.exp(r.gauss(0, 0.3)) * (0.5 if tight else 1.0)
                p_op = prev[0] == "s" and prev[1] in OPS
                n_op = n[0] == "s" and n[1] in OPS
                if p_op or n_op:
                    gap *= self.h.op_gap
                if (prev[0] == "s" and prev[1] == "(") or (n[0] == "s" and n[1] == ")"):
                    gap *= 0.5
            drift += r.gauss(0, 0.025 * H)
            b.shift(x + gap - x0, drift)
            x = b.extent()[2]
            out.glyphs += b.glyphs
            prev = n
        return out


def compose(hand: Hand, rng: random.Random, want_depth=None, ident="") -> dict:
    gen = Generator(hand, rng)
    if want_depth is None:
        want_depth = rng.choices([0, 1, 2], [0.25, 0.45, 0.3])[0]
    row = gen.expression(want_depth)
    H = float(np.clip(hand.style.height * rng.uniform(0.55, 1.1), 3.5, 14.0))
    box = Layout(hand, H, rng).row(row, H)
    # the whole line: a slight rotation (baseline slope) and extra shear
    th, sh = rng.gauss(0, 0.03), rng.gauss(0, 0.05)
    m = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]]) @ np.array([[1, -sh], [0, 1]])
    strokes, syms = [], []
    for g in box.glyphs:
        ids = []
        for s in g.strokes:
            ids.append(len(strokes))
            strokes.append(s @ m.T)
        syms.append({"sym": g.sym, "latex": g.latex, "strokes": ids})
    allp = np.concatenate(strokes)
    off = allp.min(axis=0)
    strokes = [s - off for s in strokes]
    for sy in syms:
        sy["box"] = [round(v, 2) for v in bbox([strokes[i] for i in sy["strokes"]])]
    return {"id": ident, "writer": hand.writer, "latex": latex_row(row), "class": structure_class(row),
            "symbols": syms, "strokes": strokes, "tree": row}


def expression_stream(kits: dict, names: list[str], seed: int, variation: float = 0.0):
    """An endless, seeded stream of composed expressions from the given writers (variation: see Hand)."""
    rng = random.Random(seed)
    k = 0
    while True:
        w = rng.choice(names)
        hand = Hand(w, kits[w], rng, variation)
        yield compose(hand, rng, ident=f"{seed}-{k}")
        k += 1


def to_json(e: dict) -> str:
    return json.dumps({"id": e["id"], "writer": e["writer"], "latex": e["latex"], "class": e["class"],
                       "symbols": e["symbols"],
                       "strokes": [[[round(float(x), 2), round(float(y), 2)] for x, y in s] for s in e["strokes"]]},
                      ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--png")
    ap.add_argument("--jsonl")
    ap.add_argument("-n", type=int, default=24)
    ap.add_argument("--split", choices=["train", "val"], default="val")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hygiene", action="store_true", help="print what the data hygiene rules drop")
    ap.add_argument("--variation", type=float, default=0.0, help="writer-like variants (training uses 0.15)")
    args = ap.parse_args()
    if args.hygiene:
        return hygiene_report()
    kits = load_kits()
    names = writers(kits, args.split == "val")
    stream = expression_stream(kits, names, args.seed, args.variation)
    exprs = [next(stream) for _ in range(args.n)]
    if args.png:
        from render import render
        render(exprs, args.png)
    if args.jsonl:
        with open(args.jsonl, "w") as f:
            for e in exprs:
                f.write(to_json(e) + "\n")
    for e in exprs[:8]:
        print(e["writer"], e["class"], e["latex"])


if __name__ == "__main__":
    main()
