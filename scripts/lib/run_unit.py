#!/usr/bin/env python3
"""Runs the package's XCTest and Swift Testing tests from the built test binary, in several processes at
once: the `unit` step (every test) and the `unit-ahc` step (RESTNetworkingTests again over
AsyncHTTPClient, RESTNETWORKING_TEST_TRANSPORT=asynchttpclient) together.

Why not `swift test`: SwiftPM holds .build's lock for the whole of a `swift test`, so two cannot run
side by side, and one runs its XCTest cases one after another in one process. Most of those cases wait
on a daemon (delays, timeouts, retries' backoff), so on two cores several processes finish in a
fraction of the time. This runs exactly what `swift test --skip-build` runs, the same binary: XCTest with
test-case filters (`BINARY Module.Class,Module.Class…`, the runner's own syntax) and Swift Testing with
`--testing-library swift-testing`, as SwiftPM invokes it. Each XCTest class still runs whole, in order,
in one process; each process has its own shared daemon (UnderstudyTesting's `shared()`).

Classes are dealt to the lanes longest first (their last durations, kept in .build/unit-durations.json;
the committed scripts/lib/unit-durations.json on a fresh clone). Each lane's output is printed whole when
it ends, then a table of lanes with tests run and seconds, and the totals, which the closing lines check
against the number of tests the binary lists: a test dealt to no lane fails the run.

Usage: scripts/lib/run_unit.py --binary PATH [--lanes N] [--no-ahc] [--no-swift-testing] [--filter PREFIX]"""
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
DURATIONS = ROOT / ".build" / "unit-durations.json"
SEED_DURATIONS = ROOT / "scripts" / "lib" / "unit-durations.json"
AHC_MODULE = "RESTNetworkingTests"
AHC_ENV = {"RESTNETWORKING_TEST_TRANSPORT": "asynchttpclient"}


