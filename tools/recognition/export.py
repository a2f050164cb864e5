"""Export a training checkpoint to Resources/recognition/quire-rec.bin (+ parity.json).

    python3 tools/recognition/export.py [--ckpt tools/recognition/checkpoints/latest.pt]
    python3 tools/recognition/export.py --role characters --ckpt tools/recognition/checkpoints/chars.pt \
        --out Resources/recognition/quire-rec-chars.bin --parity none

File format (little endian, documented in docs/RECOGNITION-MODEL.md):
    bytes 0..3   magic "QREC"
    u32          format version (1)
    u32          header length H in bytes
    H bytes      UTF-8 JSON header (tensor table, layer order, charset, preprocessing constants, ...)
    padding      zero bytes up to a multiple of 16 from the start of the file
    data         tensors as IEEE float16, row major, at header["tensors"][i]["offset"] (bytes, relative
                 to the start of the data section), header["data_bytes"] bytes in all.
LSTM biases are stored pre-summed (bias = b_ih + b_hh). parity.json holds fixed feature inputs and the
log-probabilities PyTorch computes from the float16-rounded weights, plus raw-ink preprocessing cases.
"""
from __future__ import annotations

import argparse
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
import model as model_mod  # noqa: E402

torch.set_num_threads(1)
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FORMAT_VERSION = 1


def tensor_list(sd, cfg):
    """(name, float32 array) in file order."""
    out = [("conv.weight", sd["conv.weight"]), ("conv.bias", sd["conv.bias"])]
    for layer in range(cfg["layers"]):
        for sfx, d in (("", "fwd"), ("_reverse", "bwd")):
            out.append((f"lstm{layer}.{d}.w_ih", sd[f"lstm.weight_ih_l{layer}{sfx}"]))
            out.append((f"lstm{layer}.{d}.w_hh", sd[f"lstm.weight_hh_l{layer}{sfx}"]))
            out.append((f"lstm{layer}.{d}.bias",
                        sd[f"lstm.bias_ih_l{layer}{sfx}"] + sd[f"lstm.bias_hh_l{layer}{sfx}"]))
    out += [("out.weight", sd["out.weight"]), ("out.bias", sd["out.bias"])]
    return [(n, t.detach().float().numpy()) for n, t in out]


def dequantized_model(tensors, cfg):
    """A PyTorch model holding exactly the float16-rounded weights the Swift side sees."""
    net = model_mod.build(cfg)
    t = {n: torch.from_numpy(a.astype(np.float16).astype(np.float32)) for n, a in tensors}
    sd = net.state_dict()
    sd["conv.weight"].copy_(t["conv.weight"])
    sd["conv.bias"].copy_(t["conv.bias"])
    for layer in range(cfg["layers"]):
        for sfx, d in (("", "fwd"), ("_reverse", "bwd")):
            sd[f"lstm.weight_ih_l{layer}{sfx}"].copy_(t[f"lstm{layer}.{d}.w_ih"])
            sd[f"lstm.weight_hh_l{layer}{sfx}"].copy_(t[f"lstm{layer}.{d}.w_hh"])
            sd[f"lstm.bias_ih_l{layer}{sfx}"].copy_(t[f"lstm{layer}.{d}.bias"])
            sd[f"lstm.bias_hh_l{layer}{sfx}"].zero_()
    sd["out.weight"].copy_(t["out.weight"])
    sd["out.bias"].copy_(t["out.bias"])
    net.load_state_dict(sd)
    net.eval()
    return net


def write_bin(path, tensors, header):
    offset = 0
    table = []
    blobs = []
    for name, a in tensors:
        b = a.astype("<f2").tobytes()
        table.append({"name": name, "shape": list(a.shape), "dtype": "f16", "offset": offset, "count": int(a.size)})
        blobs.append(b)
        offset += len(b)
    header = dict(header, tensors=table, data_bytes=offset)
    hb = json.dumps(header, separators=(",", ":"), sort_keys=True).encode("utf-8")
    pre = b"QREC" + struct.pack("<II", FORMAT_VERSION, len(hb)) + hb
    pad = (-len(pre)) % 16
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(pre + b"\0" * pad)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


