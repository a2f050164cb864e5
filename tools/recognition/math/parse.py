"""Python reference of the 2-D structure parser: recognised symbols (class + box) -> canonical LaTeX.

1. Structures, widest first: a '√' takes the symbols whose centres lie inside its box right of its
   tick; a '-' at least 1.5x as wide as the typical symbol with symbols above and below whose
   centres lie within its span is a fraction bar (numerator and denominator parsed recursively).
2. What is left, left to right, is a baseline. Every symbol estimates its own baseline and digit
   height H from where its class sits on a line (symbols.metrics). A symbol after a base (a digit,
   letter, ')', radical or fraction) whose baseline lies over 0.3 H above the base's is a superscript,
   one lying over 0.15 H below it and smaller is a subscript; the script runs on while the next
   symbols stay on the script's line. A '.' over a quarter of H above the baseline (its
   neighbours' mean) is \\cdot.
3. Letter runs spelling sin cos tan log ln exp become \\sin ... .
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symbols as S  # noqa: E402

OPS = set("+-=×÷±≤≥≠<>/")


@dataclass
class Item:
    cls: str
    box: tuple                      # x0, y0, x1, y1 (y down)
    kind: str = "sym"               # sym | frac | sqrt
    parts: list = field(default_factory=list)
    tick: float | None = None       # radicals: x where the sign reaches its top (from its ink)

    @property
    def w(self):
        return self.box[2] - self.box[0]

    @property
    def h(self):
        return self.box[3] - self.box[1]

    @property
    def cx(self):
        return (self.box[0] + self.box[2]) / 2

    @property
    def cy(self):
        return (self.box[1] + self.box[3]) / 2


def line_metrics(it: Item, H_line: float):
    """(baseline y, digit height H) this item implies; ops and dots borrow the line's H."""
    x0, y0, x1, y1 = it.box
    if it.kind == "frac":
        bar = it.parts[0]
        return bar.cy - S.AXIS * it.parts[3], it.parts[3]
    if it.kind == "sqrt":
        return it.parts[2], it.parts[3]
    c = it.cls
    try:
        kind, a, b = S.metrics(c)
    except KeyError:
        return y1, max(it.h, 1e-3)
    if kind == "box" and c not in ",":
        H = max(it.h / (b - a), 1e-3)
        return y1 - b * H, H
    if c == ",":
        return y0 - a * H_line, H_line
    if kind == "dot":
        return y1, H_line
    return it.cy - a * H_line, H_line


def line_height(items):
    hs = [line_metrics(i, 1.0)[1] for i in items
          if i.kind != "sym" or (i.cls not in OPS and i.cls not in ".,·" and i.cls not in "()[]{}|")]
    return float(np.median(hs)) if hs else (float(np.median([max(i.h, i.w) for i in items])) if items else 1.0)


def union(items):
    b = np.array([i.box for i in items])
    return (b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max())


def structures(items: list[Item]) -> list[Item]:
    """Group radicals and fraction bars (widest first) into compound items."""
    if not items:
        return []
    typical = float(np.median([max(i.w, i.h) for i in items]))
    used = set()
    out = []
    for it in sorted(items, key=lambda i: -i.w):
        if id(it) in used:
            continue
        rest = [o for o in items if o is not it and id(o) not in used]
        if it.kind == "sym" and it.cls == "√":
            x0, y0, x1, y1 = it.box
            tick = it.tick if it.tick is not None else x0 + min(0.2 * it.w, 0.25 * it.h, 0.6 * typical)
            inside = [o for o in rest if tick < o.cx < x1 + 0.1 * typical and y0 - 0.1 * it.h < o.cy < y1 + 0.1 * typical]
            if inside:
                used |= {id(o) for o in inside} | {id(it)}
                sub = structures(inside)
                H = line_height(sub) if sub else it.h
                bl = float(np.median([line_metrics(o, H)[0] for o in sub]))
                out.append(Item("√", union([it] + inside), "sqrt", [it, sub, bl, H]))
                continue
        if it.kind == "sym" and it.cls == "-" and it.w > 0.5 * typical:
            x0, x1 = it.box[0], it.box[2]
            span = [o for o in rest if x0 - 0.05 * it.w < o.cx < x1 + 0.05 * it.w]
            above = [o for o in span if o.cy < it.cy and o.box[3] < it.cy + 0.3 * typical]
            below = [o for o in span if o.cy > it.cy and o.box[1] > it.cy - 0.3 * typical]
            if above and below:
                used |= {id(o) for o in above + below} | {id(it)}
                num, den = structures(above), structures(below)
                H = line_height(num + den) / 0.85
                out.append(Item("frac", union([it] + above + below), "frac", [it, num, den, H]))
                continue
        out.append(it)
        used.add(id(it))
    return out


def scriptable(it: Item) -> bool:
    return it.kind == "sqrt" or (it.kind == "sym" and (it.cls in S.DIGITS or it.cls.isalpha() or it.cls in ")]}!"))


def latex_item(it: Item, H_line: float) -> str:
    if it.kind == "frac":
        return "\\frac{" + baseline(it.parts[1]) + "}{" + baseline(it.parts[2]) + "}"
    if it.kind == "sqrt":
        return "\\sqrt{" + baseline(it.parts[1]) + "}"
    return S.latex_of(it.cls)


