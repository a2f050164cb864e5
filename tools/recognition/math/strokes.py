"""Writer style and stroke models for the symbols the data lacks.

A writer's style is measured on his own isolated characters (WriterStyle.measure):
  slant    mean horizontal travel per unit of vertical travel on near-vertical segments (x = x0 - s*y,
           y down, so a positive s leans right)
  spacing  median distance between consecutive recorded points (mm): the device's sampling rate
           times his pen speed
  jitter   median distance of a point from the midpoint of its neighbours (mm), capped: the noise
           and tremor a synthetic stroke gets
  height   median height of his digits (mm)

A stroke model is a list of strokes, each a list of control points in a unit box (y down) with
corner flags. One instance: every control point moves by N(0, 0.035) of the box, smooth parts are
Catmull-Rom splines through the points (corners stay sharp), the box is scaled to the requested size,
sheared by the writer's slant, traced with a pen that slows at both ends (points denser there) at the
writer's point spacing, and given Gaussian jitter of the writer's size. The radical (√) is built at
layout time because its overbar spans the radicand (radical()).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np


@dataclass
class WriterStyle:
    slant: float = 0.1
    spacing: float = 0.3
    jitter: float = 0.05
    height: float = 7.0

    @staticmethod
    def measure(samples) -> "WriterStyle":
        """samples: list of stroke lists (each (n,2) in mm) of one writer's isolated characters."""
        num = den = 0.0
        sp, jit, heights = [], [], []
        for strokes in samples:
            for s in strokes:
                if len(s) < 2:
                    continue
                d = np.diff(s, axis=0)
                seg = np.hypot(d[:, 0], d[:, 1])
                sp.append(float(np.median(seg)))
                vert = np.abs(d[:, 1]) > 2 * np.abs(d[:, 0])
                num += float(-(d[vert, 0] * np.sign(d[vert, 1])).sum())
                den += float(np.abs(d[vert, 1]).sum())
                if len(s) >= 5:
                    mid = (s[:-2] + s[2:]) / 2
                    jit.append(float(np.median(np.hypot(*(s[1:-1] - mid).T))))
            allp = np.concatenate(strokes)
            heights.append(float(np.ptp(allp[:, 1])))
        st = WriterStyle()
        if den > 0:
            st.slant = float(np.clip(num / den, -0.3, 0.5))
        if sp:
            st.spacing = float(np.clip(np.median(sp), 0.05, 1.2))
        if jit:
            st.jitter = float(np.clip(np.median(jit), 0.01, 0.12))
        if heights:
            st.height = float(np.median(heights))
        return st


def catmull(points: np.ndarray, per_seg: int = 12) -> np.ndarray:
    if len(points) < 3:
        return np.linspace(points[0], points[-1], per_seg + 1)
    p = np.concatenate([points[:1] * 2 - points[1:2], points, points[-1:] * 2 - points[-2:-1]])
    out = [points[:1]]
    t = np.linspace(0, 1, per_seg + 1)[1:, None]
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                          + (-p0 + 3 * p1 - 3 * p2 + p3) * t ** 3))
    return np.concatenate(out)


def smooth_path(ctrl, corners=()) -> np.ndarray:
    """A dense path through the control points, smooth except at the indices in corners."""
    ctrl = np.asarray(ctrl, dtype=np.float64)
    cuts = [0] + sorted(c for c in corners if 0 < c < len(ctrl) - 1) + [len(ctrl) - 1]
    parts = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        seg = catmull(ctrl[a:b + 1])
        parts.append(seg if not parts else seg[1:])
    return np.concatenate(parts)


def trace(path: np.ndarray, style: WriterStyle, rng: random.Random) -> np.ndarray:
    """Resample a dense path (mm) as a pen would record it: style.spacing apart on average, denser at
    both ends (the pen accelerates and brakes), with Gaussian jitter."""
    seg = np.hypot(*np.diff(path, axis=0).T)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    L = cum[-1]
    if L <= 1e-9:
        return path[:1] + np.array([[0.0, 0.0]])
    spacing = style.spacing * math.exp(rng.gauss(0, 0.15))
    n = max(2, int(round(L / spacing)) + 1)
    a = rng.uniform(0.2, 0.7)
    t = np.linspace(0, 1, n)
    u = (t - a * np.sin(2 * math.pi * t) / (2 * math.pi)) * L
    pts = np.stack([np.interp(u, cum, path[:, 0]), np.interp(u, cum, path[:, 1])], axis=1)
    g = np.random.default_rng(rng.getrandbits(32))
    return pts + g.normal(0, style.jitter * rng.uniform(0.5, 1.2), pts.shape)


def dot(center, size: float, style: WriterStyle, rng: random.Random) -> np.ndarray:
    """A pen dot: a short scribble of a few points within size/2 of the centre."""
    n = rng.randint(2, 6)
    ang = rng.uniform(0, 2 * math.pi)
    r = size / 2
    pts = [np.array(center) + np.array([math.cos(ang + k * 2.1), math.sin(ang + k * 2.1)]) * r * rng.uniform(0.2, 1)
           for k in range(n)]
    return np.array(pts)


