"""Export of a glyph network checkpoint (train_glyph.py) for Swift, and its parity fixture.

    python3 tools/recognition/math/export_glyph.py --ckpt /work/state/glyph1/ckpt.pt \
        --out Resources/recognition/quire-glyph.bin [--parity Tests/QuireTests/Fixtures/glyph-parity.json]

--out: the weight file in the recognizers' container (export.write_bin; header role "glyph", the
image constants and the layer widths; float16 tensors conv0-2, fc, out). --parity: a few stroke
groups with their glyph image (its non-zero pixels as [index, value]) and the log-probabilities of the float16-rounded network, which
GlyphNetworkTests compares with the Swift twin.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import export  # noqa: E402
import glyph_image as GI  # noqa: E402
import glyph_net  # noqa: E402
import symbols as S  # noqa: E402


def tensors(sd, layers):
    out = []
    for i in range(layers):
        out += [(f"conv{i}.weight", sd[f"convs.{i}.weight"]), (f"conv{i}.bias", sd[f"convs.{i}.bias"])]
    out += [("fc.weight", sd["fc.weight"]), ("fc.bias", sd["fc.bias"]),
            ("out.weight", sd["out.weight"]), ("out.bias", sd["out.bias"])]
    return [(n, t.detach().float().numpy()) for n, t in out]


def parity_groups():
    """Fixed groups that exercise the image: a long slanted stroke, a two-stroke plus, a dot, a
    minus under the size floor, a stroke with repeated points, and a group reaching past the grid."""
    t = np.linspace(0, 1, 25)
    loop = np.stack([2 + 1.6 * np.cos(6.2 * t), 3 + 2.4 * np.sin(6.2 * t)], 1)
    return [
        [np.stack([1 + 2 * t, 6 - 5.5 * t], 1)],
        [np.array([[0.0, 2.0], [1.0, 2.05], [2.1, 2.0], [3.0, 1.98]]), np.array([[1.5, 0.4], [1.52, 2.0], [1.5, 3.6]])],
        [np.array([[5.0, 5.0]])],
        [np.array([[0.0, 0.0], [0.8, 0.02], [1.6, 0.0]])],
        [loop, np.array([[2.0, 3.0], [2.0, 3.0], [2.3, 3.4]])],
        [np.array([[0.0, 0.0], [40.0, 3.0]]), np.array([[20.0, 1.0], [20.5, 2.0]])],
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--parity")
    args = ap.parse_args()
    ck = torch.load(args.ckpt, map_location="cpu", weights_only=False)
    net = glyph_net.from_checkpoint(ck)
    ts = tensors(ck["model"], len(net.widths))
    header = {
        "format": "quire-recognizer", "format_version": export.FORMAT_VERSION, "architecture": "glyph-cnn",
        "role": "glyph", "charset": S.CHARSET, "junk": S.JUNK,
        "config": {"widths": list(net.widths), "hidden": net.hidden},
        "image": {"grid": GI.GRID, "fit": GI.FIT, "floor_mm": GI.FLOOR_MM, "step": GI.STEP,
                  "channels": GI.CHANNELS, "max": 2.0},
        "training": {"step": ck["step"], "samples": ck.get("samples", 0), "command": json.dumps(ck.get("args", {}))},
        "data": "UNIPEN train_r01_v07 (CC BY 4.0), UCI pendigits (CC BY 4.0), Omniglot (MIT); expressions "
                "composed by tools/recognition/math/compose.py",
    }
    export.write_bin(args.out, ts, header)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, step {ck['step']})")
    if args.parity:
        half = {n: torch.from_numpy(a.astype(np.float16).astype(np.float32)) for n, a in ts}
        glyph_net.load_tensors(net, half).eval()
        cases = []
        for g in parity_groups():
            img = GI.image(g)
            with torch.no_grad():
                lp = net(torch.from_numpy(img)[None])[0].numpy()
            cases.append({"strokes": [s.tolist() for s in g], "image_sum": [float(v) for v in img.sum((1, 2))],
                          "image": [[int(i), round(float(img.ravel()[i]), 5)] for i in np.flatnonzero(img.ravel())],
                          "log_probs": [round(float(v), 5) for v in lp]})
        with open(args.parity, "w") as f:
            json.dump({"step": ck["step"], "cases": cases}, f, separators=(",", ":"))
        print(f"wrote {args.parity} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
