"""What Quire's fuzzers share: running a command with a time limit, telling a crash or hang from a
clear refusal, naming a finding by where it happened, and writing it outside the repository.

Every case is reproducible from (seed, index): case i uses random.Random(f"{seed}:{i}") (Python
fuzzers) or a SplitMix generator seeded from the same pair (quire-fuzz), so `--only i` replays it.
"""

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

# Swift's hash seed is random per process: dictionary and set order (and so which block a loop
# visits first) would differ between a run and its replay.
DETERMINISTIC_ENV = {"SWIFT_DETERMINISTIC_HASHING": "1"}


def signature(out):
    """The first frame in Quire's own sources (file:line) and the runtime's message: one per bug."""
    msg = re.search(r"(Fatal error[^\n]*|Swift runtime failure:[^\n*]*|VIOLATION[^\n]*)", out)
    frame = re.search(r" at \S*/(Sources/[^:\s]+:\d+)", out)
    return f"{frame.group(1) if frame else '?'} {msg.group(1).strip()[:100] if msg else ''}".strip()


def classify(rc, out):
    """None for a normal exit (0) or a clear error (2, `quire: error: ...`); else the kind of finding."""
    if rc is None:
        return "hang"
    if rc < 0 or rc >= 128 or "Fatal error" in out or "Program crashed" in out or "backtrace" in out.lower():
        return "crash"
    if rc not in (0, 2):
        return "odd-exit"
    return None


def run(cmd, timeout, cwd=None, extra_env=None, stdin=None):
    """(exit status or None on timeout, the tail of stdout + stderr)."""
    env = dict(os.environ, **DETERMINISTIC_ENV, **(extra_env or {}))
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, cwd=cwd, env=env, input=stdin)
        return p.returncode, (p.stdout[-6000:] + p.stderr[-8000:]).decode("utf-8", "replace"), p.stdout
    except subprocess.TimeoutExpired as t:
        return None, ((t.stdout or b"")[-2000:] + (t.stderr or b"")[-2000:]).decode("utf-8", "replace"), t.stdout or b""


def record(out_dir, kind, name, case, files, report):
    """Writes a finding to OUT/findings/<kind>-<name>-<case>/: the input files and a report."""
    d = os.path.join(out_dir, "findings", f"{kind}-{name}-{case}")
    os.makedirs(d, exist_ok=True)
    for fname, src in files.items():
        if isinstance(src, (bytes, bytearray)):
            with open(os.path.join(d, fname), "wb") as f:
                f.write(src)
        elif src and os.path.exists(src):
            shutil.copyfile(src, os.path.join(d, fname))
    with open(os.path.join(d, "report.txt"), "w") as f:
        f.write(report)
    return d


def summarize(counts):
    print(json.dumps(counts, sort_keys=True), flush=True)


def run_inprocess(quire_fuzz, target, seed, cases, extra_args, out_dir, timeout, log, counts, case_files=None):
    """Runs quire-fuzz TARGET on `cases` (indices) in one process, watching its `case i` / `ok i`
    lines. When it crashes, prints a violation, or stays inside a case past `timeout` seconds (it
    is killed: a hang), the case is recorded (with its input files from `case_files(i)`, if given)
    and the indices after it are returned, to run in a new process; [] when all ran."""
    cmd = [quire_fuzz, target, "--seed", str(seed), "--work", os.path.join(out_dir, "work")] + extra_args
    for i in cases:
        cmd += ["--only", str(i)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, **DETERMINISTIC_ENV))
    lines = queue.Queue()

    def reader():
        for raw in p.stdout:
            lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    current, tail, hung = None, [], False
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            if current is not None and time.monotonic() >= deadline:
                hung = True
                p.kill()
                break
            continue
        if line is None:
            break
        tail = (tail + [line])[-300:]
        if line.startswith("case "):
            current = int(line.split()[1])
            deadline = time.monotonic() + timeout
            tail = [line]
        elif line.startswith("ok ") and current is not None:
            log.write(f"{seed}\t{current}\tok\n")
            counts["ok"] = counts.get("ok", 0) + 1
            current = None
    rc = p.wait()
    if current is None:
        if rc not in (0, None) and not hung:
            sys.exit(f"quire-fuzz failed outside a case (exit {rc}):\n" + "\n".join(tail))
        return []
    out = "\n".join(tail)
    kind = "hang" if hung else ("violation" if "VIOLATION" in out and rc == 1 else (classify(rc, out) or "crash"))
    sig = signature(out)
    log.write(f"{seed}\t{current}\t{kind}: {sig}\n")
    log.flush()
    counts["FINDING"] = counts.get("FINDING", 0) + 1
    print(f"case {current}: {kind} {sig}", flush=True)
    record(out_dir, kind, target, current, case_files(current) if case_files else {},
           f"target={target} seed={seed} case={current} exit={rc}\ncommand: {' '.join(cmd[:cmd.index('--only')])} --only {current} --verbose\n\n{out}\n")
    return cases[cases.index(current) + 1:]
