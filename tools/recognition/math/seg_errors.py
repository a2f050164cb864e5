"""Error analysis of the Swift math recognizer's readings (docs/MATH-EXPERIMENTS.md, "Segmentation and
line errors"). Standard library only.

    quire recognize --jsonl TRUTH.jsonl --math --json --math-segments > READ.jsonl
    python3 tools/recognition/math/seg_errors.py TRUTH.jsonl READ.jsonl [-v] [-r]

Each wrong expression is counted as the first of: segmentation (a true symbol's strokes are not one
read symbol), class (right groups, a wrong class), structure (right symbols, wrong layout or
lines). For each true symbol segmentation missed: merged / split / mixed, whether its stroke group
was a hypothesis, and the local margin (the chosen groups' score minus the true groups', with the
group penalty, over the strokes both partitions tie together). -v lists the wrong expressions,
-r every missed symbol. `best_partition` re-runs the partition over the dumped hypotheses, to try
a group penalty offline (`partition_rate`).
"""
import collections
import functools
import json
import sys


PEN = 0.5

def load(truth_path, rec_path):
    truth = {}
    for line in open(truth_path):
        t = json.loads(line); truth[t["id"]] = t
    recs = [json.loads(l) for l in open(rec_path)]
    return truth, recs

def analyze(truth, recs, verbose=False):
    cats = collections.Counter()
    details = collections.Counter()
    rows = []
    for r in recs:
        t = truth[r["id"]]
        if r["latex"] == t["latex"]:
            cats["right"] += 1; continue
        T = {frozenset(s["strokes"]): s["sym"] for s in t["symbols"]}
        R = {frozenset(int(x) for x in s["strokes"]): s["label"] for s in r["symbols"]}
        H = {frozenset(int(x) for x in h["strokes"]): (h["label"], h["score"]) for h in r.get("hypotheses", [])}
        missing = [g for g in T if g not in R]
        if missing:
            cat = "segmentation"
            for g in missing:
                overl = [q for q in R if q & g]
                if len(overl) == 1 and overl[0] > g: kind = "merged"
                elif all(q <= g for q in overl): kind = "split"
                else: kind = "mixed"
                inh = g in H
                # local margin: strokes closed under both partitions
                S = set(g)
                while True:
                    n = set(S)
                    for q in list(R) + list(T):
                        if q & n: n |= q
                    if n == S: break
                    S = n
                tg = [q for q in T if q <= S]; rg = [q for q in R if q <= S]
                ts = sum(H[q][1] - PEN for q in tg) if all(q in H for q in tg) else None
                rs = sum(H[q][1] - PEN for q in rg if q in H)
                margin = None if ts is None else rs - ts
                desc = f"{t['id']} {T[g]}{sorted(g)} {kind} hyp={inh}" + (f" as {H[g][0]} {H[g][1]:.2f}" if inh else "") \
                    + (f" margin={margin:.2f}" if margin is not None else " (a true group of the set lacks a hypothesis)") \
                    + "  read: " + " ".join(f"{R[q]}{sorted(q)}" for q in rg)
                rows.append((kind, inh, margin, desc, T[g]))
                details[(kind, inh)] += 1
        else:
            wrongcls = [g for g in T if R[g] != T[g]]
            cat = "class" if wrongcls else "structure"
        cats[cat] += 1
        if verbose: print(cat, t["id"], t["latex"], "->", r["latex"])
    return cats, details, rows

def box(s):
    xs=[p[0] for p in s]; ys=[p[1] for p in s]; return (min(xs),min(ys),max(xs),max(ys))
def best_partition(n, hyps, pen):
    # hyps: list of (frozenset, score); exact DP over bitmasks (components assumed small)
    by_low = collections.defaultdict(list)
    for g, sc in hyps:
        m = 0
        for i in g: m |= 1 << i
        by_low[min(g)].append((m, sc, g))
    sys.setrecursionlimit(10000)
    @functools.lru_cache(None)
    def best(rem):
        if rem == 0: return (0.0, ())
        low = (rem & -rem).bit_length() - 1
        top = (-1e18, ())
        for m, sc, g in by_low[low]:
            if m & rem == m:
                v, ch = best(rem & ~m)
                if v + sc - pen(g) > top[0]: top = (v + sc - pen(g), ch + (g,))
        if top[1] == () and rem: 
            v, ch = best(rem & ~(1 << low)); top = (v - 1e9, ch)
        return top
    return set(best((1 << n) - 1)[1])
def partition_rate(truthf, recf, penfn, maxn=22):
    """Expressions (of at most maxn strokes) whose best partition under the group penalty penfn(group, boxes)
    is the true one; with those it fixes and breaks against the fixed penalty 0.5."""
    truth = {json.loads(l)["id"]: json.loads(l) for l in open(truthf)}
    ok = tot = 0; fixed = []; broke = []
    for l in open(recf):
        r = json.loads(l); t = truth[r["id"]]; n = len(t["strokes"])
        if n > maxn: continue
        b = [box(s) for s in t["strokes"]]
        hyps = [(frozenset(int(x) for x in h["strokes"]), h["score"]) for h in r["hypotheses"]]
        T = set(frozenset(s["strokes"]) for s in t["symbols"])
        p0 = best_partition(n, hyps, lambda g: 0.5)
        p1 = best_partition(n, hyps, lambda g: penfn(g, b))
        tot += 1; ok += p1 == T
        if p1 == T and p0 != T: fixed.append(r["id"])
        if p0 == T and p1 != T: broke.append(r["id"])
    return ok, tot, fixed, broke
if __name__ == "__main__":
    truth, recs = load(sys.argv[1], sys.argv[2])
    cats, details, rows = analyze(truth, recs, verbose="-v" in sys.argv)
    print(dict(cats))
    for k, v in sorted(details.items(), key=lambda kv: -kv[1]): print(k, v)
    if "-r" in sys.argv:
        for row in sorted(rows, key=lambda r: (r[0], r[1])): print(row[3])
