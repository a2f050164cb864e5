"""The glyph image network: a small CNN over glyph_image.image, one log-probability per class of the
math alphabet (symbols.CHARSET, JUNK included; no CTC blank). Swift twin: GlyphNetwork.swift.

Layers (written into the weight file by export_glyph.py, in this order):
  conv_i : Conv2d(3x3, padding 1) + ReLU + MaxPool(2), channels CHANNELS -> widths[0] -> ... (default
           16 -> 32 -> 64)
  fc     : Linear(widths[-1] * side * side -> hidden) + ReLU (default 128)
  out    : Linear(hidden -> len(CHARSET)), log_softmax
"""
from __future__ import annotations

import torch
import torch.nn as nn

import glyph_image as GI
import symbols as S

WIDTHS = (16, 32, 64)
HIDDEN = 128


class GlyphNet(nn.Module):
    def __init__(self, widths=WIDTHS, hidden=HIDDEN):
        super().__init__()
        self.widths, self.hidden = tuple(widths), hidden
        chans = (GI.CHANNELS,) + self.widths
        self.convs = nn.ModuleList(nn.Conv2d(chans[i], chans[i + 1], 3, padding=1) for i in range(len(self.widths)))
        side = GI.GRID // 2 ** len(self.widths)
        self.fc = nn.Linear(self.widths[-1] * side * side, hidden)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(hidden, len(S.CHARSET))

    def forward(self, x):
        for c in self.convs:
            x = torch.max_pool2d(torch.relu(c(x)), 2)
        x = self.drop(torch.relu(self.fc(x.flatten(1))))
        return torch.log_softmax(self.out(x), dim=-1)


def from_checkpoint(ck) -> GlyphNet:
    """The network a checkpoint of train_glyph.py holds (its widths and hidden size)."""
    cfg = ck.get("config", {})
    net = GlyphNet(tuple(cfg.get("widths", WIDTHS)), cfg.get("hidden", HIDDEN))
    net.load_state_dict(ck["model"])
    return net


def load_tensors(net: GlyphNet, t) -> GlyphNet:
    """Copies the weight file's named tensors (export_glyph.tensors' names: conv0.weight ... out.bias)
    into `net`."""
    sd = net.state_dict()
    for i in range(len(net.widths)):
        sd[f"convs.{i}.weight"].copy_(t[f"conv{i}.weight"])
        sd[f"convs.{i}.bias"].copy_(t[f"conv{i}.bias"])
    for n in ("fc.weight", "fc.bias", "out.weight", "out.bias"):
        sd[n].copy_(t[n])
    return net


def num_params(m: nn.Module) -> int:
    return sum(p.numel() for p in m.parameters())
