#!/usr/bin/env python3
"""Runs the black-box test files (Tests/BlackBox/test_*.py) several at a time, each file in a Python
process of its own, exactly as one is run by hand (`python3 -m unittest -v Tests/BlackBox/test_X.py`).

Most of a black-box test's time is spent waiting on the daemon it started, so on two cores three files
at a time finish in about half the time of one after another. Isolation is what it was: every test
starts its own daemon on an ephemeral port (or a session of its own), and a file's tests still run in
order in their own process. The longest files start first (their last durations, kept in
.build/blackbox-durations.json; the file's size on a fresh clone). Each file's output is printed whole
when it ends, then a table of files, tests run and seconds, and the totals.

Usage: scripts/lib/run_blackbox.py [--jobs N] [--exclude NAME]... [FILE...]
       (from the repository root, with UNDERSTUDY_BIN set; scripts/test sets it)"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
DURATIONS = ROOT / ".build" / "blackbox-durations.json"


def counts(output):
    """(run, failures, errors, skipped) from unittest's closing lines."""
    ran = sum(int(n) for n in re.findall(r"^Ran (\d+) tests? in", output, re.M))
    failures = sum(int(n) for n in re.findall(r"failures=(\d+)", output))
    errors = sum(int(n) for n in re.findall(r"errors=(\d+)", output))
    skipped = sum(int(n) for n in re.findall(r"skipped=(\d+)", output))
    return ran, failures, errors, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("UNDERSTUDY_BLACKBOX_JOBS", "3")))
    parser.add_argument("--exclude", action="append", default=[], help="a file name to leave out")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = [pathlib.Path(f) for f in args.files] or sorted((ROOT / "Tests" / "BlackBox").glob("test_*.py"))
    files = [f.resolve() for f in files if f.name not in args.exclude]
    try:
        known = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        known = {}
    # Longest first, so that no long file starts last; unknown files by size (a fresh clone's first run).
    files.sort(key=lambda f: known.get(f.name, f.stat().st_size / 1000), reverse=True)

    lock = threading.Lock()
    results = {}
    started = time.monotonic()

    def run(path):
        begin = time.monotonic()
        relative = path.relative_to(ROOT)
        proc = subprocess.run([sys.executable, "-m", "unittest", "-v", str(relative)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seconds = time.monotonic() - begin
        with lock:
            results[path.name] = (proc.returncode, seconds, counts(proc.stdout))
            print(f"\n===== {relative}: status {proc.returncode}, {seconds:.0f} s "
                  f"(at {begin - started:.0f} s) =====\n{proc.stdout}", flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(run, files))

    total = [0, 0, 0, 0]
    print(f"\nBlack-box files ({args.jobs} at a time, {time.monotonic() - started:.0f} s in all):")
    print(f"  {'file':44} {'status':>6} {'tests':>6} {'fail':>5} {'error':>5} {'skip':>5} {'seconds':>8}")
    for name, (status, seconds, (ran, failures, errors, skipped)) in sorted(results.items(),
                                                                           key=lambda kv: -kv[1][1]):
        print(f"  {name:44} {status:>6} {ran:>6} {failures:>5} {errors:>5} {skipped:>5} {seconds:>8.0f}")
        total = [a + b for a, b in zip(total, (ran, failures, errors, skipped))]
    print(f"  {'total':44} {'':>6} {total[0]:>6} {total[1]:>5} {total[2]:>5} {total[3]:>5}")
    failed = sorted(name for name, (status, _, _) in results.items() if status != 0)
    try:
        DURATIONS.parent.mkdir(exist_ok=True)
        known.update({name: round(seconds, 1) for name, (_, seconds, _) in results.items()})
        DURATIONS.write_text(json.dumps(known, indent=1, sort_keys=True))
    except OSError:
        pass
    if failed:
        print(f"black-box files that failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
