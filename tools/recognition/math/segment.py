"""Symbol segmentation: stroke-group hypotheses, their scores, and the best partition.

Hypotheses (candidates): connected sets of up to MAX_STROKES strokes in a proximity graph whose
edges join two strokes when their x-extents overlap (or nearly, within 0.15 of the reference size)
and the vertical gap between their boxes is at most 0.6 of it. The reference size is the median
of max(width, height) over the strokes (at least 1 mm). Writing order is never used: a group is a
set of strokes, fed to the classifier in the order they were written.

Scores: the classifier (the text network with the math alphabet) gives for each group the exact
CTC log-probability that the ink is exactly one character c (class_scores: a three-state forward
pass per class: leading blanks, c repeated, trailing blanks). A group's score is its best symbol
class; a partition scores the sum over its groups minus GROUP_PENALTY per group (more, smaller
groups must earn their keep; see docs/MATH-MODEL.md). The best partition is exact per connected
component (memoised search over stroke subsets), greedy for components over MAX_EXACT strokes.
"""
from __future__ import annotations

import numpy as np

MAX_STROKES = 4
MAX_EXACT = 18
GROUP_PENALTY = 0.5


def boxes(strokes):
    return np.array([[s[:, 0].min(), s[:, 1].min(), s[:, 0].max(), s[:, 1].max()] for s in strokes])


def reference_size(b) -> float:
    ext = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    return max(float(np.median(ext)), 1.0)


def parallel_bars(a, b) -> bool:
    """Two flat strokes of similar length one above the other, overlapping over half the shorter and
    less than the longer's length apart: the bars of an '=' (MathSegmenter.parallelBars)."""
    wa, wb, ha, hb = a[2] - a[0], b[2] - b[0], a[3] - a[1], b[3] - b[1]
    if not (wa > 0 and wb > 0 and ha < 0.3 * wa and hb < 0.3 * wb):
        return False
    xo = min(a[2], b[2]) - max(a[0], b[0])
    yg = max(a[1], b[1]) - min(a[3], b[3])
    return min(wa, wb) > 0.5 * max(wa, wb) and xo > 0.5 * min(wa, wb) and 0 < yg < max(wa, wb)


def dot_above(dot, stem, ref) -> bool:
    """A dot above the middle of a taller stroke, a little aside: an i's dot (MathSegmenter.dotAbove)."""
    ext = max(dot[2] - dot[0], dot[3] - dot[1])
    if not (ext < 0.15 * ref and stem[3] - stem[1] > 2 * ext and dot[3] < (stem[1] + stem[3]) / 2):
        return False
    xg = max(dot[0], stem[0]) - min(dot[2], stem[2])
    return xg < 0.45 * ref and stem[1] - dot[3] < ref


def neighbours(strokes) -> list[set]:
    b = boxes(strokes)
    ref = reference_size(b)
    n = len(strokes)
    adj = [set() for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            xo = min(b[i, 2], b[j, 2]) - max(b[i, 0], b[j, 0])
            yg = max(b[i, 1], b[j, 1]) - min(b[i, 3], b[j, 3])
            if ((xo > -0.15 * ref and yg < 0.6 * ref) or parallel_bars(b[i], b[j])
                    or dot_above(b[i], b[j], ref) or dot_above(b[j], b[i], ref)):
                adj[i].add(j)
                adj[j].add(i)
    return adj


def candidates(strokes, max_strokes: int = MAX_STROKES) -> list[tuple]:
    """All connected stroke sets of size <= max_strokes (sorted tuples), singletons first."""
    adj = neighbours(strokes)
    out = set()
    frontier = {(i,) for i in range(len(strokes))}
    out |= frontier
    for _ in range(max_strokes - 1):
        nxt = set()
        for g in frontier:
            for i in g:
                for j in adj[i]:
                    if j not in g:
                        nxt.add(tuple(sorted(g + (j,))))
        nxt -= out
        out |= nxt
        frontier = nxt
    return sorted(out, key=lambda g: (len(g), g))


def class_scores(logp: np.ndarray) -> np.ndarray:
    """logp: (T, C) log-probabilities of one group (class 0 blank). Returns (C,) log P(the ink reads
    exactly that one class) under CTC; entry 0 is -inf."""
    T, C = logp.shape
    blank = logp[:, 0]
    a0 = blank[0]                     # only blanks so far (scalar)
    a1 = logp[0].copy()               # inside the character
    a2 = np.full(C, -np.inf)          # blanks after it
    for t in range(1, T):
        a2 = np.logaddexp(a1, a2) + blank[t]
        a1 = np.logaddexp(a0, a1) + logp[t]
        a0 = a0 + blank[t]
    out = np.logaddexp(a1, a2)
    out[0] = -np.inf
    return out


def best_partition(n: int, cands: list[tuple], score: dict, penalty: float = GROUP_PENALTY) -> list[tuple]:
    """Cover strokes 0..n-1 exactly once with candidate groups maximising sum(score) - penalty*groups."""
    by_first: dict = {}
    for g in cands:
        by_first.setdefault(g[0], []).append(g)
    # components of the candidate overlap graph
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for g in cands:
        for j in g[1:]:
            parent[find(j)] = find(g[0])
    comps: dict = {}
    for i in range(n):
        comps.setdefault(find(i), []).append(i)
    result = []
    for comp in comps.values():
        cset = [g for g in cands if find(g[0]) == find(comp[0])]
        if len(comp) <= MAX_EXACT:
            result += _exact(comp, cset, score, penalty)
        else:
            result += _greedy(comp, cset, score, penalty)
    return result


def _exact(comp, cset, score, penalty):
    idx = {s: k for k, s in enumerate(comp)}
    full = (1 << len(comp)) - 1
    masks = {}
    by_low: dict = {}
    for g in cset:
        m = 0
        for s in g:
            m |= 1 << idx[s]
        masks[g] = m
        by_low.setdefault(idx[g[0]], []).append(g)
    memo = {0: (0.0, [])}

    def best(rem):
        if rem in memo:
            return memo[rem]
        low = (rem & -rem).bit_length() - 1
        top = (-np.inf, None)
        for g in by_low.get(low, ()):
            m = masks[g]
            if m & rem == m:
                v, rest = best(rem & ~m)
                v = v + score[g] - penalty
                if v > top[0]:
                    top = (v, [g] + rest)
        memo[rem] = top if top[1] is not None else (-1e9, [(comp[low],)] + best(rem & ~(1 << low))[1])
        return memo[rem]
    import sys
    sys.setrecursionlimit(10000)
    return best(full)[1]


def _greedy(comp, cset, score, penalty):
    left = set(comp)
    out = []
    for g in sorted(cset, key=lambda g: -(score[g] - penalty) / len(g) - 0.3 * len(g)):
        if set(g) <= left:
            out.append(g)
            left -= set(g)
    return out + [(s,) for s in sorted(left)]
