#!/usr/bin/env python3
"""Runs quire-fuzz (Sources/QuireFuzz) in batches and records what goes wrong.

The in-process targets (clipboard payloads, configuration files, editor sessions) run inside the
`quire-fuzz` executable, which checks the invariants itself and prints `case i` before each case,
`ok i` after it, and `VIOLATION case i: ...` (exit 1) when one fails. This driver starts it on a
range of cases, watches its output, and when it crashes (a signal, "Fatal error"), stops printing
for --timeout seconds inside a case (a hang: it is killed), or reports a violation, records the
case and starts it again after that case. Case i of seed S is the same on every run:

    python3 tools/fuzz/fuzz_inprocess.py session --seed 1 --cases 10000
    .build/release/quire-fuzz session --seed 1 --only 1234 --verbose     # replay one case

Findings go to OUT/findings/<kind>-<target>-<case>/report.txt (default OUT /tmp/quire-fuzz-TARGET),
a line per case to OUT/log.tsv. Real handwriting comes from the shared data folder (lines spread
over every file, cached in OUT/seeds/handwriting.jsonl).
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from import_cases import DEFAULT_DATA, REPO, read_jsonl_seeds  # noqa: E402


def handwriting_file(args):
    """Real handwriting for the driver: JSON lines spread over the shared data files."""
    path = os.path.join(args.out, "seeds", "handwriting.jsonl")
    if not os.path.exists(path):
        seeds = read_jsonl_seeds(args.data, os.path.join(args.out, "seeds"))
        with open(path, "w") as f:
            for s in seeds:
                f.write(json.dumps(s) + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", choices=["clipboard", "config", "session"])
    ap.add_argument("--quire-fuzz", default=os.path.join(REPO, ".build", "release", "quire-fuzz"))
    ap.add_argument("--data", default=DEFAULT_DATA, help="folder of the shared .jsonl.gz handwriting files")
    ap.add_argument("--out", default=None, help="default /tmp/quire-fuzz-TARGET")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--only", type=int, action="append", help="run just these case numbers")
    ap.add_argument("--batch", type=int, default=200, help="cases per quire-fuzz process")
    ap.add_argument("--timeout", type=float, default=60, help="seconds a case may run")
    args = ap.parse_args()
    args.quire_fuzz = os.path.abspath(args.quire_fuzz)
    args.out = os.path.abspath(args.out or f"/tmp/quire-fuzz-{args.target}")
    os.makedirs(args.out, exist_ok=True)
    hw = handwriting_file(args)
    todo = args.only or list(range(args.start, args.start + args.cases))
    counts = {}
    with open(os.path.join(args.out, "log.tsv"), "a") as log:
        while todo:
            batch, todo = todo[:args.batch], todo[args.batch:]
            while batch:
                batch = fuzzlib.run_inprocess(args.quire_fuzz, args.target, args.seed, batch, ["--handwriting", hw],
                                              args.out, args.timeout, log, counts)
            log.flush()
    fuzzlib.summarize(counts)


if __name__ == "__main__":
    main()
