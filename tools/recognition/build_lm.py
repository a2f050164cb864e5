#!/usr/bin/env python3
"""Builds Quire's character n-gram language model (Resources/recognition/quire-lm.bin).

Text (all offline, permissively licensed; see NOTICE and docs/RECOGNITION-MODEL.md):
  * the labels of UNIPEN words and free text written by TRAINING writers only
    (../shared/data, CC BY 4.0; validation writers' labels are never read into the model),
    each distinct label once, so prompts many writers copied do not dominate;
  * Debian's wamerican word list (/usr/share/dict/american-english, SCOWL, permissive licence),
    one word a line, so spelling outside the UNIPEN prompts is covered.

Model: interpolated Kneser-Ney (one discount per order, D = n1 / (n1 + 2 n2)), written in backoff
form: every stored n-gram keeps its interpolated probability, every context its interpolation weight,
so P(w | h) = p(h w) if stored, else bow(h) * P(w | h minus its oldest symbol). Symbols: 0 marks the
start and the end of a line, 1..95 are ASCII 32..126 (the recognizer's classes). N-grams of order 3
and up seen fewer than --min-count times are pruned and their contexts' weights renormalised.

--exclude-writers-mod K/R also drops every label written by a training writer whose
sha1("lm-tune:" + writer) % K == R (and every label equal to one of theirs): the model used to tune
the fusion weight on those writers then has not seen their texts.

Usage:
  python3 tools/recognition/build_lm.py [--order 5] [--min-count 2] [--out Resources/recognition/quire-lm.bin]
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import struct
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import DATA_DIR, is_validation_writer  # noqa: E402

WORDLIST = "/usr/share/dict/american-english"
BOUNDARY = 0
VOCAB = 96  # boundary (as end of line) + 95 printable characters


def tune_writer(writer: str, mod: int, rest: int) -> bool:
    return int(hashlib.sha1(("lm-tune:" + writer).encode("utf-8")).hexdigest(), 16) % mod == rest


def read_labels(data_dir: str, exclude: tuple[int, int] | None):
    """Distinct normalised labels of training writers (words and free text)."""
    kept, held_out = set(), set()
    for name in ("unipen-words.train.jsonl.gz", "unipen-text.train.jsonl.gz"):
        with gzip.open(os.path.join(data_dir, name), "rt", encoding="utf-8") as f:
            for line in f:
                s = json.loads(line)
                if is_validation_writer(s["writer"]):
                    continue  # never read validation writers' labels
                label = " ".join(s["label"].split())
                if not label:
                    continue
                if exclude and tune_writer(s["writer"], *exclude):
                    held_out.add(label)
                else:
                    kept.add(label)
    return kept - held_out, held_out


def encode(text: str) -> list[int]:
    return [ord(c) - 31 for c in text if 32 <= ord(c) <= 126]


def build(texts: list[str], order: int, min_count: int):
    # raw counts of every n-gram (1..order) in the padded lines
    raw = [defaultdict(int) for _ in range(order + 1)]
    for t in texts:
        seq = [BOUNDARY] + encode(t) + [BOUNDARY]
        for i in range(1, len(seq)):  # position i is predicted; the start symbol never is
            for n in range(1, order + 1):
                if i - n + 1 < 0:
                    break
                raw[n][tuple(seq[i - n + 1: i + 1])] += 1
    # Kneser-Ney adjusted counts: the highest order and n-grams starting at the line start keep raw
    # counts; lower orders count distinct one-symbol left extensions.
    adj = [dict() for _ in range(order + 1)]
    adj[order] = dict(raw[order])
    for n in range(order - 1, 0, -1):
        cont = defaultdict(int)
        for g in raw[n + 1]:
            cont[g[1:]] += 1
        for g, c in raw[n].items():
            adj[n][g] = c if g[0] == BOUNDARY else cont.get(g, c)
    discount = [0.0] * (order + 1)
    for n in range(1, order + 1):
        n1 = sum(1 for c in adj[n].values() if c == 1)
        n2 = sum(1 for c in adj[n].values() if c == 2)
        discount[n] = n1 / (n1 + 2 * n2) if n1 + 2 * n2 > 0 else 0.5
    prob = [dict() for _ in range(order + 1)]
    gamma: dict[tuple, float] = {}
    # order 1: interpolate with the uniform distribution over the vocabulary
    total = sum(adj[1].values())
    types = len(adj[1])
    g0 = discount[1] * types / total
    for w in range(VOCAB):
        c = adj[1].get((w,), 0)
        prob[1][(w,)] = max(c - discount[1], 0) / total + g0 / VOCAB
    for n in range(2, order + 1):
        ctx_total, ctx_types = defaultdict(int), defaultdict(int)
        for g, c in adj[n].items():
            ctx_total[g[:-1]] += c
            ctx_types[g[:-1]] += 1
        for h in ctx_total:
            gamma[h] = discount[n] * ctx_types[h] / ctx_total[h]
        for g, c in adj[n].items():
            # Rare high-order n-grams are not stored (their mass moves to the backoff below); the
            # statistics above still count them, so the kept ones keep their full-model probability.
            if n >= 3 and raw[n][g] < min_count:
                continue
            h = g[:-1]
            prob[n][g] = max(c - discount[n], 0) / ctx_total[h] + gamma[h] * lower(prob, gamma, g[1:])
    # Pruning removed n-grams whose probability was counted in their context's mass: renormalise the
    # weights so every context's distribution sums to one again.
    kept_mass, lower_mass = defaultdict(float), defaultdict(float)
    for n in range(2, order + 1):
        for g, p in prob[n].items():
            kept_mass[g[:-1]] += p
            lower_mass[g[:-1]] += lower(prob, gamma, g[1:])
    bows = {}
    for h, gm in gamma.items():
        bows[h] = (1 - kept_mass[h]) / (1 - lower_mass[h]) if lower_mass[h] < 1 - 1e-9 else gm
    return prob, bows


def lower(prob, gamma, g):
    """P(w | h) in backoff form for a shorter n-gram g = h + (w,)."""
    n = len(g)
    if g in prob[n]:
        return prob[n][g]
    return gamma.get(g[:-1], 1.0) * lower(prob, gamma, g[1:])


def key(g: tuple) -> int:
    k = 1
    for s in g:
        k = k << 7 | s
    return k


def write(path: str, prob, bows, order: int, header: str):
    records = []
    for n in range(1, order + 1):
        for g, p in prob[n].items():
            b = bows.get(g, 1.0)
            records.append((key(g), math.log(p), math.log(b) if b > 0 else -99.0))
    # the start symbol is a context, never predicted: store it with a tiny probability and its weight
    if key((BOUNDARY,)) not in {r[0] for r in records}:
        records.append((key((BOUNDARY,)), -99.0, math.log(bows.get((BOUNDARY,), 1.0))))
    records.sort()
    head = header.encode("utf-8")
    with open(path + ".tmp", "wb") as f:
        f.write(b"QCLM")
        f.write(struct.pack("<IIII", 1, order, len(records), len(head)))
        f.write(head)
        for k, p, b in records:
            f.write(struct.pack("<Qff", k, p, b))
    os.replace(path + ".tmp", path)
    return len(records)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DATA_DIR)
    ap.add_argument("--order", type=int, default=5)
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--no-wordlist", action="store_true")
    ap.add_argument("--no-labels", action="store_true", help="word list only (to measure what the UNIPEN texts add)")
    ap.add_argument("--exclude-writers-mod", default=None, help="K/R: hold out tuning writers' texts")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "../../Resources/recognition/quire-lm.bin"))
    a = ap.parse_args()
    exclude = tuple(int(x) for x in a.exclude_writers_mod.split("/")) if a.exclude_writers_mod else None
    labels, held_out = read_labels(a.data, exclude)
    texts = [] if a.no_labels else sorted(labels)
    words = []
    if not a.no_wordlist and os.path.exists(WORDLIST):
        with open(WORDLIST, encoding="utf-8", errors="ignore") as f:
            words = sorted({w.strip() for w in f if w.strip() and all(32 < ord(c) < 127 for c in w.strip())} - held_out)
    prob, bows = build(texts + words, a.order, a.min_count)
    header = (f"Quire character {a.order}-gram model, interpolated Kneser-Ney, n-grams of order >= 3 seen "
              f"fewer than {a.min_count} times pruned. Text: {len(texts)} distinct labels of UNIPEN train_r01_v07 "
              f"words and free text by training writers (CC BY 4.0, doi:10.5281/zenodo.1195803)"
              + (f"; {len(words)} words of Debian wamerican (SCOWL, permissive licence)" if words else "")
              + (f"; texts of tuning writers {a.exclude_writers_mod} held out" if exclude else "") + ".")
    n = write(a.out, prob, bows, a.order, header)
    print(f"{a.out}: {n} n-grams, {os.path.getsize(a.out) / 1e6:.2f} MB; {len(texts)} labels, {len(words)} words"
          + (f", {len(held_out)} tuning texts held out" if exclude else ""))


if __name__ == "__main__":
    main()
