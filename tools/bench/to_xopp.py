#!/usr/bin/env python3
"""Writes the strokes of a `quire export --format json` file as a Xournal++ document (.xopp),
so that both programs can export the same ink (tools/bench/xournalpp-compare.sh)."""
import gzip, json, sys

PT_PER_MM = 72 / 25.4


def strokes(node):
    for s in node.get("strokes", []):
        yield s
    for c in node.get("children", []):
        yield from strokes(c)


def main(src, dst, pen_mm=0.5):
    doc = json.load(open(src))
    all_strokes = list(strokes(doc))
    max_x = max((max(s["x"]) for s in all_strokes if s["x"]), default=100)
    max_y = max((max(s["y"]) for s in all_strokes if s["y"]), default=100)
    w, h = (max_x + 10) * PT_PER_MM, (max_y + 10) * PT_PER_MM
    out = ['<?xml version="1.0" standalone="no"?>', '<xournal creator="quire-bench" fileversion="4">',
           f'<page width="{w:.2f}" height="{h:.2f}"><background type="solid" color="#ffffffff" style="plain"/><layer>']
    for s in all_strokes:
        if len(s["x"]) < 2:
            continue
        widths = " ".join(f"{pen_mm * PT_PER_MM * (0.5 + f):.3f}" for f in s["f"])
        coords = " ".join(f"{x * PT_PER_MM:.2f} {y * PT_PER_MM:.2f}" for x, y in zip(s["x"], s["y"]))
        out.append(f'<stroke tool="pen" color="#1a1a2eff" width="{widths}">{coords}</stroke>')
    out.append("</layer></page></xournal>")
    with gzip.open(dst, "wt") as f:
        f.write("\n".join(out))
    print(f"{len(all_strokes)} strokes, page {w / PT_PER_MM:.0f} x {h / PT_PER_MM:.0f} mm -> {dst}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
