#!/usr/bin/env python3
"""Mutation fuzzer for the ink Quire imports: InkML and JSON lines (the shared handwriting format).

Starts from real ink: lines of the JSON-lines files in the shared data folder, and InkML that
`quire export --format inkml` wrote from packages built of that handwriting (plus the same traces in
other valid InkML spellings: channel orders, namespace prefixes, CDATA, whitespace). Each case
mutates one or a few of them, structure-aware (values, channels, points, strokes, fields, nesting,
entities, encodings) or at the byte level. Every case then runs in process (`quire-fuzz import`,
batches of --batch files): parsed and imported as `quire import` does, saved, reopened (it must
open again with the same model), consistent, its InkML export read back with a trace per stroke,
text and JSON exported, sometimes recognized; JSON lines also as `quire recognize --jsonl` reads
and recognizes them. A share of the cases (--cli-share) also goes through the CLI itself:

    inkml:  quire import CASE.inkml --out P.iink; when it succeeds, quire info P (it must open
            again), quire export P --format inkml, re-import that (stroke counts must match),
            and sometimes quire export P --format text (recognition) or png
    jsonl:  the same with CASE.jsonl[.gz], and quire recognize --jsonl CASE [--json] (every
            --json line must be a JSON object)

Findings: crashes (signals, "Fatal error"), hangs (timeouts), violated invariants, odd exit codes,
a package that import wrote but that does not open (lost-data), a round trip that loses strokes,
--json lines that are not objects. They go to OUT/findings/<kind>-<where>-<case>/ with the input
and the command; a line per case to OUT/log.tsv. Case i uses random.Random(f"{seed}:{i}"):
`--only i` replays it (in process and through the CLI).

    python3 tools/fuzz/fuzz_import.py --kind inkml --seed 1 --cases 10000
"""

import argparse
import json
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from import_cases import (DEFAULT_DATA, REPO, build_inkml_seeds, make_inkml_case,  # noqa: E402
                          make_jsonl_case, read_jsonl_seeds)

def counts_of(info_stdout):
    try:
        j = json.loads(info_stdout)
        p = j["parts"][0]
        return p["strokes"], p["points"]
    except Exception:
        return None


def make_case(args, i, seeds):
    r = random.Random(f"{args.seed}:{i}")
    if args.kind == "jsonl":
        data, ext, desc = make_jsonl_case(r, seeds)
    else:
        data, desc = make_inkml_case(r, seeds)
        ext = ".inkml"
    return data, ext, desc


