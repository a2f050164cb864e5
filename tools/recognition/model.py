"""Quire recognition network: stride-2 1-D conv front end -> BiLSTM stack -> linear -> CTC.

Layer order (also written into the weight file header by export.py):
  conv   : Conv1d(NUM_FEATURES -> conv_channels, kernel 5, stride 2, padding 2) + ReLU
  lstm_i : bidirectional LSTM, i = 0..layers-1 (PyTorch gate order i, f, g, o)
  out    : Linear(2*hidden -> NUM_CLASSES), log_softmax; class 0 is the CTC blank
Output length for T input points: (T - 1) // 2 + 1.
"""
from __future__ import annotations

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

import data

CONFIG = {"conv_channels": 64, "conv_kernel": 5, "conv_stride": 2, "hidden": 112, "layers": 3}


def out_lengths(lengths: torch.Tensor) -> torch.Tensor:
    return (lengths - 1) // 2 + 1


class Recognizer(nn.Module):
    def __init__(self, conv_channels=64, conv_kernel=5, conv_stride=2, hidden=112, layers=3):
        super().__init__()
        assert conv_stride == 2 and conv_kernel == 5
        self.conv = nn.Conv1d(data.NUM_FEATURES, conv_channels, conv_kernel, stride=2, padding=conv_kernel // 2)
        self.lstm = nn.LSTM(conv_channels, hidden, num_layers=layers, bidirectional=True, batch_first=True)
        self.out = nn.Linear(2 * hidden, data.NUM_CLASSES)

    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        """x: (B, T, F) zero padded; lengths: (B,) int64. Returns log-probs (B, T', C), out lengths."""
        h = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        ol = out_lengths(lengths)
        packed = pack_padded_sequence(h, ol.cpu(), batch_first=True, enforce_sorted=False)
        y, _ = self.lstm(packed)
        y, _ = pad_packed_sequence(y, batch_first=True, total_length=h.shape[1])
        return torch.log_softmax(self.out(y), dim=-1), ol


def field_scores(net: Recognizer, features, classes: str):
    """Log-likelihood (numpy, one per class) that the ink is exactly that one character: the exact
    CTC score of each single-character reading, as a field of those classes is decided."""
    with torch.no_grad():
        out, olen = net(torch.tensor(features)[None], torch.tensor([len(features)]))
        n = len(classes)
        target = torch.tensor([[data.CHAR_TO_INDEX[c]] for c in classes])
        nll = torch.nn.functional.ctc_loss(out.transpose(0, 1).expand(-1, n, -1), target, olen.expand(n),
                                           torch.ones(n, dtype=torch.long), reduction="none",
                                           zero_infinity=True)
    return -nll.numpy()


def build(config=None) -> Recognizer:
    return Recognizer(**(config or CONFIG))


def num_params(m: nn.Module) -> int:
    return sum(p.numel() for p in m.parameters())
