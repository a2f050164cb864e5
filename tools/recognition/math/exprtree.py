"""Expression trees of composed expressions and what is measured on them: canonical LaTeX, symbol
count, nesting depth and structure class (compose.py re-exports these names).

Trees: ('s', ch) | ('fn', name) | ('grp', row) | ('frac', row, row) | ('sup', node, row) | ('sub',
node, row) | ('sqrt', row); a row is a list of nodes.
"""
from __future__ import annotations

import symbols as S

def latex_row(row) -> str:
    return S.join_latex([latex_node(n) for n in row])


def latex_node(n) -> str:
    k = n[0]
    if k == "s":
        return S.latex_of(n[1])
    if k == "fn":
        return "\\" + n[1]
    if k == "grp":
        return latex_row(n[1])
    if k == "frac":
        return "\\frac{" + latex_row(n[1]) + "}{" + latex_row(n[2]) + "}"
    if k == "sqrt":
        return "\\sqrt{" + latex_row(n[1]) + "}"
    if k in ("sup", "sub"):
        return latex_node(n[1]) + ("^{" if k == "sup" else "_{") + latex_row(n[2]) + "}"
    raise KeyError(k)


def count(n) -> int:
    if isinstance(n, list):
        return sum(count(x) for x in n)
    k = n[0]
    if k == "s":
        return 1
    if k == "fn":
        return len(n[1])
    if k == "grp":
        return count(n[1])
    if k == "frac":
        return 1 + count(n[1]) + count(n[2])
    if k == "sqrt":
        return 1 + count(n[1])
    return count(n[1]) + count(n[2])


def depth(n) -> int:
    if isinstance(n, list):
        return max([depth(x) for x in n] + [0])
    k = n[0]
    if k in ("s", "fn"):
        return 0
    if k == "grp":
        return depth(n[1])
    if k in ("frac",):
        return 1 + max(depth(n[1]), depth(n[2]))
    if k == "sqrt":
        return 1 + depth(n[1])
    return max(depth(n[1]), 1 + depth(n[2]))


def kinds(n, out=None) -> set:
    out = set() if out is None else out
    if isinstance(n, list):
        for x in n:
            kinds(x, out)
        return out
    k = n[0]
    if k in ("frac", "sqrt", "sup", "sub"):
        out.add({"frac": "frac", "sqrt": "root", "sup": "script", "sub": "script"}[k])
    for x in n[1:]:
        if isinstance(x, (list, tuple)):
            kinds(x, out)
    return out


def structure_class(row) -> str:
    if depth(row) >= 2:
        return "nested"
    k = kinds(row)
    return "linear" if not k else (k.pop() if len(k) == 1 else "mixed")