def baseline(items: list[Item]) -> str:
    items = sorted(items, key=lambda i: i.box[0])
    if not items:
        return ""
    H = line_height(items)
    toks = []
    i = 0
    base = None
    while i < len(items):
        it = items[i]
        if base is not None and scriptable(base[0]):
            bl, bh = line_metrics(base[0], base[1])
            rel = relation(it, base[0], bl, bh, items[i + 1] if i + 1 < len(items) else None)
            if rel:
                first = items[i + 1] if it.kind == "sym" and it.cls in OPS and i + 1 < len(items) else it
                sbl, sH = line_metrics(first, bh * 0.65)
                script = [it]
                j = i + 1
                while j < len(items) and items[j].box[0] < items[j - 1].box[2] + 1.5 * sH:
                    opened = sum(o.cls in "([{" for o in script) > sum(o.cls in ")]}" for o in script)
                    if not (opened and items[j].cls in ")]}") and \
                            not in_script(items[j], rel, bl, bh, sbl, sH, items[j + 1] if j + 1 < len(items) else None):
                        break
                    script.append(items[j])
                    j += 1
                toks.append(("^{" if rel == "sup" else "_{") + baseline(script) + "}")
                i = j
                continue
        if it.kind == "sym" and it.cls == ".":
            bl_ref = line_metrics(base[0], base[1])[0] if base else it.box[3]
            nxt = items[i + 1] if i + 1 < len(items) else None
            if nxt is not None and (nxt.kind != "sym" or (nxt.cls not in OPS and nxt.cls not in ".,·()[]{}|")):
                # the line on both sides: a base set a little high alone made a centred dot a point
                after = line_metrics(nxt, H)[0]
                bl_ref = after if base is None else (bl_ref + after) / 2
            toks.append("\\cdot" if bl_ref - it.cy > 0.25 * H else ".")
        else:
            toks.append(latex_item(it, H))
        base = (it, H)
        i += 1
    return S.join_latex(functions(toks))


def in_script(it, rel, bl, bh, sbl, sH, nxt) -> bool:
    """Does it continue a script whose line is (sbl, sH) over a base line (bl, bh)?"""
    if it.kind == "sym" and it.cls in ".,":
        foot, _ = line_metrics(it, sH)  # a comma by its head's baseline, a point by its foot
        return abs(foot - sbl) < abs(foot - bl) and nxt is not None and \
            in_script(nxt, rel, bl, bh, sbl, sH, None)
    if it.kind == "sym" and it.cls in ")]}":
        return False  # a closing bracket ends the script unless the script opened it (see caller)
    if it.kind == "sym" and it.cls in OPS:
        d_script = abs(it.cy - (sbl + S.AXIS * sH))
        d_main = abs(it.cy - (bl + S.AXIS * bh))
        return d_script < d_main and nxt is not None and in_script(nxt, rel, bl, bh, sbl, sH, None)
    nb, _ = line_metrics(it, sH)
    if abs(nb - sbl) > abs(nb - bl) and abs(nb - bl) < 0.25 * bh:
        return False
    return nb < sbl + 0.35 * sH if rel == "sup" else nb > sbl - 0.35 * sH


def relation(it: Item, base: Item, bl: float, bh: float, nxt):
    if it.kind == "sym" and it.cls in ".,·)]}":
        return None  # a dot or a closing bracket never starts a script
    if it.kind == "sym" and it.cls in OPS:
        if it.cls == "-" and nxt is not None and (bl + S.AXIS * bh) - it.cy > 0.1 * bh:
            return "sup" if relation(nxt, base, bl, bh, None) == "sup" else None
        return None
    ib, ih = line_metrics(it, bh)
    d = (ib - bl) / bh
    small = ih < 0.82 * bh
    if d < -0.4 or (small and d < -0.22):
        return "sup"
    if d > 0.3 or (small and d > 0.08):
        return "sub"
    return None


def functions(toks: list[str]) -> list[str]:
    out = []
    i = 0
    while i < len(toks):
        for f in sorted(S.FUNCTIONS, key=len, reverse=True):
            if toks[i:i + len(f)] == list(f):
                out.append("\\" + f)
                i += len(f)
                break
        else:
            out.append(toks[i])
            i += 1
    return out


def radical_tick(strokes) -> float:
    """The x where a radical sign's ink first comes within 30% of its top: the end of its tick."""
    p = np.concatenate(strokes)
    y0, y1 = p[:, 1].min(), p[:, 1].max()
    return float(p[p[:, 1] < y0 + 0.3 * (y1 - y0), 0].min())


def to_latex(symbols: list[tuple]) -> str:
    """symbols: (class, (x0, y0, x1, y1)[, strokes]) per recognised symbol (strokes: list of (n,2)
    arrays, used for radicals)."""
    items = []
    for s in symbols:
        it = Item(s[0], tuple(map(float, s[1])))
        if s[0] == "√" and len(s) > 2:
            it.tick = radical_tick(s[2])
        items.append(it)
    return baseline(structures(items))
