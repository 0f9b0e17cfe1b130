"""`scripts/bench --proxy`: what proxying stubs cost the daemon's loop (issue 26).

A second Understudy daemon plays the upstream, answering `/slow` after 200 ms. Three measurements
against the proxying daemon, each on its own:

  batch     50 concurrent proxied requests to the 200 ms upstream, started together: the batch's
            wall time and each request's (one at a time they would take 50 x 200 ms = 10 s).
  local     keep-alive requests/s (wrk) to a local stub of the proxying daemon, alone.
  beside    the same wrk load while wrk keeps 50 proxied requests to the 200 ms upstream in flight
            the whole time: the local stub's requests/s and latency then, and the proxied
            requests/s (at most 50 / 0.2 s = 250 when nothing blocks).

Usage: scripts/bench --proxy [--understudy BINARY] [--seconds S]
Builds the release binary into $BENCH_SCRATCH (default .build-bench-release) unless --understudy
is given. Loopback only, bounded in count and time. Record figures in scripts/benchmark/RESULTS.md.
"""
import argparse
import http.client
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from scripts.benchmark import toolchain
from scripts.benchmark.wrk_result import WrkResult
from scripts.lib.understudy_daemon import Daemon

DELAY_MS = 200
CONCURRENT = 50


def start(work, name, stubs, *args):
    path = pathlib.Path(work) / f"{name}.json"
    path.write_text(json.dumps({"stubs": stubs}))
    return Daemon([str(path), "--quiet", *args], stderr_path=str(pathlib.Path(work) / f"{name}.stderr"))


def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def batch(port):
    """CONCURRENT proxied requests released together; (wall ms, [per-request ms])."""
    times = [None] * CONCURRENT
    barrier = threading.Barrier(CONCURRENT + 1)

    def one(index):
        barrier.wait()
        begun = time.monotonic()
        status, body = get(port, "/proxied/slow")
        if status != 200 or body != b"slow":
            raise RuntimeError(f"proxied request answered {status} {body[:200]!r}")
        times[index] = (begun, time.monotonic())

    threads = [threading.Thread(target=one, args=(i,)) for i in range(CONCURRENT)]
    for thread in threads:
        thread.start()
    barrier.wait()
    begun = time.monotonic()
    for thread in threads:
        thread.join()
    if any(t is None for t in times):
        raise RuntimeError("a proxied request failed")
    return (max(end for _, end in times) - begun) * 1000, [(end - start) * 1000 for start, end in times]


def wrk(port, path, connections, seconds):
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s",
               f"http://127.0.0.1:{port}{path}"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process):
    out, err = process.communicate(timeout=120)
    if process.returncode != 0:
        raise RuntimeError(f"wrk: {err.strip()[:400]}")
    return WrkResult.parse(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--understudy", help="a built understudy binary (default: build the release one)")
    parser.add_argument("--seconds", type=int, default=5, help="seconds of each wrk run (default 5)")
    args = parser.parse_args()
    binary = args.understudy or toolchain.build_understudy(os.environ.get("BENCH_SCRATCH", ".build-bench-release"))
    os.environ["UNDERSTUDY_BIN"] = binary
    with tempfile.TemporaryDirectory() as work:
        upstream = start(work, "upstream", [
            {"id": "slow", "request": {"path": "/slow"}, "responses": [{"body": "slow", "delayMs": DELAY_MS}]}])
        proxy = start(work, "proxy", [
            {"id": "local", "request": {"path": "/local"}, "responses": [{"body": "local"}]},
            {"id": "forward", "request": {"pathPattern": "/proxied/.*"},
             "responses": [{"proxy": {"to": f"http://127.0.0.1:{upstream.port}", "stripPrefix": "/proxied"}}]}],
            "--journal-limit", "1000")
        try:
            batch(proxy.port)  # warm-up: libcurl opened, connections made
            runs = [batch(proxy.port) for _ in range(3)]
            alone = finish(wrk(proxy.port, "/local", 4, args.seconds))
            # The proxied load starts first and outlasts the local one, so all of it runs beside it.
            proxied = wrk(proxy.port, "/proxied/slow", CONCURRENT, args.seconds + 2)
            beside = finish(wrk(proxy.port, "/local", 4, args.seconds))
            proxied_result = finish(proxied)
        finally:
            proxy.stop()
            upstream.stop()
    print(f"proxying: {CONCURRENT} concurrent requests to an upstream answering after {DELAY_MS} ms")
    print(f"{'batch':<8} wall ms (3 runs)        {', '.join(f'{wall:.0f}' for wall, _ in runs)}"
          f"   (one at a time: {CONCURRENT * DELAY_MS} ms)")
    every = [ms for _, each in runs for ms in each]
    print(f"{'':<8} per request ms          min {min(every):.0f}  median {statistics.median(every):.0f}"
          f"  max {max(every):.0f}")
    print(f"{'local':<8} alone                   {alone.requests_per_second:,.0f} req/s  p50 {alone.p50_ms:.2f} ms"
          f"  p99 {alone.p99_ms:.2f} ms")
    print(f"{'beside':<8} local, 50 proxied open  {beside.requests_per_second:,.0f} req/s  p50 {beside.p50_ms:.2f} ms"
          f"  p99 {beside.p99_ms:.2f} ms  ({beside.requests_per_second / alone.requests_per_second:.0%} of alone)")
    print(f"{'':<8} proxied meanwhile       {proxied_result.requests_per_second:,.0f} req/s  p50 "
          f"{proxied_result.p50_ms:.0f} ms  (at most {CONCURRENT * 1000 // DELAY_MS} if nothing blocks)"
          f"  non-2xx {proxied_result.non_2xx}  socket errors {proxied_result.socket_errors}")


if __name__ == "__main__":
    sys.exit(main())
