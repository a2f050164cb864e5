"""The glyph image: a stroke group drawn into a small grid of feature channels, for the second
symbol classifier (glyph_net.py). Swift twin: Sources/InkMath/GlyphImage.swift (same arithmetic in
double precision; tests compare the two on fixed groups).

Why an image: the sequence network reads a group as a trajectory in writing order, so a writer's
unusual order or pen lifts (a four-stroke 4, a 1 with a flag) change what it sees. An image of the
same ink does not depend on order or direction, so it errs differently and the two are worth
combining.

Channels (GRID x GRID each): 0 ink; 1-4 orientation of the ink (undirected: 0, 45, 90, 135
degrees, each segment shared linearly between its two nearest orientations); 5 stroke ends (pen down
and up points). The group's box is centred and its longer side spans FIT pixels, or less when it is
under FLOOR_MM (a dot stays a dot, a minus stays thin, as in the sequence network's 4 mm floor).
Segments are walked in steps of at most STEP pixels, each step splatting its length bilinearly.
"""
from __future__ import annotations

import math

import numpy as np

GRID = 32
FIT = 28.0
FLOOR_MM = 4.0
STEP = 0.5
CHANNELS = 6


def _splat(img, c, u, v, w):
    """Bilinear splat of weights w at pixel coordinates (u, v) into channels c (arrays alike; pixel
    centres at i + 0.5); what falls outside the grid is dropped."""
    u, v = u - 0.5, v - 0.5
    i0, j0 = np.floor(u), np.floor(v)
    fu, fv = u - i0, v - j0
    i0, j0 = i0.astype(np.int64), j0.astype(np.int64)
    flat = img.reshape(-1)
    for di, wu in ((0, 1 - fu), (1, fu)):
        for dj, wv in ((0, 1 - fv), (1, fv)):
            i, j = i0 + di, j0 + dj
            ok = (i >= 0) & (i < GRID) & (j >= 0) & (j < GRID)
            idx = (c[ok] * GRID + j[ok]) * GRID + i[ok]
            flat += np.bincount(idx, weights=(w * wu * wv)[ok], minlength=flat.size)


def image(strokes) -> np.ndarray:
    """(CHANNELS, GRID, GRID) float32 for a group of strokes, each an (n, 2) array in mm, y down."""
    img = np.zeros((CHANNELS, GRID, GRID), np.float64)
    pts = np.concatenate([np.asarray(s, np.float64)[:, :2] for s in strokes])
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0)
    scale = FIT / max(x1 - x0, y1 - y0, FLOOR_MM)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    cs, us, vs, ws = [], [], [], []

    def put(c, u, v, w):
        cs.append(np.broadcast_to(np.asarray(c, np.int64), np.shape(u)))
        us.append(u)
        vs.append(v)
        ws.append(np.broadcast_to(np.asarray(w, np.float64), np.shape(u)))

    for s in strokes:
        p = np.asarray(s, np.float64)[:, :2]
        u = (p[:, 0] - cx) * scale + GRID / 2
        v = (p[:, 1] - cy) * scale + GRID / 2
        put(5, u[[0, -1]], v[[0, -1]], 1.0)
        if len(p) == 1:
            put(0, u[:1], v[:1], 1.0)
            continue
        du, dv = np.diff(u), np.diff(v)
        length = np.hypot(du, dv)
        keep = length > 0
        if not keep.any():
            continue
        u0, v0, du, dv, length = u[:-1][keep], v[:-1][keep], du[keep], dv[keep], length[keep]
        n = np.maximum(1, np.ceil(length / STEP)).astype(np.int64)
        seg = np.repeat(np.arange(len(n)), n)
        t = (np.arange(len(seg)) - np.repeat(np.cumsum(n) - n, n) + 0.5) / n[seg]
        uu, vv = u0[seg] + t * du[seg], v0[seg] + t * dv[seg]
        w = (length / n)[seg]
        pos = (np.arctan2(dv, du) % math.pi) / (math.pi / 4)
        b0 = np.floor(pos).astype(np.int64) % 4
        f = (pos - np.floor(pos))[seg]
        put(0, uu, vv, w)
        put(1 + b0[seg], uu, vv, w * (1 - f))
        put(1 + (b0[seg] + 1) % 4, uu, vv, w * f)
    _splat(img, np.concatenate(cs), np.concatenate(us), np.concatenate(vs), np.concatenate(ws))
    return np.minimum(img, 2.0).astype(np.float32)
