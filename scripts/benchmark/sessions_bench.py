"""`scripts/bench-sessions` (or `scripts/bench --sessions`): what sessions cost (issue 11).

  create   creating and deleting a session: as a test sees it (round trip of POST and DELETE
           /__admin/sessions on a kept-alive connection) and on the server (the access log's
           arrival-to-answer milliseconds for the same requests). Target: under 1 ms to create.
  memory   RSS of the daemon with 1 000 idle sessions alive, against the same daemon without
           them. Target: under 50 MB for the 1 000.
Keep-alive throughput through a session's port against the main port is a scenario of the main
suite: `scripts/bench --only keepalive,session` (wall-clock: on a quiet machine).

Usage: scripts/bench-sessions [--only create,memory] [--understudy BINARY] [--sessions N]
Builds the release binary into $BENCH_SCRATCH (default .build-bench-release) unless --understudy
is given. Prints a table; numbers are medians unless marked.
"""
import argparse
import http.client
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
from scripts.lib.understudy_daemon import Daemon

STUBS = {"stubs": [{"id": "hello", "request": {"method": "GET", "path": "/hello"},
                    "responses": [{"status": 200, "body": "hello\n"}]}]}


def release_binary(scratch):
    subprocess.run(["swift", "build", "-c", "release", "--product", "understudy", "--scratch-path", scratch],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "understudy")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Client:
    """One kept-alive connection, as a test's HTTP client holds one."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None):
        self.connection.request(method, path, body=body)
        response = self.connection.getresponse()
        return response.status, response.read()


def start(work, args, name):
    stubs = pathlib.Path(work) / "stubs"
    stubs.mkdir(exist_ok=True)
    (stubs / "hello.json").write_text(json.dumps(STUBS))
    return Daemon([str(stubs), *args], stderr_path=str(pathlib.Path(work) / f"{name}.stderr"))


def bench_create(work, count):
    daemon = start(work, ["--max-sessions", str(count + 10)], "create")
    try:
        client = Client(daemon.port)
        body = json.dumps({"name": "bench", "stubs": [{"id": "own", "request": {"path": "/own"},
                                                       "responses": [{"status": 201}]}]}).encode()
        for _ in range(50):  # warm-up
            status, created = client.call("POST", "/__admin/sessions", body)
            client.call("DELETE", f"/__admin/sessions/{json.loads(created)['id']}")
        creates, deletes, firsts = [], [], []
        for _ in range(count):
            begun = time.perf_counter()
            status, created = client.call("POST", "/__admin/sessions", body)
            creates.append((time.perf_counter() - begun) * 1000)
            assert status == 201, created
            session = json.loads(created)
            # The session is usable at once: first request on its port, from a new connection.
            begun = time.perf_counter()
            first = Client(session["port"])
            assert first.call("GET", "/own")[0] == 201
            firsts.append((time.perf_counter() - begun) * 1000)
            first.connection.close()
            begun = time.perf_counter()
            status, _ = client.call("DELETE", f"/__admin/sessions/{session['id']}")
            deletes.append((time.perf_counter() - begun) * 1000)
            assert status == 200
    finally:
        daemon.stop()
    server = {"POST": [], "DELETE": []}
    for line in daemon.stderr().splitlines():
        match = re.match(r"^(POST|DELETE) /__admin/sessions\S* (\d+) \S+ ([\d.]+)ms$", line)
        if match:
            server[match.group(1)].append(float(match.group(3)))
    # Drop the warm-up's entries (the first 50 of each).
    server = {method: values[50:] for method, values in server.items()}
    rows = [
        ("create, client round trip (ms)", creates),
        ("create, server arrival→answer (ms)", server["POST"]),
        ("first request on the new port, new connection (ms)", firsts),
        ("delete, client round trip (ms)", deletes),
        ("delete, server arrival→answer (ms)", server["DELETE"]),
    ]
    print(f"\ncreate/delete, {count} sessions one after another")
    print(f"{'':55} {'median':>8} {'p90':>8} {'p99':>8}")
    for label, values in rows:
        if values:
            print(f"{label:55} {statistics.median(values):8.3f} {percentile(values, 0.9):8.3f} {percentile(values, 0.99):8.3f}")
    return {label: statistics.median(values) for label, values in rows if values}


def bench_memory(work, count):
    daemon = start(work, ["--quiet", "--max-sessions", str(count), "--max-connections", str(count + 100)], "memory")
    try:
        client = Client(daemon.port)
        for _ in range(20):
            client.call("GET", "/hello")
        before = daemon.rss_kb()
        fds_before = daemon.fd_count()
        ports = []
        for _ in range(count):
            status, created = client.call("POST", "/__admin/sessions", b"")
            assert status == 201, created
            ports.append(json.loads(created)["port"])
        # Each session answers once, so its engine and listener have really been used.
        for port in ports:
            one = Client(port)
            assert one.call("GET", "/hello")[0] == 200
            one.connection.close()
        status, listing = client.call("GET", "/__admin/sessions")
        alive = len(json.loads(listing)["sessions"])
        after = daemon.rss_kb()
        fds_after = daemon.fd_count()
    finally:
        daemon.stop()
    total_mb = (after - before) / 1024
    print(f"\nmemory with {alive} idle sessions alive")
    print(f"RSS before {before / 1024:.1f} MB, after {after / 1024:.1f} MB: {total_mb:.1f} MB for {alive} sessions, "
          f"{(after - before) / max(1, alive):.1f} KB each; descriptors {fds_before} → {fds_after}")
    return {"sessions": alive, "total_mb": total_mb, "per_session_kb": (after - before) / max(1, alive)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="create,memory", help="comma-separated: create,memory")
    parser.add_argument("--understudy", help="use this binary instead of building the release one")
    parser.add_argument("--sessions", type=int, default=1000, help="sessions for the memory scenario")
    parser.add_argument("--creates", type=int, default=500, help="create/delete cycles")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    os.environ["UNDERSTUDY_BIN"] = args.understudy or release_binary(os.environ.get("BENCH_SCRATCH", ".build-bench-release"))
    print(f"binary: {os.environ['UNDERSTUDY_BIN']}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="understudy-sessions-bench-") as work:
        for scenario in args.only.split(","):
            if scenario == "create":
                results["create"] = bench_create(work, args.creates)
            elif scenario == "memory":
                results["memory"] = bench_memory(work, args.sessions)
            else:
                parser.error(f"unknown scenario {scenario}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
