#!/usr/bin/env python3
"""Mutation fuzzer for Quire packages (.iink) and the `quire` CLI.

Starts from real packages, writes mutated ones (still valid zips unless a zip-level mutation is
picked), runs each through the CLI paths that read a package and attach an editor, and records
crashes (signal exits, "Fatal error", backtraces), hangs (timeouts) and packages that `convert`
saved but can no longer open (lost data).

Every case is reproducible from (seed, index): case i uses random.Random(f"{seed}:{i}"), so a
finding can be regenerated alone with `--only i`.

    python3 tools/fuzz/fuzz_packages.py --quire .build/release/quire --out /tmp/quire-fuzz \
        --seed 1 --cases 2000 --jobs 2 SEED.iink [SEED.iink ...]

Findings go to OUT/findings/<kind>-<case>/ (the package, the command, its output); a summary
line per case to OUT/log.tsv. Keep OUT outside the repository: corpora are not committed.
"""

import argparse
import io
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzzlib import DETERMINISTIC_ENV, classify, signature  # noqa: E402

# ----------------------------------------------------------------------------- strokes.bin codec
# Mirrors docs/FORMAT.md; used to mutate decoded values and re-encode them validly, so that the
# mutation reaches the code behind the decoder instead of stopping at a bounds check.

def _varint(b, pos):
    r = shift = 0
    while True:
        c = b[pos]; pos += 1
        r |= (c & 0x7F) << shift
        if not c & 0x80:
            return r, pos
        shift += 7

def _zz(b, pos):
    u, pos = _varint(b, pos)
    return (u >> 1) ^ -(u & 1), pos

def _string(b, pos):
    n, pos = _varint(b, pos)
    return b[pos:pos + n].decode("utf-8", "replace"), pos + n

def decode_strokes(b):
    assert b[:4] == b"QSTK" and b[4] == 1
    n, pos = _varint(b, 5)
    out = []
    for _ in range(n):
        s = {}
        s["id"], pos = _string(b, pos)
        s["ptype"] = b[pos]; pos += 1
        if s["ptype"] == 4:
            s["custom"], pos = _zz(b, pos)
        s["pid"], pos = _zz(b, pos)
        s["tool"], pos = _string(b, pos)
        s["color"], pos = _string(b, pos)
        s["width"] = struct.unpack("<f", b[pos:pos + 4])[0]; pos += 4
        s["block"], pos = _string(b, pos)
        s["seq"], pos = _zz(b, pos)
        s["start"], pos = _zz(b, pos)
        cnt, pos = _varint(b, pos)
        for ch in ("xs", "ys", "ts", "ps"):
            vals, prev = [], 0
            for _ in range(cnt):
                d, pos = _zz(b, pos)
                prev += d
                vals.append(prev)
            s[ch] = vals
        out.append(s)
    return out

def _put_varint(out, v):
    v &= (1 << 64) - 1  # the file holds 64-bit varints; larger values wrap like the encoder's
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80); v >>= 7
    out.append(v)

def _put_zz(out, v):
    v = max(-(1 << 63), min((1 << 63) - 1, v))
    _put_varint(out, ((v << 1) ^ (v >> 63)) & ((1 << 64) - 1))

def _put_string(out, s):
    e = s.encode("utf-8") if isinstance(s, str) else s
    _put_varint(out, len(e)); out.extend(e)

def encode_strokes(strokes, count=None):
    out = bytearray(b"QSTK\x01")
    _put_varint(out, len(strokes) if count is None else count)
    for s in strokes:
        _put_string(out, s["id"])
        out.append(s["ptype"] & 0xFF)
        if s["ptype"] == 4:
            _put_zz(out, s.get("custom", 0))
        _put_zz(out, s["pid"])
        _put_string(out, s["tool"]); _put_string(out, s["color"])
        out.extend(struct.pack("<f", s["width"]) if not isinstance(s["width"], bytes) else s["width"])
        _put_string(out, s["block"])
        _put_zz(out, s["seq"]); _put_zz(out, s["start"])
        n = len(s["xs"])
        _put_varint(out, s.get("count", n))
        for ch in ("xs", "ys", "ts", "ps"):
            prev = 0
            for v in s[ch]:
                _put_zz(out, v - prev); prev = v
    return bytes(out)