def list_tests(binary):
    out = subprocess.run([binary, "--list-tests"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if re.fullmatch(r"[\w.]+/\w+", line.strip())]


def xctest_counts(output):
    """(executed, failures) from XCTest's last 'Executed' line (the whole run's)."""
    found = re.findall(r"Executed (\d+) tests?, with (?:\d+ tests? skipped and )?(\d+) failures?", output)
    return (int(found[-1][0]), int(found[-1][1])) if found else (0, 0)


def swift_testing_counts(output):
    """(tests, issues) from Swift Testing's closing line."""
    match = re.search(r"Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed)"
                      r"(?: after [\d.]+ seconds)?(?: with (\d+) issues?)?", output)
    if not match:
        return 0, 0
    return int(match.group(1)), int(match.group(3) or (0 if match.group(2) == "passed" else 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the built test binary (UnderstudyPackageTests.xctest)")
    parser.add_argument("--lanes", type=int, default=int(os.environ.get("UNDERSTUDY_UNIT_LANES", "4")),
                        help="XCTest processes at once (Swift Testing runs in one more)")
    parser.add_argument("--no-ahc", action="store_true", help="leave out the AsyncHTTPClient run")
    parser.add_argument("--no-swift-testing", action="store_true", help="leave out the Swift Testing run")
    args = parser.parse_args()

    tests = list_tests(args.binary)
    if not tests:
        print("run_unit: the binary lists no tests", file=sys.stderr)
        return 1
    classes = {}
    for test in tests:
        classes.setdefault(test.split("/")[0], []).append(test)
    # A job is one class in one transport: ("", class) or ("ahc", class).
    jobs = [("", name) for name in classes]
    if not args.no_ahc:
        jobs += [("ahc", name) for name in classes if name.startswith(AHC_MODULE + ".")]
    known = {}
    for source in (SEED_DURATIONS, DURATIONS):
        try:
            known.update(json.loads(source.read_text()))
        except (OSError, ValueError):
            pass

    def key(job):
        return f"{job[0]}:{job[1]}" if job[0] else job[1]

    # Longest processing time first onto the least loaded lane of the same transport mix.
    lanes = [{"env": {}, "jobs": [], "load": 0.0} for _ in range(max(1, args.lanes))]
    for job in sorted(jobs, key=lambda j: known.get(key(j), len(classes[j[1]]) * 0.5), reverse=True):
        lane = min(lanes, key=lambda lane: lane["load"])
        lane["jobs"].append(job)
        lane["load"] += known.get(key(job), len(classes[job[1]]) * 0.5)
    # A process runs one transport: a lane's jobs split by it, each part a process of its own in turn.
    commands = []
    for index, lane in enumerate(lanes):
        parts = []
        for transport in ("", "ahc"):
            names = [name for t, name in lane["jobs"] if t == transport]
            if names:
                env = AHC_ENV if transport else {}
                parts.append((transport, names, env))
        commands.append((f"xctest-{index + 1}", parts))
    if not args.no_swift_testing:
        commands.append(("swift-testing", [("swift-testing", [], {})]))

    lock = threading.Lock()
    results = {}
    started = time.monotonic()

    def run(lane):
        name, parts = lane
        begin = time.monotonic()
        executed = failures = status = 0
        output = []
        for transport, names, env in parts:
            if transport == "swift-testing":
                argv = [args.binary, "--testing-library", "swift-testing"]
            else:
                argv = [args.binary, ",".join(names)]
            part_begin = time.monotonic()
            proc = subprocess.run(argv, cwd=ROOT, env=dict(os.environ, **env), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            part_seconds = time.monotonic() - part_begin
            output.append(f"--- {' '.join(argv[:2])[:160]}{'…' if len(argv[1]) > 150 else ''} "
                          f"{' '.join(f'{k}={v}' for k, v in env.items())}\n{proc.stdout}")
            counted = swift_testing_counts(proc.stdout) if transport == "swift-testing" else xctest_counts(proc.stdout)
            executed += counted[0]
            failures += counted[1]
            status = status or proc.returncode
            if transport != "swift-testing":
                # Each class's own time, for the next run's dealing.
                for cls, seconds in re.findall(r"Test Suite '(\w+)' (?:passed|failed) at .*?\n\s+Executed \d+ tests?, "
                                               r"with (?:\d+ tests? skipped and )?\d+ failures? \(\d+ unexpected\) in ([\d.]+)", proc.stdout):
                    for full in names:
                        if full.endswith("." + cls):
                            with lock:
                                known[key((transport, full))] = round(float(seconds), 1)
            else:
                with lock:
                    known["swift-testing"] = round(part_seconds, 1)
        seconds = time.monotonic() - begin
        with lock:
            results[name] = (status, seconds, executed, failures, parts)
            print(f"\n===== {name}: status {status}, {seconds:.0f} s =====\n" + "\n".join(output), flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(commands)) as pool:
        list(pool.map(run, commands))

    print(f"\nUnit test lanes ({time.monotonic() - started:.0f} s in all):")
    print(f"  {'lane':14} {'status':>6} {'classes':>8} {'tests':>6} {'fail':>5} {'seconds':>8}")
    xctest_total = ahc_total = swift_testing_total = 0
    for name, (status, seconds, executed, failures, parts) in sorted(results.items()):
        count = sum(len(names) for _, names, _ in parts)
        print(f"  {name:14} {status:>6} {count:>8} {executed:>6} {failures:>5} {seconds:>8.0f}")
        if name == "swift-testing":
            swift_testing_total += executed
        else:
            for transport, names, _ in parts:
                expected = sum(len(classes[n]) for n in names)
                if transport == "ahc":
                    ahc_total += expected
                else:
                    xctest_total += expected
    executed_total = sum(r[2] for name, r in results.items() if name != "swift-testing")
    ahc_expected = sum(len(tests_) for name, tests_ in classes.items() if name.startswith(AHC_MODULE + "."))
    print(f"  XCTest: {len(tests)} listed, {xctest_total} dealt; AsyncHTTPClient run: {ahc_total} of {AHC_MODULE}'s "
          f"{ahc_expected if not args.no_ahc else 0}; executed {executed_total}; Swift Testing: {swift_testing_total}")
    try:
        DURATIONS.parent.mkdir(exist_ok=True)
        DURATIONS.write_text(json.dumps(known, indent=1, sort_keys=True))
    except OSError:
        pass
    failed = sorted(name for name, r in results.items() if r[0] != 0)
    problems = []
    if xctest_total != len(tests):
        problems.append(f"{len(tests) - xctest_total} listed tests were dealt to no lane")
    if not args.no_ahc and ahc_total != ahc_expected:
        problems.append("the AsyncHTTPClient run left out RESTNetworkingTests classes")
    if executed_total != xctest_total + ahc_total:
        problems.append(f"XCTest executed {executed_total} tests, {xctest_total + ahc_total} were dealt")
    if not args.no_swift_testing and swift_testing_total == 0:
        problems.append("Swift Testing ran no test")
    for problem in problems:
        print(f"run_unit: {problem}", file=sys.stderr)
    if failed:
        print(f"run_unit: lanes that failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