# Unit-box models: name -> (width/height aspect, [strokes]); a stroke is (control points, corners).
# Several variants per symbol where writers differ (stroke count, order, direction).
MODELS = {
    "-": [(4.0, [([(0, .5), (.5, .5), (1, .5)], ())])],
    "+": [(1.0, [([(0, .5), (1, .5)], ()), ([(.5, 0), (.5, 1)], ())]),
          (1.0, [([(.5, 0), (.5, 1)], ()), ([(0, .5), (1, .5)], ())])],
    "=": [(1.8, [([(0, 0), (1, 0)], ()), ([(0, 1), (1, 1)], ())])],
    "×": [(1.0, [([(0, 0), (1, 1)], ()), ([(1, 0), (0, 1)], ())]),
          (1.0, [([(1, 0), (0, 1)], ()), ([(0, 0), (1, 1)], ())])],
    "/": [(0.45, [([(1, 0), (0, 1)], ())])],
    "|": [(0.05, [([(.5, 0), (.5, 1)], ())])],
    "(": [(0.3, [([(1, 0), (.2, .3), (0, .55), (.3, .8), (1, 1)], ())])],
    ")": [(0.3, [([(0, 0), (.8, .3), (1, .55), (.7, .8), (0, 1)], ())])],
    "[": [(0.3, [([(1, 0), (0, 0), (0, 1), (1, 1)], (1, 2))])],
    "]": [(0.3, [([(0, 0), (1, 0), (1, 1), (0, 1)], (1, 2))])],
    "<": [(0.8, [([(1, 0), (0, .5), (1, 1)], (1,))])],
    ">": [(0.8, [([(0, 0), (1, .5), (0, 1)], (1,))])],
    ",": [(0.4, [([(.7, 0), (.8, .35), (.2, 1)], ())])],
    "π": [(1.2, [([(0, .15), (.5, .05), (1, .08)], ()), ([(.3, .1), (.28, .6), (.12, 1)], ()),
                 ([(.7, .1), (.7, .6), (.78, .95), (.95, .9)], ())]),
          (1.2, [([(.12, 1), (.3, .1), (.6, .05), (1, .1)], (1,)), ([(.7, .1), (.7, .6), (.8, .97), (.95, .9)], ())])],
    "α": [(1.25, [([(.95, .05), (.75, .55), (.5, .95), (.15, .9), (0, .5), (.2, .1), (.5, .08), (.72, .5),
                    (.88, .92), (1, .98)], ())])],
    "β": [(0.65, [([(.15, 1.3), (.1, .4), (.15, -.3), (.4, -.55), (.75, -.42), (.72, -.08), (.35, .05),
                    (.85, .28), (.92, .72), (.55, 1.0), (.12, .85)], ())])],
    "θ": [(0.65, [([(.55, 0), (.1, .25), (.05, .6), (.4, 1), (.9, .75), (.95, .3), (.55, 0)], ()),
                  ([(.05, .52), (.95, .48)], ())])],
    "%": [(0.9, [([(1, 0), (0, 1)], ()), ([(.15, 0), (0, .12), (.15, .25), (.3, .12), (.15, 0)], ()),
                 ([(.85, .75), (.7, .87), (.85, 1), (1, .87), (.85, .75)], ())])],
    "!": [(0.2, [([(.5, 0), (.45, .75)], ())])],
}


# One-stroke plus signs (training variation): the two bars joined by a retrace or a loop, either bar
# first. Writers who lift the pen once per symbol write '+' like this; two writers of the validation
# kits do, and the two-stroke models and samples never showed it.
PLUS_ONE_STROKE = [
    (1.0, [([(0, .5), (1, .5), (.5, .52), (.5, 0), (.5, 1)], (1, 2, 3))]),       # bar, retrace, up, down
    (1.0, [([(0, .5), (1, .5), (.85, .15), (.55, 0), (.5, 1)], (1, 3))]),        # bar, loop up, down
    (1.0, [([(.5, 0), (.5, 1), (.2, .85), (0, .5), (1, .5)], (1, 3))]),          # down, loop left, bar
    (1.0, [([(.5, 1), (.5, 0), (0, .5), (1, .5)], (1, 2))]),                     # up, diagonal, bar
    (1.0, [([(.5, 0), (.5, 1), (.5, .5), (0, .5), (1, .5)], (1, 2, 3))]),        # down, back up, bar
]


