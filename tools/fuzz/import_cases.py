"""How fuzz_import.py makes its cases: real handwriting as seeds (JSON lines spread over the shared
data files; InkML that `quire export` wrote from packages of it), and the structure-aware and byte
mutations of JSON lines and InkML. Every function takes the case's random.Random, so a case is the
same on every run.
"""

import gzip
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_DATA = os.environ.get("QUIRE_DATA", os.path.join(REPO, "..", "shared", "data"))

EXTREME = [0, -0.0, -1, 1, 0.5, 1e-320, 5e-324, 1e308, -1e308, 1.7976931348623157e308, 1e20, -1e20,
           2 ** 31, -2 ** 31 - 1, 2 ** 53 + 1, 2 ** 63, -2 ** 63, 2 ** 64, 10 ** 30, 1e7, -1e7, 3e6, 1e9,
           123456.789, 4096, 65535, 1e15, 9.3e18, -9.3e18, 1e19]
TIMES = [0, -1, -5, 1, 2 ** 31, 2 ** 32 + 7, 2 ** 53, 2 ** 63 - 1, 2 ** 63, -2 ** 63, 9.3e18, 1e19, -1e19,
         1e300, -1e300, 0.5, 1.7e12, 17e11 + 0.25]
ODD_STRINGS = ["", " ", "\u0000", "a\u0000b", "\u202e\u00e9\U0001F600", "x" * 20000, "\n", "a\nb",
               "\ud7ff", "<&>\"'", "]]>", "\u0301" * 200, "8", "1a", "lines"]


# ----------------------------------------------------------------------------- seeds