def parity_cases(net, n_cases=4):
    samples = data.load_all()
    _, val = data.split(samples)
    val.sort(key=lambda s: s.id)
    want = {"digits": 1, "lower": 1, "words": 2}
    cases, pre_cases = [], []
    for s in val:
        if want.get(s.cat, 0) <= 0 or not s.in_mm:
            continue
        f = data.sample_features(s.strokes, s.in_mm, None, augment=False)
        if f is None or not (30 <= len(f) <= 120):
            continue
        want[s.cat] -= 1
        with torch.no_grad():
            lp, ol = net(torch.from_numpy(f)[None], torch.tensor([len(f)]))
        cases.append({"id": s.id, "label": s.label, "features": np.round(f, 6).tolist(),
                      "log_probs": np.round(lp[0, : int(ol[0])].numpy().astype(np.float64), 6).tolist()})
        strokes = [np.round(st.astype(np.float64), 4) for st in s.strokes]
        ff, sid = data.features(data.normalize(strokes, True))
        pre_cases.append({"id": s.id, "in_mm": True, "strokes": [st.tolist() for st in strokes],
                          "features": np.round(ff, 6).tolist(), "stroke_index": sid.tolist()})
    # an isolated period with a resolution: must stay small (absolute mm floor)
    dot = [np.array([[0.0, 0.0], [0.3, 0.2], [0.1, 0.4]])]
    ff, sid = data.features(data.normalize(dot, True))
    pre_cases.append({"id": "synthetic-dot", "in_mm": True, "strokes": [d.tolist() for d in dot],
                      "features": np.round(ff, 6).tolist(), "stroke_index": sid.tolist()})
    return cases, pre_cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default=os.path.join(ROOT, "tools/recognition/checkpoints/latest.pt"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Resources/recognition/quire-rec.bin"))
    ap.add_argument("--parity", default=os.path.join(ROOT, "Resources/recognition/parity.json"))
    ap.add_argument("--recipe", default="OMP_NUM_THREADS=1 python3 tools/recognition/train.py --run /work/state/quire-train --seed 1",
                    help="the commands that produced the checkpoint, for the header (see docs/RECOGNITION-MODEL.md)")
    ap.add_argument("--role", choices=["general", "characters"], default="general",
                    help="general: quire-rec.bin; characters: the lone-character model quire-rec-chars.bin "
                         "(give --parity none: parity.json belongs to the general weights)")
    args = ap.parse_args()
    ck = torch.load(args.ckpt, map_location="cpu", weights_only=False)
    cfg = ck.get("config", model_mod.CONFIG)
    tensors = tensor_list(ck["model"], cfg)
    header = {
        "format": "quire-recognizer",
        "format_version": FORMAT_VERSION,
        "architecture": "conv1d-bilstm-ctc",
        "role": args.role,
        "layer_order": ["conv", "relu"] + [f"bilstm{i}" for i in range(cfg["layers"])] + ["out", "log_softmax"],
        "config": cfg,
        "lstm_gate_order": "ifgo",
        "charset": data.CHARSET,
        "blank_index": 0,
        "num_classes": data.NUM_CLASSES,
        "preprocess": {"min_height_mm": data.MIN_HEIGHT_MM, "spacing": data.SPACING, "clip": data.CLIP,
                       "num_features": data.NUM_FEATURES, "features": ["dx", "dy", "pen_up", "y"],
                       "max_points": data.MAX_POINTS},
        "training": {"step": ck["step"], "samples": ck["samples"], "hours": round(ck.get("hours", 0.0), 3),
                     "command": args.recipe,
                     **({"averaged": ck["averaged"]} if ck.get("averaged") else {}),
                     **({"history": ck["history"]} if ck.get("history") else {})},
        "data": "UNIPEN train_r01_v07 (CC BY 4.0), UCI pendigits (CC BY 4.0), Omniglot Latin (MIT)",
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    write_bin(args.out, tensors, header)
    if args.parity == "none":
        print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, step {ck['step']})")
        return
    net = dequantized_model(tensors, cfg)
    cases, pre = parity_cases(net)
    tmp = args.parity + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"note": "log_probs from PyTorch with the float16-rounded weights of quire-rec.bin",
                   "step": ck["step"], "cases": cases, "preprocess_cases": pre}, f, separators=(",", ":"))
    os.replace(tmp, args.parity)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, step {ck['step']}) and {args.parity} "
          f"({os.path.getsize(args.parity)} bytes, {len(cases)} cases)")


if __name__ == "__main__":
    main()