def model_strokes(sym: str, height: float, style: WriterStyle, rng: random.Random) -> list[np.ndarray]:
    """One synthetic instance of sym in the writer's hand, height mm tall (box of the unit model),
    top-left near (0, 0)."""
    aspect, strokes = rng.choice(PLUS_ONE_STROKE if sym == "+1" else MODELS[sym])
    w = height * aspect * math.exp(rng.gauss(0, 0.08))
    out = []
    for ctrl, corners in strokes:
        c = np.array(ctrl, dtype=np.float64)
        c = c + np.array([[rng.gauss(0, .035), rng.gauss(0, .035)] for _ in c])
        if rng.random() < 0.15 and sym in "-+=×/|":
            c = c[::-1]  # some writers draw bars right to left, crosses from the other end
        path = smooth_path(c * np.array([w, height]), corners)
        path[:, 0] -= style.slant * (path[:, 1] - height)
        out.append(trace(path, style, rng))
    if sym == "!":
        out.append(dot((w * .45 - style.slant * (height * 0.02), height * 0.97), height * 0.08, style, rng))
    return out


def radical(x0: float, top: float, bottom: float, mid: float, bar_end: float, tick_w: float,
            style: WriterStyle, rng: random.Random, separate_bar: bool) -> list[np.ndarray]:
    """The radical sign in mm: a short up-tick at mid height, down to the bottom, up to the top of the
    radicand at x0 + tick_w and along the overbar to bar_end (one stroke, or the overbar separate)."""
    j = lambda s: rng.gauss(0, s * (bottom - top))  # noqa: E731
    p = [(x0, mid + j(.05)), (x0 + .2 * tick_w, mid - .06 * (bottom - top) + j(.03)),
         (x0 + .5 * tick_w + j(.03), bottom + j(.03)), (x0 + tick_w + j(.02), top + j(.02))]
    bar = [(x0 + tick_w, top), ((x0 + tick_w + bar_end) / 2, top + j(.02)), (bar_end, top + j(.03))]
    if rng.random() < 0.2:
        bar.append((bar_end + j(.01), top + 0.12 * (bottom - top)))
    if separate_bar:
        a = smooth_path(np.array(p), corners=(1, 2))
        b = smooth_path(np.array(bar), corners=(2,) if len(bar) == 4 else ())
        return [trace(a, style, rng), trace(b, style, rng)]
    path = smooth_path(np.array(p + bar[1:]), corners=(1, 2, 3) + ((5,) if len(bar) == 4 else ()))
    return [trace(path, style, rng)]


def turning(s: np.ndarray, k: int) -> np.ndarray:
    """Turning angle (radians, 0 = straight on) at each point, between the directions k points back
    and k points on (0 near the ends)."""
    out = np.zeros(len(s))
    for i in range(k, len(s) - k):
        a, b = s[i] - s[i - k], s[i + k] - s[i]
        na, nb = math.hypot(*a), math.hypot(*b)
        if na > 1e-9 and nb > 1e-9:
            out[i] = math.acos(max(-1.0, min(1.0, float(a @ b) / (na * nb))))
    return out


def split_strokes(strokes: list[np.ndarray], rng: random.Random, max_strokes: int = 4) -> list[np.ndarray]:
    """The same ink written with more pen lifts (training variation): 1-3 cuts, each at a corner (or,
    where a stroke has none, at a point of its middle), so that a '4' comes in 2-4 strokes, a '5' with
    a separate top bar, an 'E' or 'k' in pieces. A cut leaves a small gap (a point or two dropped) or
    an overlap (the next piece starts back over the last points), and the next piece is sometimes
    drawn from its other end."""
    out = [s for s in strokes]
    cuts = rng.choices([1, 2, 3], [0.7, 0.22, 0.08])[0]
    for _ in range(cuts):
        if len(out) >= max_strokes:
            break
        cands = []  # (weight, stroke index, point index)
        for j, s in enumerate(out):
            n = len(s)
            if n < 8:
                continue
            k = max(1, n // 12)
            ang = turning(s, k)
            lo, hi = max(3, k), n - max(3, k)
            for i in range(lo, hi):
                if ang[i] > 0.7 and ang[i] >= ang[i - 1] and ang[i] >= ang[i + 1]:
                    cands.append((ang[i] ** 2, j, i))
            if not any(c[1] == j for c in cands) and hi > lo:
                cands.append((0.15, j, rng.randint(max(lo, int(0.3 * n)), max(lo, min(hi - 1, int(0.7 * n))))))
        if not cands:
            break
        _, j, i = rng.choices(cands, [c[0] for c in cands])[0]
        s = out[j]
        a, b = s[: i + 1], s[i:]
        x = rng.random()
        if x < 0.3:
            b = b[rng.randint(1, 2):]                      # a small gap at the lift
        elif x < 0.6:
            back = rng.randint(1, 3)                       # an overlap: the pen comes down a bit back
            b = np.concatenate([s[max(0, i - back): i] + rng.gauss(0, 0.02) * np.ptp(s, axis=0).max(), b])
        if rng.random() < 0.2:
            b = b[::-1]
        if len(a) < 2 or len(b) < 2:
            continue
        out[j: j + 1] = [a.copy(), b.copy()]
    return out