def read_jsonl_seeds(data_dir, cache, per_file=120):
    """Lines spread over every file of the data folder (and the test fixture); cached in OUT/seeds."""
    path = os.path.join(cache, "jsonl-seeds.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    seeds = []
    files = sorted(f for f in os.listdir(data_dir) if f.endswith(".jsonl.gz")) if os.path.isdir(data_dir) else []
    for name in files:
        full = os.path.join(data_dir, name)
        step = max(1, os.path.getsize(full) // 40000)  # about 200 lines a file, spread over it
        with gzip.open(full, "rt", encoding="utf-8") as f:
            picked = [json.loads(ln) for n, ln in enumerate(f) if n % step == 0 and ln.strip()]
        seeds += picked[:per_file]
    fixture = os.path.join(REPO, "Tests", "QuireTests", "Fixtures", "handwriting.jsonl")
    if os.path.exists(fixture):
        with open(fixture, encoding="utf-8") as f:
            seeds += [json.loads(ln) for ln in f if ln.strip()]
    if not seeds:
        sys.exit(f"no handwriting found in {data_dir} (set --data)")
    os.makedirs(cache, exist_ok=True)
    with open(path, "w") as f:
        json.dump(seeds, f)
    return seeds


def parse_inkml_traces(text):
    """Traces of Quire's own InkML export: [(type, brush, [[x, y, t, f], ...])]."""
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2003/InkML}"
    out = []
    for tr in ET.fromstring(text).iter(ns + "trace"):
        pts = [[float(v) for v in p.split()] for p in (tr.text or "").split(",") if p.strip()]
        out.append((tr.get("type", "pen"), tr.get("brushRef", "pen"), pts))
    return out


def build_inkml_seeds(args, jsonl_seeds, cache):
    """InkML written by `quire export` from packages of real handwriting (and the welcome sample)."""
    path = os.path.join(cache, "inkml-seeds.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    os.makedirs(cache, exist_ok=True)
    r = random.Random("inkml-seeds")
    sources = []
    for k in range(12):
        lines = r.sample(jsonl_seeds, r.choice([1, 2, 3, 5]))
        src = os.path.join(cache, f"seed{k}.jsonl")
        with open(src, "w") as f:
            for s in lines:
                f.write(json.dumps(s) + "\n")
        pkg = os.path.join(cache, f"seed{k}.iink")
        if os.path.exists(pkg):
            os.remove(pkg)
        rc, out, _ = fuzzlib.run([args.quire, "import", src, "--out", pkg], 60)
        if rc != 0:
            sys.exit(f"cannot build an InkML seed: {out}")
        sources.append(pkg)
    sources.append(os.path.join(REPO, "Resources", "samples", "welcome.iink"))
    seeds = []
    for pkg in sources:
        out_file = os.path.join(cache, os.path.basename(pkg) + ".inkml")
        rc, out, _ = fuzzlib.run([args.quire, "export", pkg, "--format", "inkml", "-o", out_file], 60)
        if rc != 0:
            sys.exit(f"cannot export an InkML seed from {pkg}: {out}")
        with open(out_file, encoding="utf-8") as f:
            text = f.read()
        seeds.append({"name": os.path.basename(pkg), "text": text, "traces": parse_inkml_traces(text)})
    with open(path, "w") as f:
        json.dump(seeds, f)
    return seeds


# ----------------------------------------------------------------------------- JSON lines

def mutate_sample(r, s):
    """One structure-aware change to a decoded sample."""
    strokes = s.get("strokes") if isinstance(s.get("strokes"), list) else []
    pts = [(si, pi) for si, st in enumerate(strokes) if isinstance(st, list)
           for pi, p in enumerate(st) if isinstance(p, list)]
    op = r.randrange(22)
    if op == 0 and pts:  # extreme coordinates, a few points or all of one stroke
        for si, pi in r.sample(pts, min(len(pts), r.choice([1, 2, 5]))):
            strokes[si][pi][r.randrange(2)] = r.choice(EXTREME)
    elif op == 1 and pts:  # times: huge, negative, fractional, decreasing
        for si, pi in r.sample(pts, min(len(pts), r.choice([1, 3, 50]))):
            p = strokes[si][pi]
            t = r.choice(TIMES)
            if len(p) >= 3:
                p[2] = t
            else:
                p.append(t)
    elif op == 2:
        s["ppi"] = r.choice([None, [0, 0], [-1, -1], [1e-300, 1e-300], [5e-324, 5e-324], [1e300, 1e300], [1], [1, 2, 3],
                             ["a", "b"], "145", {}, [145, 0], [0.001, 0.001], [2540, 2540], [1e-10, 145], True])
    elif op == 3:  # strokes of odd shapes
        s["strokes"] = r.choice([[], [[]], [[[]]], [[[1]]], [[[1, 2, 3, 4, 5]]], [[{"x": 1, "y": 2}]], [5], None, "strokes",
                                 [[[[1, 2]]]], [[[1, None]]], [[[True, False]]], [[["1", "2"]]], {"0": []}, [[[1, 2]], 7]])
    elif op == 4 and 0 < len(strokes) < 50:  # one stroke with very many points (a long line or one place)
        n = r.choice([2000, 50000, 200000])
        kind = r.randrange(3)
        st = [[i * (1 if kind == 0 else 0), (i % 7) if kind < 2 else 1e6 * (i % 2)] for i in range(n)]
        strokes[r.randrange(len(strokes))] = st
    elif op == 5:  # very many strokes
        base = strokes[0][:60] if strokes and isinstance(strokes[0], list) else [[0, 0], [1, 1]]
        s["strokes"] = [base] * r.choice([500, 3000]) if r.random() < 0.5 else [[[i, i]] for i in range(r.choice([500, 5000]))]
    elif op == 6 and strokes:  # single-point and empty strokes
        for i in r.sample(range(len(strokes)), min(len(strokes), 3)):
            strokes[i] = strokes[i][:r.choice([0, 1])] if isinstance(strokes[i], list) else []
    elif op == 7:  # field types swapped or fields removed
        k = r.choice(["id", "label", "cat", "writer", "set", "ppi", "strokes"])
        if r.random() < 0.4:
            s.pop(k, None)
        else:
            s[k] = r.choice([None, 1, -1.5, [], {}, True, ["x"], r.choice(ODD_STRINGS)])
    elif op == 8:
        s[r.choice(["label", "id", "cat", "writer"])] = r.choice(ODD_STRINGS)
    elif op == 9:  # free text: several lines of ink under one label
        s["cat"] = r.choice(["8", "6", "1a", "digit", "", "zz"])
    elif op == 10 and pts:  # all points at one place (zero-size ink)
        v = r.choice([0, 1e6, -1e6, 1e-9])
        for si, pi in pts:
            strokes[si][pi][0] = v
            strokes[si][pi][1] = v
    elif op == 11 and pts:  # negative and tiny coordinates
        for si, pi in pts:
            strokes[si][pi][0] = -strokes[si][pi][0] if isinstance(strokes[si][pi][0], (int, float)) else 0
            strokes[si][pi][1] *= r.choice([1e-12, -1, 1e6]) if isinstance(strokes[si][pi][1], (int, float)) else 1
    elif op == 12 and strokes:  # strokes reversed / duplicated
        s["strokes"] = list(reversed(strokes)) + (strokes if r.random() < 0.5 else [])
    elif op == 13:  # unknown extra fields
        s[r.choice(["extra", "strokes2", "", "\u0000"])] = r.choice([[1, 2], {"a": [1]}, "x" * 1000])
    elif op == 14 and pts:  # float coordinates with many digits, or integer-valued floats
        for si, pi in r.sample(pts, min(len(pts), 20)):
            strokes[si][pi][0] = r.random() * 10 ** r.randrange(-5, 8)
    elif op == 15 and pts:  # points with extra channels
        for si, pi in r.sample(pts, min(len(pts), 10)):
            strokes[si][pi] = strokes[si][pi][:2] + [r.choice(TIMES), 0.5, 7]
    elif op == 16:  # a label of many words (the recognizer gets a line split by the editor's rule)
        s["label"] = " ".join(["word"] * r.choice([10, 200]))
        s["cat"] = "8"
    elif op == 17 and len(strokes) > 1:  # strokes far apart: several lines, or one huge box
        for i in range(1, len(strokes)):
            if isinstance(strokes[i], list):
                dy = r.choice([300, 5000, 1e6])
                strokes[i] = [[p[0], p[1] + dy * i] + p[2:] if isinstance(p, list) and len(p) >= 2
                              and all(isinstance(v, (int, float)) for v in p[:2]) else p for p in strokes[i]]
    elif op == 18 and pts:  # timestamps given on some points only (mixed forms in one sample)
        for si, pi in pts[::2]:
            strokes[si][pi] = strokes[si][pi][:2] + [r.choice([0, 10, 1e12])]
    elif op == 19:  # deep nesting inside a field
        depth = r.choice([100, 600, 5000])
        s[r.choice(["strokes", "extra"])] = f"__DEEP{depth}__"  # spelled out by dump_line
    elif op == 20:
        s["ppi"] = [r.choice(EXTREME), r.choice(EXTREME)]
    else:  # a sample that is just one point
        s["strokes"] = [[[r.choice([0, 5, 1e5]), r.choice([0, 5, 1e5])]]]
    return s


def dump_line(r, s):
    text = json.dumps(s, ensure_ascii=r.random() < 0.5, allow_nan=True)
    for depth in (100, 600, 5000):
        text = text.replace(f'"__DEEP{depth}__"', "[" * depth + "]" * depth)
    if r.random() < 0.03:  # NaN / Infinity tokens: not JSON
        text = text.replace("0.5", "NaN", 1).replace("1e+300", "Infinity")
    return text.encode("utf-8")


def make_jsonl_case(r, seeds):
    samples = [json.loads(json.dumps(x)) for x in r.sample(seeds, r.choice([1, 1, 2, 3, 6]))]
    desc = []
    for _ in range(r.choice([1, 1, 1, 2, 3, 5])):
        i = r.randrange(len(samples))
        if isinstance(samples[i], dict):
            samples[i] = mutate_sample(r, samples[i])
            desc.append("sample")
    lines = [dump_line(r, s) for s in samples]
    while sum(map(len, lines)) > (24 << 20) and len(lines) > 1:  # mutations compound: keep files under ~24 MB
        lines.pop()
    op = r.randrange(20)
    if op == 0:  # not an object
        lines.insert(r.randrange(len(lines) + 1), r.choice([b"[]", b"1", b'"x"', b"null", b"{", b"}", b"{}", b"[[[[", b"\xff\xfe"]))
        desc.append("line")
    elif op == 1:  # truncated line
        k = r.randrange(len(lines))
        lines[k] = lines[k][:r.randrange(len(lines[k]) + 1)]
        desc.append("truncated")
    elif op == 2:  # blank lines, CR LF, a BOM
        lines = [ln + r.choice([b"\r", b"", b" \t"]) for ln in lines]
        lines.insert(r.randrange(len(lines) + 1), r.choice([b"", b"   ", b"\r", b"\t"]))
        if r.random() < 0.5:
            lines[0] = b"\xef\xbb\xbf" + lines[0]
        desc.append("whitespace")
    elif op == 3:  # byte damage
        k = r.randrange(len(lines))
        b = bytearray(lines[k])
        for _ in range(r.randrange(1, 6)):
            if b:
                b[r.randrange(len(b))] = r.randrange(256)
        lines[k] = bytes(b)
        desc.append("bytes")
    elif op == 4:  # duplicate keys (the last one wins in most parsers)
        k = r.randrange(len(lines))
        if lines[k].startswith(b"{"):
            lines[k] = b'{"strokes":[[[1,2]]],"id":"dup",' + lines[k][1:]
            desc.append("dup-key")
    elif op == 5:
        lines = lines * (r.choice([20, 200]) if sum(map(len, lines)) < (64 << 10) else 2)  # many samples (import takes --limit)
        desc.append("many")
    data = b"\n".join(lines) + r.choice([b"\n", b"", b"\n\n"])
    ext = ".jsonl"
    z = r.random()
    if z < 0.12:  # gzip, sometimes damaged, sometimes several members
        gz = gzip.compress(data, mtime=0)
        w = r.randrange(5)
        if w == 1:
            gz = gz[:r.randrange(2, len(gz))]
        elif w == 2:
            gz = gz + gzip.compress(data[: len(data) // 2], mtime=0)
        elif w == 3:
            gz = gz + bytes(r.randrange(256) for _ in range(r.randrange(1, 40)))
        elif w == 4 and r.random() < 0.1:  # inflates to 64 MB of blank lines
            gz = gzip.compress(b"\n" * (64 << 20), compresslevel=1, mtime=0)
        data, ext = gz, ".jsonl.gz"
        desc.append(f"gzip{w}")
    elif z < 0.16:
        ext = ".json"
    return data, ext, "+".join(desc) or "plain"


# ----------------------------------------------------------------------------- InkML

def fmt_num(r, v):
    if isinstance(v, str):
        return v
    if r.random() < 0.05:
        return repr(float(v))
    return ("%.2f" % v) if isinstance(v, float) and abs(v) < 1e15 else str(v)


def render_inkml(r, traces, channels, style):
    """InkML text for traces in a given spelling (default namespace, prefixed, no traceFormat...)."""
    pre = "inkml:" if style.get("prefix") else ""
    xmlns = ' xmlns:inkml="http://www.w3.org/2003/InkML"' if pre else ' xmlns="http://www.w3.org/2003/InkML"'
    out = [style.get("decl", '<?xml version="1.0" encoding="UTF-8"?>'), style.get("doctype", "")]
    out.append(f"<{pre}ink{xmlns}>")
    if channels is not None:
        out.append(f"<{pre}traceFormat>")
        out += [f'<{pre}channel name="{c}" type="decimal"/>' for c in channels]
        out.append(f"</{pre}traceFormat>")
    sep = style.get("sep", ", ")
    for ttype, brush, pts in traces:
        body = sep.join(" ".join(fmt_num(r, v) for v in p) for p in pts)
        if style.get("cdata"):
            body = f"<![CDATA[{body}]]>"
        attrs = ""
        if ttype is not None:
            attrs += f' type="{ttype}"'
        if brush is not None:
            attrs += f' brushRef="{brush}"'
        out.append(f"<{pre}trace{attrs}>{body}</{pre}trace>")
    out.append(style.get("tail", f"</{pre}ink>"))
    return "\n".join(x for x in out if x)


def make_inkml_case(r, seeds):
    seed = r.choice(seeds)
    if r.random() < 0.1:  # Quire's own export as it is, byte-mutated
        b = bytearray(seed["text"].encode())
        op = r.randrange(3)
        if op == 0:
            b = b[:r.randrange(len(b))]
        else:
            for _ in range(r.randrange(1, 10)):
                b[r.randrange(len(b))] = r.choice([0, 0x3C, 0x3E, 0x26, 0x2C, 0x20, r.randrange(256)])
        return bytes(b), f"{seed['name']}:bytes{op}"
    traces = [[t, b, [list(p) for p in pts]] for t, b, pts in seed["traces"]]
    channels = ["X", "Y", "T", "F"]
    style = {}
    desc = [seed["name"]]
    for _ in range(r.choice([1, 1, 2, 3])):
        op = r.randrange(24)
        desc.append(str(op))
        pts_all = [(i, j) for i, tr in enumerate(traces) for j in range(len(tr[2]))]
        if op == 0:  # channels reordered (the values follow)
            perm = channels[:]
            r.shuffle(perm)
            idx = [channels.index(c) for c in perm]
            for tr in traces:
                tr[2] = [[p[k] for k in idx if k < len(p)] for p in tr[2]]
            channels = perm
        elif op == 1:  # channels dropped or missing X/Y, values kept (too many values per point)
            channels = r.choice([["X", "Y"], ["X"], ["Y", "T"], [], ["X", "Y", "T"], ["x", "y"], ["X", "X", "Y", "Y"]])
        elif op == 2:
            channels = None  # no traceFormat: X Y assumed
            for tr in traces:
                tr[2] = [p[:2] for p in tr[2]]
        elif op == 3 and pts_all:  # extreme values in a channel
            k = r.randrange(len(channels)) if channels else 0
            for i, j in r.sample(pts_all, min(len(pts_all), r.choice([1, 3, 40]))):
                if k < len(traces[i][2][j]):
                    traces[i][2][j][k] = r.choice(EXTREME + TIMES)
        elif op == 4 and pts_all:  # number spellings
            for i, j in r.sample(pts_all, min(len(pts_all), 3)):
                p = traces[i][2][j]
                p[r.randrange(len(p))] = r.choice(["nan", "inf", "-inf", "1e400", "-0", "0x1p3", "+5", ".5", "5.", "1e-400",
                                                    "", "1_0", "\u0661", "&#x31;", "1e19", "9223372036854775808", "- 1"])
        elif op == 5 and traces:  # points with fewer values than channels
            tr = r.choice(traces)
            if tr[2]:
                tr[2][r.randrange(len(tr[2]))] = tr[2][0][:1]
        elif op == 6:
            style["sep"] = r.choice([",", " ,\n", ",,", ",\t", "\n", ", ,", ",\r\n"])
        elif op == 7:
            style["prefix"] = True
        elif op == 8:
            style["cdata"] = True
        elif op == 9 and traces:  # trace types and brushes
            tr = r.choice(traces)
            tr[0] = r.choice(["eraser", "touch", "mouse", "custom", "x" * 3000, "", None, "custom:-1", "pen"])
            tr[1] = r.choice(["", None, "highlighter", "eraser", "x" * 5000, "&amp;", "\U0001F600"])
        elif op == 10 and traces:  # a trace with very many points
            tr = r.choice(traces)
            n = r.choice([5000, 100000])
            w = len(tr[2][0]) if tr[2] else 2
            tr[2] = [[float(i % 300), float(i % 17)] + [1.7e12 + i, 0.5][:max(0, w - 2)] for i in range(n)]
        elif op == 11:  # very many traces
            k = r.choice([500, 4000])
            w = len(channels) if channels else 2
            traces = [["pen", "pen", [[float(i % 190), float(i // 190 * 3)] + [1.7e12 + i, 0.5][:max(0, w - 2)]]] for i in range(k)]
        elif op == 12 and traces:  # empty traces and one-point traces
            for tr in r.sample(traces, min(3, len(traces))):
                tr[2] = tr[2][:r.choice([0, 1])]
        elif op == 13:  # internal entities: a small expansion, or an exponential one
            if r.random() < 0.5:
                style["doctype"] = '<!DOCTYPE ink [<!ENTITY n "1.0">]>'
                for tr in traces[:1]:
                    if tr[2]:
                        tr[2][0][0] = "&n;"
            else:
                ents = ['<!ENTITY a0 "1.5 ">'] + [f'<!ENTITY a{i} "{("&a%d;" % (i - 1)) * 10}">' for i in range(1, 9)]
                style["doctype"] = "<!DOCTYPE ink [" + "".join(ents) + "]>"
                if traces and traces[0][2]:
                    traces[0][2][0] = ["&a8;"]
        elif op == 14:  # external entities: must not be fetched (or hang on /dev/zero)
            target = r.choice(["file:///dev/zero", "file:///etc/passwd", "/dev/urandom", "http://127.0.0.1:9/x", "nonexistent.xml"])
            style["doctype"] = f'<!DOCTYPE ink [<!ENTITY e SYSTEM "{target}">]>'
            if traces and traces[0][2]:
                traces[0][2][0][0] = "&e;"
        elif op == 15:  # declarations: other encodings, none, bogus
            style["decl"] = r.choice(["", '<?xml version="1.1"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>',
                                      '<?xml version="1.0" encoding="bogus-enc"?>', '<?xml version="2.0"?>', "\ufeff"])
        elif op == 16:  # the document truncated or with junk after the root
            style["tail"] = r.choice(["", "</ink><ink>", "</ink>\n<!-- -->", "</ink>junk", "</trace></ink>"])
        elif op == 17 and traces:  # deep traceGroup nesting around the traces
            depth = r.choice([50, 1000, 20000])
            style["doctype"] = style.get("doctype", "")
            pts = traces[0][2]
            body = ", ".join(" ".join(fmt_num(r, v) for v in p) for p in pts)
            nest = "<traceGroup>" * depth + f"<trace>{body}</trace>" + "</traceGroup>" * depth
            traces = traces[1:]
            style["extra"] = nest
        elif op == 18 and len(traces) >= 2:  # a trace inside a trace
            style["nested"] = True
        elif op == 19 and pts_all:  # comments and processing instructions inside trace text
            i, j = r.choice(pts_all)
            traces[i][2][j] = [str(traces[i][2][j][0]) + "<!-- c -->"] + traces[i][2][j][1:]
        elif op == 20 and traces:  # coordinates far apart within one trace (huge boxes)
            tr = r.choice(traces)
            if tr[2] and len(tr[2][0]) >= 2:
                tr[2].append([r.choice([1e6, 2.6e6, -1e6, 5e8]), r.choice([1e6, 2.6e6, 5e8])] + tr[2][0][2:])
        elif op == 21 and pts_all:  # times going backwards, or all equal
            v = r.choice([0, 1.7e12, -3])
            for i, j in pts_all:
                p = traces[i][2][j]
                if len(p) >= 3 and channels and "T" in channels:
                    p[channels.index("T")] = v if r.random() < 0.5 else 1.7e12 - j * 1000
        elif op == 22:  # a foreign root element, or no ink
            style["tail"] = "</ink>"
            style["decl"] = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>' if r.random() < 0.3 else style.get("decl", "")
        else:  # duplicated traceFormats (the last one counts), or a traceFormat after the traces
            style["late-format"] = True
    text = render_inkml(r, traces, channels, style)
    if style.get("extra"):
        text = text.replace("</ink>", style["extra"] + "</ink>", 1) if "</ink>" in text else text + style["extra"]
    if style.get("nested"):
        text = text.replace("</trace>", "", 1).replace("</trace>", "</trace></trace>", 1)
    if style.get("late-format"):
        text = text.replace("</ink>", '<traceFormat><channel name="Y"/><channel name="X"/></traceFormat></ink>', 1)
    data = text.encode("utf-8")
    if r.random() < 0.04:  # UTF-16 with a BOM and a matching declaration
        data = text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
        desc.append("utf16")
    return data, "+".join(desc)


# ----------------------------------------------------------------------------- running
