"""`scripts/bench --http2`: Understudy's HTTP/2 against nginx's (one worker, `http2` on its listeners),
on the same machine in the same run, measured with h2load (Debian nghttp2-client).

Four figures, each as interleaved h2load rounds (nginx, Understudy, nginx, ...), servers pinned to
BENCH_SERVER_CPU and h2load to BENCH_LOAD_CPU: requests per second over
  - 1 connection x 100 concurrent streams, and 10 connections x 10 streams,
  - each over h2c (prior knowledge, the plain port) and h2 (TLS, ALPN; same EC P-256 certificate).
Target: >= 0.8 x nginx. Understudy also writes its journal to a file, as in the other scenarios;
nginx logs nothing.

Options: --quick (short rounds, to check the harness), --rounds N, --duration S, --understudy PATH
(skip the build).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

from scripts.benchmark import toolchain
from scripts.benchmark.https_bench import free_port, make_certificates, pinned, wait_for_port
from scripts.lib.understudy_daemon import Daemon

BODY = "hello"
PATH = "/hello"
SHAPES = (("1 connection × 100 streams", 1, 100), ("10 connections × 10 streams", 10, 10))


def start_understudy(binary, work, cert, key, cpu):
    os.makedirs(f"{work}/stubs", exist_ok=True)
    with open(f"{work}/stubs/hello.json", "w") as stub:
        stub.write('{"stubs": [{"id": "hello", "request": {"method": "GET", "path": "%s"}, '
                   '"responses": [{"status": 200, "body": "%s"}]}]}' % (PATH, BODY))
    daemon = Daemon(command=[binary, "serve", f"{work}/stubs", "--quiet", "--journal", f"{work}/journal.jsonl",
                             "--https", "--tls-cert", cert, "--tls-key", key],
                    cpu=cpu, stderr_path=f"{work}/understudy.stderr", timeout=60)
    return daemon.process, {"h2c": daemon.port, "h2": daemon.https_port}


def start_nginx(work, cert, key, cpu):
    """nginx 1.22 (Debian 12) spells HTTP/2 as a `listen` parameter; later versions also take `http2 on`."""
    plain, secure = free_port(), free_port()
    os.makedirs(f"{work}/nginx", exist_ok=True)
    config = f"""