# ----------------------------------------------------------------------------- value pools

I32 = (1 << 31) - 1
I64 = (1 << 63) - 1
HUGE_NUMBERS = [0, -0.0, -1, 1, 0.5, -0.5, 1e-300, 5e-324, 1e308, -1e308, 1.7976931348623157e308,
                1e20, -1e20, 2 ** 31, -2 ** 31 - 1, 2 ** 53 + 1, 2 ** 63, -2 ** 63, 2 ** 64, 10 ** 30,
                123456789.123, 1e15, -1e15, 4096, 65535, 3.5]
STRINGS = ["", " ", "b0", "b1", "s1", "../x", "a/b", "\u0000", "\u202e\u00e9\U0001F600", "x" * 5000,
           "é" * 300, "Text", "Container", "Image", "handwriting", "digitalEdit", "digitalPublish",
           "underline", "surround", "images/x.png", "#ff0000", "not a colour", "\ud7ff"]
INT_COORDS = [0, 1, -1, I32, -I32 - 1, I32 // 2, -(I32 // 2), 1 << 24, -(1 << 24), 100000, 3]
INT_TIMES = [0, -1, I64, -I64 - 1, I32, -I32 - 1, 1 << 40, -(1 << 40), 1_700_000_000_000]

def rnum(r):
    return r.choice(HUGE_NUMBERS)

def rstr(r):
    return r.choice(STRINGS)

# ----------------------------------------------------------------------------- JSON mutation

def _nodes(v, path=()):
    """Every (path, value) in a JSON tree."""
    yield path, v
    if isinstance(v, dict):
        for k, c in v.items():
            yield from _nodes(c, path + (k,))
    elif isinstance(v, list):
        for i, c in enumerate(v):
            yield from _nodes(c, path + (i,))

def _get(root, path):
    for p in path:
        root = root[p]
    return root

def _set(root, path, value):
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root

def mutate_json_value(r, root):
    nodes = list(_nodes(root))
    path, v = r.choice(nodes)
    kind = r.randrange(10)
    if isinstance(v, bool) or v is None:
        new = r.choice([True, False, None, 0, "", [], {}])
    elif isinstance(v, (int, float)) and kind < 7:
        new = rnum(r)
    elif isinstance(v, str) and kind < 7:
        new = rstr(r)
    elif isinstance(v, list) and kind < 6:
        op = r.randrange(5)
        if op == 0:
            new = []
        elif op == 1:
            new = [v, v] if not v else v + v  # duplicates (ids, children, words)
        elif op == 2:
            new = [v]  # nested
        elif op == 3:
            new = list(reversed(v))
        else:
            new = v * 50 if len(v) < 20 else v
    elif isinstance(v, dict) and kind < 6 and v:
        new = dict(v)
        k = r.choice(list(new))
        if r.random() < 0.6:
            del new[k]
        else:
            new[k] = r.choice([rnum(r), rstr(r), [], {}, None, True])
    else:  # type swap
        new = r.choice([rnum(r), rstr(r), [], {}, None, [rnum(r)], {"x": rnum(r)}])
    return _set(root, path, new)

def _blocks_ids(blocks):
    return [b.get("id") for b in blocks if isinstance(b, dict)]

def mutate_blocks(r, blocks, stroke_ids):
    """Structural mutations that a generic JSON mutator rarely finds."""
    if not isinstance(blocks, list) or not blocks:
        return blocks
    bs = [b for b in blocks if isinstance(b, dict)]
    if not bs:
        return blocks
    b = r.choice(bs)
    ids = _blocks_ids(bs)
    op = r.randrange(16)
    if op == 0 and "box" in b:  # huge / negative / degenerate box
        b["box"] = {k: rnum(r) for k in ("x", "y", "width", "height")}
    elif op == 1 and "box" in b:
        b["box"][r.choice(["x", "y", "width", "height"])] = r.choice([1e308, -1e308, 1e20, -5, 0, 2 ** 63])
    elif op == 2 and len(bs) >= 2:  # parent/child cycle between two blocks that point back
        a, c = r.sample(bs, 2)
        a["parentId"], c["parentId"] = c["id"], a["id"]
        a.setdefault("childIds", []).append(c["id"]); c.setdefault("childIds", []).append(a["id"])
        for o in bs:
            if o is not a and a["id"] in o.get("childIds", []) and o is not c:
                o["childIds"].remove(a["id"])
            if o is not c and c["id"] in o.get("childIds", []) and o is not a:
                o["childIds"].remove(c["id"])
    elif op == 3:  # self-parent
        b["parentId"] = b["id"]; b.setdefault("childIds", []).append(b["id"])
    elif op == 4:  # dangling parent / root with a parent
        b["parentId"] = r.choice(["nope", b["id"]] + ids)
    elif op == 5 and len(bs) >= 2:  # duplicate a block under a new parent, or change its type
        c = r.choice(bs)
        c["type"] = r.choice(["Text", "Math", "Diagram", "Drawing", "Raw Content", "Image", "Container"])
    elif op == 6:  # words with impossible values
        w = {"label": rstr(r), "candidates": [{"label": rstr(r), "score": rnum(r)} for _ in range(r.randrange(3))],
             "selected": r.choice([0, -1, 5, 2 ** 62, -2 ** 62]), "box": {k: rnum(r) for k in ("x", "y", "width", "height")},
             "line": r.choice([0, -1, 2 ** 62, -2 ** 62, 1000000]),
             "strokeIds": r.sample(stroke_ids, min(len(stroke_ids), r.randrange(4))) + r.choice([[], ["nope"], ["s1", "s1"]]),
             "chars": [{"label": rstr(r), "box": {k: rnum(r) for k in ("x", "y", "width", "height")}, "strokeIds": []}
                       for _ in range(r.randrange(4))],
             "styles": r.choice([[], ["underline"], ["surround", "underline", "bogus"]])}
        b.setdefault("words", []).insert(r.randrange(len(b.get("words", [])) + 1), w)
    elif op == 7 and b.get("words"):  # word/char ranges out of bounds
        w = r.choice(b["words"])
        w["selected"] = r.choice([-1, len(w.get("candidates", [])), 2 ** 62])
        if r.random() < 0.5:
            w["candidates"] = []
    elif op == 8:  # text of extreme length/content
        b["text"] = r.choice(["", "x" * 200000, "word " * 20000, "\n" * 5000, "\u0301" * 1000, "a\u0000b",
                              " ".join(["w"] * 3000)])
        b["conversion"] = r.choice(["digitalEdit", "digitalPublish", "handwriting", "bogus"])
    elif op == 9:  # image block with impossible sizes
        b["type"] = "Image"
        b["image"] = {"entry": r.choice(["images/a.png", "images/missing.png", "images/", "x.png"]),
                      "mimeType": r.choice(["image/png", "image/jpeg", "text/plain", ""]),
                      "pixelWidth": r.choice([0, -1, 1, 2 ** 31, 2 ** 62, 100000]),
                      "pixelHeight": r.choice([0, -1, 1, 2 ** 31, 2 ** 62, 100000])}
    elif op == 10:  # many children
        root = bs[0]
        for i in range(r.choice([50, 500, 3000])):
            nid = f"z{i}"
            root.setdefault("childIds", []).append(nid)
            blocks.append({"id": nid, "type": "Text", "box": {"x": 10, "y": 10 + i * r.choice([0, 1e-9, 20, 1e300]),
                           "width": r.choice([0, 190, 1e-300, 1e300]), "height": 20}, "parentId": root["id"],
                           "childIds": [], "conversion": "handwriting", "words": [], "properties": {}})
    elif op == 11:  # deep nesting
        parent = b
        for i in range(r.choice([10, 100, 2000])):
            nid = f"d{i}"
            parent.setdefault("childIds", []).append(nid)
            nb = {"id": nid, "type": r.choice(["Text", "Container", "Drawing"]),
                  "box": {"x": 0, "y": 0, "width": 100, "height": 10}, "parentId": parent["id"],
                  "childIds": [], "conversion": "handwriting", "words": [], "properties": {}}
            blocks.append(nb)
            parent = nb
    elif op == 12:  # drop a block (its strokes dangle, its parent's child list dangles)
        blocks.remove(b)
    elif op == 13:  # properties
        b["properties"] = {rstr(r)[:50]: rstr(r) for _ in range(3)}
    elif op == 14 and len(bs) >= 2:  # orphan subtree: unreachable from root, pointing back correctly
        a, c = r.sample(bs, 2)
        for o in bs:
            if c["id"] in o.get("childIds", []):
                o["childIds"].remove(c["id"])
        c["parentId"] = a["id"]; a.setdefault("childIds", []).append(c["id"])
    else:  # swap the whole list order (root no longer first)
        r.shuffle(blocks)
    return blocks

# ----------------------------------------------------------------------------- strokes mutation

def mutate_strokes(r, strokes, block_ids):
    if not strokes or r.random() < 0.1:
        strokes.append({"id": f"s{r.randrange(10 ** 6)}", "ptype": 0, "pid": 0, "tool": "pen", "color": "#000000",
                        "width": 0.0, "block": r.choice(block_ids + [""]), "seq": 1, "start": 1_700_000_000_000,
                        "xs": [1000, 1200], "ys": [1000, 1100], "ts": [0, 10], "ps": [2000, 2000]})
    for _ in range(r.randrange(1, 4)):
        s = r.choice(strokes)
        op = r.randrange(16)
        n = len(s["xs"])
        if op == 0 and n:  # extreme coordinates (a spread of them)
            ch = r.choice(["xs", "ys"])
            for i in r.sample(range(n), r.randrange(1, n + 1)):
                s[ch][i] = r.choice(INT_COORDS)
        elif op == 1 and n:  # all points at one extreme
            v = r.choice(INT_COORDS)
            s[r.choice(["xs", "ys"])] = [v] * n
        elif op == 2:  # times
            s["start"] = r.choice(INT_TIMES)
            if n:
                s["ts"] = [r.choice([0, I32, -I32 - 1, -1, 5]) if r.random() < 0.3 else t for t in s["ts"]]
        elif op == 3:
            s["seq"] = r.choice([0, -1, I64, -I64 - 1, 1, s["seq"]])
        elif op == 4 and n:  # pressures at the limits (4095 is valid)
            s["ps"] = [r.choice([0, 4095, 1, 2048]) for _ in range(n)]
        elif op == 5:
            s["width"] = r.choice([0.0, 1e-45, 3.4e38, 1e30, 1e10, 0.01, 1000.0, -0.0])
        elif op == 6:
            s["ptype"] = r.choice([0, 1, 2, 3, 4, 4])
            s["custom"] = r.choice([0, -1, I64, -I64 - 1, I32])
            s["pid"] = r.choice([0, -1, I64, -I64 - 1])
        elif op == 7:
            s["tool"] = r.choice(["", "pen", "highlighter", "eraser", "x" * 3000, "\U0001F600"])
            s["color"] = r.choice(["", "#", "#ff", "#ffffffffff", "#GGGGGG", "red", "#00000000", "x" * 3000])
        elif op == 8:  # move to another block (root, image, dangling handled by decoder)
            s["block"] = r.choice(block_ids + [""])
        elif op == 9:  # zero or one point
            k = r.choice([0, 1])
            for ch in ("xs", "ys", "ts", "ps"):
                s[ch] = s[ch][:k]
        elif op == 10 and n:  # many points at one place / long zigzag
            m = r.choice([1000, 20000, 200000])
            x0, y0 = s["xs"][0], s["ys"][0]
            amp = r.choice([0, 1, 100000, I32 // 2])
            s["xs"] = [max(-I32 - 1, min(I32, x0 + (amp if i % 2 else -amp))) for i in range(m)]
            s["ys"] = [y0] * m
            s["ts"] = list(range(m)); s["ps"] = [2000] * m
        elif op == 11:  # duplicate a stroke (same seq, new id)
            t = json.loads(json.dumps(s)); t["id"] = s["id"] + "d"
            strokes.append(t)
        elif op == 12:  # id strings
            s["id"] = r.choice(["s1", "x" * 3000, "\U0001F600", "b0", " "])
        elif op == 13 and n:  # non-monotonic / decreasing times
            s["ts"] = [r.randrange(-10 ** 6, 10 ** 6) for _ in range(n)]
        elif op == 14:  # many strokes
            for i in range(r.choice([100, 2000])):
                t = json.loads(json.dumps(s)); t["id"] = f"m{i}"; t["seq"] = r.choice([s["seq"], i, I64 - i])
                strokes.append(t)
        else:  # coordinates spanning the full Int32 range within one stroke
            if n >= 2:
                s["xs"][0], s["xs"][-1] = -I32 - 1, I32
    return strokes

# ----------------------------------------------------------------------------- case generation

PNG_1x1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")

def read_entries(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]

def write_zip(entries, compress=True):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for name, data in entries:
            zi = zipfile.ZipInfo(name, date_time=(2023, 11, 14, 22, 13, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
            z.writestr(zi, data)
    return buf.getvalue()

def mutate_zip(r, data):
    op = r.randrange(6)
    b = bytearray(data)
    if op == 0:  # truncate
        return bytes(b[:r.randrange(4, len(b))])
    if op == 1:  # flip bytes anywhere
        for _ in range(r.randrange(1, 8)):
            i = r.randrange(len(b)); b[i] ^= 1 << r.randrange(8)
        return bytes(b)
    if op == 2:  # lie about sizes in the central directory
        i = b.rfind(b"PK\x01\x02")
        if i >= 0:
            b[i + 24:i + 28] = struct.pack("<I", r.choice([0, 1, 0xFFFFFFFF, 0x7FFFFFFF]))
        return bytes(b)
    if op == 3:  # entry count in the end record
        i = b.rfind(b"PK\x05\x06")
        if i >= 0:
            b[i + 8:i + 12] = struct.pack("<HH", *([r.choice([0, 1, 0xFFFF])] * 2))
        return bytes(b)
    if op == 4:  # garbage appended / prepended after the signature
        return bytes(b) + os.urandom(0) + bytes(r.randrange(256) for _ in range(r.randrange(1, 200)))
    i = b.find(b"PK\x01\x02")  # central directory offset pointing elsewhere
    j = b.rfind(b"PK\x05\x06")
    if j >= 0:
        b[j + 16:j + 20] = struct.pack("<I", r.choice([0, i + 1 if i >= 0 else 0, len(b), 0xFFFFFFFF]))
    return bytes(b)

def make_case(r, seed_entries):
    entries = [list(e) for e in seed_entries]
    names = [e[0] for e in entries]
    part_dirs = sorted({n[:n.index("/", 6) + 1] for n in names if n.startswith("parts/") and n.count("/") >= 2})
    stroke_ids, block_ids = [], []
    for name, data in entries:
        if name.endswith("strokes.bin"):
            try:
                stroke_ids += [s["id"] for s in decode_strokes(data)]
            except Exception:
                pass
        if name.endswith("blocks.json"):
            try:
                block_ids += _blocks_ids(json.loads(data))
            except Exception:
                pass
    desc = []
    for _ in range(r.choice([1, 1, 1, 2, 3])):
        target = r.choices(["manifest", "metadata", "part", "blocks", "blocks-struct", "strokes", "image", "entries"],
                           weights=[2, 1, 2, 3, 6, 7, 1, 1])[0]
        desc.append(target)
        if target == "image" and part_dirs:  # an Image block with real or bogus bytes
            d = r.choice(part_dirs)
            for e in entries:
                if e[0] == d + "blocks.json":
                    bl = json.loads(e[1])
                    if not isinstance(bl, list) or not bl or not isinstance(bl[0], dict):
                        continue  # blocks.json already mutated out of shape
                    root = bl[0]
                    bl.append({"id": "img1", "type": "Image", "box": {"x": rnum(r), "y": 10, "width": rnum(r), "height": rnum(r)},
                               "parentId": root["id"], "childIds": [], "conversion": "handwriting", "words": [], "properties": {},
                               "image": {"entry": "images/a.png", "mimeType": r.choice(["image/png", "image/jpeg"]),
                                         "pixelWidth": r.choice([1, 0, -5, 2 ** 40]), "pixelHeight": r.choice([1, 0, 2 ** 40])}})
                    root.setdefault("childIds", []).append("img1")
                    e[1] = json.dumps(bl).encode()
            img = r.choice([PNG_1x1, PNG_1x1[:40], b"", b"\xff\xd8\xff" + bytes(100), PNG_1x1[:16] + struct.pack(">II", 2 ** 31 - 1, 2 ** 31 - 1) + PNG_1x1[24:]])
            entries.append([d + "images/a.png", img])
            continue
        if target == "entries":
            op = r.randrange(4)
            if op == 0 and len(entries) > 1:
                entries.pop(r.randrange(len(entries)))
            elif op == 1:
                entries.append([r.choice(["parts/", "x/../y", "extra.bin", "parts/zz/part.json", "/abs"]), b"junk"])
            elif op == 2:
                entries.append(list(r.choice(entries)))  # duplicate name
            else:
                r.shuffle(entries)
            continue
        pat = {"manifest": "manifest.json", "metadata": "metadata.json", "part": "part.json",
               "blocks": "blocks.json", "blocks-struct": "blocks.json", "strokes": "strokes.bin"}[target]
        cands = [e for e in entries if e[0].endswith(pat)]
        if not cands:
            continue
        e = r.choice(cands)
        if target == "strokes":
            if r.random() < 0.08:  # raw byte damage / bogus counts
                b = bytearray(e[1])
                if b and r.random() < 0.5:
                    for _ in range(r.randrange(1, 5)):
                        i = r.randrange(len(b)); b[i] = r.randrange(256)
                else:
                    b = bytearray(encode_strokes([], count=r.choice([1, 2 ** 32, 2 ** 63])))
                e[1] = bytes(b)
            else:
                try:
                    e[1] = encode_strokes(mutate_strokes(r, decode_strokes(e[1]), block_ids))
                except (IndexError, AssertionError, struct.error):
                    pass  # damaged by an earlier mutation of this case: leave it damaged
            continue
        try:
            v = json.loads(e[1])
        except Exception:
            continue
        if target == "blocks-struct":
            v = mutate_blocks(r, v, stroke_ids)
        else:
            for _ in range(r.randrange(1, 4)):
                v = mutate_json_value(r, v)
        e[1] = json.dumps(v, ensure_ascii=r.random() < 0.5).encode()
    data = write_zip([tuple(e) for e in entries], compress=r.random() < 0.8)
    if r.random() < 0.04:
        data = mutate_zip(r, data); desc.append("zip")
    return data, "+".join(desc)

# ----------------------------------------------------------------------------- running

def run_case(args, i, seeds):
    r = random.Random(f"{args.seed}:{i}")
    seed_name = r.choice(sorted(seeds))
    try:
        data, desc = make_case(r, seeds[seed_name])
    except Exception as e:  # a mutation that does not apply to what earlier ones left: skip the case
        return i, seed_name, f"generator failed: {type(e).__name__}", "skipped"
    work = os.path.join(args.out, "work", str(i))
    os.makedirs(work, exist_ok=True)
    pkg = os.path.join(work, "case.iink")
    with open(pkg, "wb") as f:
        f.write(data)
    q = args.quire
    commands = [["info", pkg], ["info", pkg, "--json"]]
    findings = []
    opened = None

    def go(cmd, name):
        try:
            p = subprocess.run([q] + cmd, capture_output=True, timeout=args.timeout,
                               env=dict(os.environ, **DETERMINISTIC_ENV, HOME=work, XDG_DATA_HOME=work, XDG_CONFIG_HOME=work))
            rc, out = p.returncode, (p.stdout[-4000:] + p.stderr[-8000:]).decode("utf-8", "replace")
        except subprocess.TimeoutExpired as t:
            rc, out = None, ((t.stdout or b"")[-2000:] + (t.stderr or b"")[-2000:]).decode("utf-8", "replace")
        kind = classify(rc, out)
        if kind:
            findings.append((kind, name, cmd, rc, out))
        return rc, out

    rc, _ = go(commands[0], "info")
    opened = rc == 0
    if opened:
        go(commands[1], "info-json")
        for fmt in ("png", "svg", "pdf", "text", "json", "inkml"):
            go(["export", pkg, "--format", fmt, "-o", os.path.join(work, "out." + fmt)], "export-" + fmt)
        go(["recognize", pkg], "recognize")
        conv = os.path.join(work, "conv.iink")
        shutil.copyfile(pkg, conv)
        crc, cout = go(["convert", conv, "--to", r.choice(["edit", "publish"])], "convert")
        if crc == 0:  # what convert saved must open again
            rc2, out2 = go(["info", conv], "reopen-converted")
            if rc2 != 0 and not any(f[1] == "reopen-converted" for f in findings):
                findings.append(("lost-data", "reopen-converted", ["info", conv], rc2, out2))
    status = ",".join(sorted({f"{f[0]}:{f[1]}@{signature(f[4])}" for f in findings})) or ("ok" if opened else "refused")
    for kind, name, cmd, rc, out in findings:
        d = os.path.join(args.out, "findings", f"{kind}-{name}-{i}")
        os.makedirs(d, exist_ok=True)
        shutil.copyfile(pkg, os.path.join(d, "case.iink"))
        with open(os.path.join(d, "report.txt"), "w") as f:
            f.write(f"seed={args.seed} case={i} from={seed_name} mutation={desc}\ncmd=quire {' '.join(cmd)}\nrc={rc}\n\n{out}\n")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return i, seed_name, desc, status

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seeds", nargs="+", help="valid packages to mutate")
    ap.add_argument("--quire", default=".build/release/quire")
    ap.add_argument("--out", default="/tmp/quire-fuzz")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--only", type=int, action="append", help="run just these case numbers")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--keep", action="store_true", help="keep every case's work folder")
    args = ap.parse_args()
    args.quire = os.path.abspath(args.quire)
    seeds = {os.path.basename(s): read_entries(s) for s in args.seeds}
    os.makedirs(args.out, exist_ok=True)
    todo = args.only or range(args.start, args.start + args.cases)
    counts = {}
    with open(os.path.join(args.out, "log.tsv"), "a") as log, ThreadPoolExecutor(args.jobs) as pool:
        for i, seed_name, desc, status in pool.map(lambda i: run_case(args, i, seeds), todo):
            log.write(f"{args.seed}\t{i}\t{seed_name}\t{desc}\t{status}\n"); log.flush()
            key = status if status in ("ok", "refused", "skipped") else "FINDING"
            counts[key] = counts.get(key, 0) + 1
            if key == "FINDING":
                print(f"case {i} ({seed_name}, {desc}): {status}", flush=True)
    print(json.dumps(counts))

if __name__ == "__main__":
    main()