def run_cli(args, i, src, desc):
    """The case through the `quire` CLI; returns a status for the log."""
    r = random.Random(f"cli:{args.seed}:{i}")
    ext = src[src.index(".", len(os.path.dirname(src)) + 1):]
    work = os.path.join(args.out, "work", str(i))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    q = args.quire
    findings = []
    env = {"HOME": work, "XDG_DATA_HOME": work, "XDG_CONFIG_HOME": work, "XDG_STATE_HOME": work}

    def go(cmd, name, timeout=None):
        rc, out, stdout = fuzzlib.run([q] + cmd, timeout or args.timeout, extra_env=env)
        kind = fuzzlib.classify(rc, out)
        if kind:
            findings.append((kind, name, cmd, rc, out))
        return rc, out, stdout

    pkg = os.path.join(work, "p.iink")
    rc, _, _ = go(["import", src, "--out", pkg], "import")
    imported = rc == 0
    if imported:
        rc2, out2, info = go(["info", pkg, "--json"], "reopen-imported")
        if rc2 == 2:
            findings.append(("lost-data", "reopen-imported", ["info", pkg, "--json"], rc2, out2))
        first = counts_of(info) if rc2 == 0 else None
        re_inkml = os.path.join(work, "re.inkml")
        rc3, _, _ = go(["export", pkg, "--format", "inkml", "-o", re_inkml], "export-inkml")
        if rc3 == 0:
            pkg2 = os.path.join(work, "p2.iink")
            rc4, out4, _ = go(["import", re_inkml, "--out", pkg2], "reimport")
            if rc4 == 2:
                findings.append(("roundtrip", "reimport", ["import", re_inkml], rc4, out4))
            elif rc4 == 0 and first:
                rc5, _, info2 = go(["info", pkg2, "--json"], "reopen-reimported")
                second = counts_of(info2) if rc5 == 0 else None
                # A point may be dropped per stroke: an up at the place of the last move is one sample.
                if second and (second[0] != first[0] or not first[1] - first[0] <= second[1] <= first[1]):
                    findings.append(("roundtrip", "reimport", ["import", re_inkml], rc4,
                                     f"import gave {first[0]} strokes / {first[1]} points; its InkML export re-imported "
                                     f"gave {second[0]} / {second[1]}"))
        if r.random() < 0.3:
            go(["export", pkg, "--format", "text"], "export-text")
        if r.random() < 0.05:
            go(["export", pkg, "--format", r.choice(["png", "svg", "pdf", "json"]), "--dpi", "20",
                "-o", os.path.join(work, "out.bin")], "export-image")
    if args.kind == "jsonl":
        rc6, out6, stdout = go(["recognize", "--jsonl", src, "--json", "--limit", "20"], "recognize-json")
        if rc6 == 0:
            for n, line in enumerate(stdout.decode("utf-8", "replace").splitlines()):
                try:
                    ok = isinstance(json.loads(line), dict)
                except ValueError:
                    ok = False
                if not ok:
                    findings.append(("bad-json", "recognize-json", ["recognize", "--jsonl", src, "--json"], rc6,
                                     f"output line {n} is not a JSON object: {line[:300]}"))
                    break
        if r.random() < 0.2:
            go(["recognize", "--jsonl", src, "--limit", "20"] + r.choice([[], ["--digits-only"], ["--regex", "[a-z]+"],
                                                                            ["--lexicon-mode", "require"]]), "recognize")
    status = ",".join(sorted({f"{k}:{n}@{fuzzlib.signature(o)}" for k, n, _, _, o in findings})) or ("cli-ok" if imported else "cli-refused")
    for kind, name, cmd, rc, out in findings:
        fuzzlib.record(args.out, kind, name, i, {"case" + ext: src},
                       f"kind={args.kind} seed={args.seed} case={i} mutation={desc}\ncmd=quire {' '.join(cmd)}\nrc={rc}\n"
                       f"replay: python3 tools/fuzz/fuzz_import.py --kind {args.kind} --seed {args.seed} --only {i} --keep\n\n{out}\n")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", choices=["inkml", "jsonl"], required=True)
    ap.add_argument("--quire", default=os.path.join(REPO, ".build", "release", "quire"))
    ap.add_argument("--quire-fuzz", default=os.path.join(REPO, ".build", "release", "quire-fuzz"))
    ap.add_argument("--data", default=DEFAULT_DATA, help="folder of the shared .jsonl.gz handwriting files")
    ap.add_argument("--out", default=None, help="default /tmp/quire-fuzz-KIND")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--only", type=int, action="append", help="run just these case numbers")
    ap.add_argument("--batch", type=int, default=100, help="cases per quire-fuzz process")
    ap.add_argument("--cli-share", type=float, default=0.1, help="share of cases also run through the quire CLI")
    ap.add_argument("--timeout", type=float, default=60, help="seconds a case (or a CLI command) may run")
    ap.add_argument("--keep", action="store_true", help="keep the cases' files and work folders")
    args = ap.parse_args()
    args.quire = os.path.abspath(args.quire)
    args.quire_fuzz = os.path.abspath(args.quire_fuzz)
    args.out = os.path.abspath(args.out or f"/tmp/quire-fuzz-{args.kind}")
    os.makedirs(args.out, exist_ok=True)
    jsonl_seeds = read_jsonl_seeds(args.data, os.path.join(args.out, "seeds"))
    seeds = jsonl_seeds if args.kind == "jsonl" else build_inkml_seeds(args, jsonl_seeds, os.path.join(args.out, "seeds"))
    todo = args.only or list(range(args.start, args.start + args.cases))
    if args.only:
        args.cli_share = 1.0
    counts = {}
    cases_dir = os.path.join(args.out, "cases")
    with open(os.path.join(args.out, "log.tsv"), "a") as log:
        while todo:
            batch, todo = todo[:args.batch], todo[args.batch:]
            shutil.rmtree(cases_dir, ignore_errors=True)
            os.makedirs(cases_dir)
            files, descs = {}, {}
            for i in list(batch):
                try:
                    data, ext, descs[i] = make_case(args, i, seeds)
                except Exception as e:  # a later mutation that does not apply to what an earlier one left
                    log.write(f"{args.seed}\t{i}\tgenerator failed: {type(e).__name__}\tskipped\n")
                    counts["skipped"] = counts.get("skipped", 0) + 1
                    batch.remove(i)
                    continue
                files[i] = os.path.join(cases_dir, f"case-{i}{ext}")
                with open(files[i], "wb") as f:
                    f.write(data)
            pending = batch
            while pending:
                pending = fuzzlib.run_inprocess(args.quire_fuzz, "import", args.seed, pending, ["--files", cases_dir], args.out,
                                                args.timeout, log, counts,
                                                case_files=lambda i: {os.path.basename(files[i]): files[i]})
            for i in batch:
                if random.Random(f"cli-share:{args.seed}:{i}").random() < args.cli_share:
                    status = run_cli(args, i, files[i], descs[i])
                    log.write(f"{args.seed}\t{i}\t{descs[i]}\t{status}\n")
                    key = status if status in ("cli-ok", "cli-refused") else "FINDING"
                    counts[key] = counts.get(key, 0) + 1
                    if key == "FINDING":
                        print(f"case {i} ({descs[i]}): {status}", flush=True)
            log.flush()
    if not args.keep:
        shutil.rmtree(cases_dir, ignore_errors=True)
    fuzzlib.summarize(counts)


if __name__ == "__main__":
    main()
