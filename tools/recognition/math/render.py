"""PNG grid of composed expressions (one colour per symbol, the LaTeX above each), to look at.

Used by `compose.py --png`; draws with the shared data's own PNG writer (render_samples.py).
"""
from __future__ import annotations

import sys

import data
from compose import bbox


def render(exprs: list[dict], path: str, cols=3, cell=(420, 150)):
    sys.path.insert(0, data.DATA_DIR)
    from render_samples import COLORS, Canvas  # the shared data's own PNG writer
    cw, ch = cell
    rows = (len(exprs) + cols - 1) // cols
    cv = Canvas(cols * cw, rows * ch)
    for i, e in enumerate(exprs):
        ox, oy = (i % cols) * cw, (i // cols) * ch
        cv.rect(ox, oy, ox + cw - 1, oy + 1, (200, 200, 200))
        cv.rect(ox, oy, ox + 1, oy + ch - 1, (200, 200, 200))
        x0, y0, x1, y1 = bbox(e["strokes"])
        k = min((cw - 16) / max(x1 - x0, 1e-6), (ch - 34) / max(y1 - y0, 1e-6), 12.0)
        for si, sy in enumerate(e["symbols"]):
            c = COLORS[si % len(COLORS)]
            for idx in sy["strokes"]:
                s = e["strokes"][idx]
                pts = [(int(ox + 8 + (x - x0) * k), int(oy + 22 + (y - y0) * k)) for x, y in s]
                for (a, b), (c2, d) in zip(pts[:-1], pts[1:]):
                    cv.line(a, b, c2, d, c)
                if len(pts) == 1:
                    cv.dot(*pts[0], c, 2)
        label = e["latex"].encode("ascii", "replace").decode()
        cv.text(ox + 4, oy + 4, f"{label[:56]}")
    cv.save_png(path)
