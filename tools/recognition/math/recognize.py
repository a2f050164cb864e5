"""Reference recogniser: strokes (mm) -> symbols (segmentation + classifier) -> LaTeX (parse.py).

The classifier is the text network (tools/recognition/model.py) with the math alphabet's output
layer (symbols.CHARSET); each stroke-group hypothesis is preprocessed exactly as the text recognizer
preprocesses a field (data.normalize in millimetres, data.features) and scored with
segment.class_scores.
"""
from __future__ import annotations

import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import data  # noqa: E402
import model as model_mod  # noqa: E402
import parse  # noqa: E402
import segment  # noqa: E402
import symbols as S  # noqa: E402

SYMBOL_CLASSES = np.array([S.INDEX[c] for c in S.CHARSET if c != S.JUNK])


def build_net(init_ckpt: str | None = None):
    """The text network with a math output layer. From a text checkpoint (95 ASCII classes) the new
    layer's rows are copied from the same character, or from a look-alike (symbols.LOOKALIKE)."""
    net = model_mod.build()
    if init_ckpt:
        ck = torch.load(init_ckpt, map_location="cpu", weights_only=False)
        net.load_state_dict(ck["model"])
    old_w, old_b = net.out.weight.data.clone(), net.out.bias.data.clone()
    net.out = torch.nn.Linear(old_w.shape[1], S.NUM_CLASSES)
    with torch.no_grad():
        net.out.weight[0], net.out.bias[0] = old_w[0], old_b[0]
        for i, c in enumerate(S.CHARSET):
            src = data.CHAR_TO_INDEX.get(c) or data.CHAR_TO_INDEX[S.LOOKALIKE[c]]
            net.out.weight[i + 1], net.out.bias[i + 1] = old_w[src], old_b[src]
    return net


def group_features(strokes, group):
    st = data.normalize([strokes[i] for i in group], True)
    if not st:
        return None
    f, _ = data.features(st)
    return f if 0 < len(f) <= data.MAX_POINTS else None


@torch.no_grad()
def log_probs(net, feats: list, max_points=6000):
    """Batched forward pass; returns one (T', C) numpy array per feature array."""
    order = sorted(range(len(feats)), key=lambda k: len(feats[k]))
    out = [None] * len(feats)
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and (j - i + 1) * len(feats[order[j]]) <= max_points and j - i < 64:
            j += 1
        idx = order[i:j]
        L = torch.tensor([len(feats[k]) for k in idx])
        x = torch.zeros(len(idx), int(L.max()), data.NUM_FEATURES)
        for r, k in enumerate(idx):
            x[r, :len(feats[k])] = torch.from_numpy(feats[k])
        lp, ol = net(x, L)
        for r, k in enumerate(idx):
            out[k] = lp[r, :int(ol[r])].numpy().astype(np.float64)
        i = j
    return out


def recognize(net, strokes, penalty=segment.GROUP_PENALTY):
    """Returns (latex, [(group, class, score)])."""
    cands = [g for g in segment.candidates(strokes)]
    feats = [group_features(strokes, g) for g in cands]
    keep = [k for k, f in enumerate(feats) if f is not None]
    cands = [cands[k] for k in keep]
    lps = log_probs(net, [feats[k] for k in keep])
    score, best = {}, {}
    for g, lp in zip(cands, lps):
        cs = segment.class_scores(lp)
        k = int(SYMBOL_CLASSES[np.argmax(cs[SYMBOL_CLASSES])])
        score[g], best[g] = float(cs[k]), S.CHARSET[k - 1]
    for i in range(len(strokes)):  # every stroke needs at least its singleton
        if (i,) not in score:
            cands.append((i,))
            score[(i,)], best[(i,)] = -50.0, "."
    part = segment.best_partition(len(strokes), cands, score, penalty)
    syms = []
    for g in part:
        pts = [strokes[i] for i in g]
        p = np.concatenate(pts)
        syms.append((best[g], (p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()), pts))
    latex = parse.to_latex(syms)
    return latex, [(g, best[g], score[g]) for g in part]


def score_expression(expr, latex, groups):
    """(symbols right, symbols, expression right): a symbol is right when its exact stroke set is one
    recognised group with its class."""
    got = {tuple(sorted(g)): c for g, c, _ in groups}
    right = sum(got.get(tuple(sorted(s["strokes"]))) == s["sym"] for s in expr["symbols"])
    return right, len(expr["symbols"]), latex == expr["latex"]