daemon off;
master_process off;
worker_processes 1;
error_log {work}/nginx/error.log warn;
pid {work}/nginx/nginx.pid;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {work}/nginx/body;
    proxy_temp_path {work}/nginx/proxy;
    fastcgi_temp_path {work}/nginx/fastcgi;
    uwsgi_temp_path {work}/nginx/uwsgi;
    scgi_temp_path {work}/nginx/scgi;
    keepalive_requests 1000000;
    http2_max_requests 1000000;
    http2_max_concurrent_streams 128;
    server {{
        listen 127.0.0.1:{plain} http2;
        listen 127.0.0.1:{secure} ssl http2;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        location = {PATH} {{ default_type text/plain; return 200 "{BODY}"; }}
    }}
}}
"""
    with open(f"{work}/nginx/nginx.conf", "w") as handle:
        handle.write(config)
    log = open(f"{work}/nginx/stderr", "wb")
    process = subprocess.Popen(pinned(cpu, ["nginx", "-p", f"{work}/nginx", "-c", f"{work}/nginx/nginx.conf"]),
                               stdout=subprocess.DEVNULL, stderr=log, stdin=subprocess.DEVNULL)
    wait_for_port(plain, process)
    wait_for_port(secure, process)
    return process, {"h2c": plain, "h2": secure}


def url(protocol, port):
    return f"{'https' if protocol == 'h2' else 'http'}://127.0.0.1:{port}{PATH}"


def h2load(protocol, port, seconds, connections, streams, cpu):
    """Requests per second of one timed h2load round; raises when any request failed."""
    command = ["h2load", "-c", str(connections), "-m", str(streams), "-t", "1", "-D", str(max(1, round(seconds))),
               "--warm-up-time", "1", url(protocol, port)]
    result = subprocess.run(pinned(cpu, command), capture_output=True, text=True, timeout=seconds + 60)
    finished = re.search(r"finished in [\d.]+m?s, ([\d.]+) req/s", result.stdout)
    counts = re.search(r"requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored",
                       result.stdout)
    protocol_line = re.search(r"Application protocol: (\S+)", result.stdout)
    if result.returncode != 0 or not finished or not counts:
        raise RuntimeError(f"h2load {url(protocol, port)}: {result.returncode} {result.stdout[-600:]} {result.stderr[-400:]}")
    if protocol_line and protocol_line.group(1) != ("h2" if protocol == "h2" else "h2c"):
        raise RuntimeError(f"h2load negotiated {protocol_line.group(1)} with {url(protocol, port)}")
    failed, errored = int(counts.group(4)), int(counts.group(5))
    if failed or errored:
        print(f"  warning: {url(protocol, port)}: {failed} failed, {errored} errored", file=sys.stderr)
    return float(finished.group(1))


def main(argv):
    parser = argparse.ArgumentParser(prog="scripts/bench --http2", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 s rounds, 2 rounds: checks the harness only")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per h2load round")
    parser.add_argument("--understudy", help="the binary (default: build the release one)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.duration = 2, 2.0
    server_cpu = os.environ.get("BENCH_SERVER_CPU", "0")
    load_cpu = os.environ.get("BENCH_LOAD_CPU", "1")
    binary = args.understudy or toolchain.build_understudy(os.environ.get("BENCH_SCRATCH", ".build-bench-release"))

    with tempfile.TemporaryDirectory(prefix="understudy-h2-bench-") as work:
        cert, key, _ = make_certificates(work)
        servers = {}
        figures = {}
        try:
            servers["nginx"] = start_nginx(work, cert, key, server_cpu)
            servers["understudy"] = start_understudy(binary, work, cert, key, server_cpu)
            for protocol in ("h2c", "h2"):
                for name, (_, ports) in servers.items():
                    h2load(protocol, ports[protocol], 1, 1, 10, load_cpu)  # warm-up and a check that it speaks h2
            for round_index in range(args.rounds):
                for protocol in ("h2c", "h2"):
                    for label, connections, streams in SHAPES:
                        for name, (process, ports) in servers.items():
                            rate = h2load(protocol, ports[protocol], args.duration, connections, streams, load_cpu)
                            if process.poll() is not None:
                                raise RuntimeError(f"{name} exited under load")
                            figures.setdefault((protocol, label, name), []).append(rate)
                            print(f"  round {round_index + 1} {protocol:3} {label:28} {name:10} {rate:10.0f} req/s",
                                  file=sys.stderr)
        finally:
            for process, _ in servers.values():
                process.terminate()
                process.wait(30)
        journal_lines = sum(1 for _ in open(f"{work}/journal.jsonl")) if os.path.exists(f"{work}/journal.jsonl") else 0

    print(f"\n### HTTP/2: Understudy vs nginx (one worker), h2load, {args.rounds} rounds of {args.duration:.0f} s, "
          f"load {toolchain.load_average():.2f}\n")
    print("| protocol | shape | nginx (median req/s) | Understudy (median req/s) | ratio | target |")
    print("|---|---|---|---|---|---|")
    for protocol in ("h2c", "h2"):
        for label, _, _ in SHAPES:
            nginx = statistics.median(figures[(protocol, label, "nginx")])
            understudy = statistics.median(figures[(protocol, label, "understudy")])
            print(f"| {protocol} | {label} | {nginx:,.0f} | {understudy:,.0f} | {understudy / nginx:.2f} × | ≥ 0.8 × |")
    print(f"\nUnderstudy journaled {journal_lines} requests to its file.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
