"""`scripts/bench --https`: Understudy's HTTPS listener against nginx serving HTTPS with one worker,
on the same machine in the same run, with the same certificate (EC P-256, issued by one test CA).

Two figures, each as interleaved wrk rounds (nginx, Understudy, nginx, ...), servers pinned to
BENCH_SERVER_CPU and wrk to BENCH_LOAD_CPU:
  - keep-alive throughput (requests/s over kept-alive TLS connections), target >= 0.8 x nginx;
  - handshake rate (every request on a new TLS connection: `Connection: close`).
Understudy also writes its journal to a file, as in the other scenarios; nginx logs nothing.

Options: --quick (short rounds, to check the harness), --rounds N, --duration S, --connections N,
--understudy PATH (skip the build). The certificate pair is made with the `openssl` tool here (a
benchmark script; the daemon itself never shells out) and given to both servers.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from scripts.benchmark import toolchain
from scripts.lib.understudy_daemon import Daemon
from scripts.benchmark.wrk_result import WrkResult

BODY = "hello"
PATH = "/hello"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pinned(cpu, command):
    return (["taskset", "-c", str(cpu)] if cpu is not None else []) + command


def wait_for_port(port, process, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port} after {timeout} s")


def make_certificates(work):
    """A CA and a leaf for 127.0.0.1/localhost, both EC P-256 (what Understudy generates)."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=Bench CA", "-keyout", f"{work}/ca.key", "-out", f"{work}/ca.pem")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", f"{work}/leaf.key", "-out", f"{work}/leaf.csr")
    with open(f"{work}/ext.cnf", "w") as ext:
        ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", f"{work}/leaf.csr", "-CA", f"{work}/ca.pem", "-CAkey", f"{work}/ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", f"{work}/ext.cnf", "-out", f"{work}/leaf.pem")
    return f"{work}/leaf.pem", f"{work}/leaf.key", f"{work}/ca.pem"


def start_understudy(binary, work, cert, key, cpu):
    os.makedirs(f"{work}/stubs", exist_ok=True)
    with open(f"{work}/stubs/hello.json", "w") as stub:
        stub.write('{"stubs": [{"id": "hello", "request": {"method": "GET", "path": "%s"}, '
                   '"responses": [{"status": 200, "body": "%s"}]}]}' % (PATH, BODY))
    daemon = Daemon(command=[binary, "serve", f"{work}/stubs", "--quiet", "--journal", f"{work}/journal.jsonl",
                             "--https", "--tls-cert", cert, "--tls-key", key],
                    cpu=cpu, stderr_path=f"{work}/understudy.stderr", timeout=60)
    return daemon.process, daemon.https_port


def start_nginx(work, cert, key, cpu):
    port = free_port()
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
    server {{
        listen 127.0.0.1:{port} ssl;
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
    wait_for_port(port, process)
    return process, port


def check(port, cafile):
    result = subprocess.run(["curl", "-sS", "--cacert", cafile, f"https://127.0.0.1:{port}{PATH}"],
                            capture_output=True, text=True, timeout=30)
    if result.returncode != 0 or result.stdout != BODY:
        raise RuntimeError(f"https://127.0.0.1:{port}{PATH} answered {result.returncode} {result.stdout!r} {result.stderr}")


def wrk(port, seconds, connections, close, cpu):
    command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "10s"]
    if close:
        command += ["-H", "Connection: close"]
    command.append(f"https://127.0.0.1:{port}{PATH}")
    result = subprocess.run(pinned(cpu, command), capture_output=True, text=True, timeout=seconds + 60)
    if result.returncode != 0:
        raise RuntimeError(f"wrk: {result.stderr.strip()[:400]}")
    return WrkResult.parse(result.stdout)


def measure(binary, rounds, duration, connections, close_connections, server_cpu, load_cpu):
    """Interleaved rounds against nginx: ({(server, "keepalive"|"handshakes"): [req/s per round]}, lines
    Understudy journaled). Also what `scripts/bench --floor` reports for HTTPS."""
    with tempfile.TemporaryDirectory(prefix="understudy-https-bench-") as work:
        cert, key, cafile = make_certificates(work)
        servers = {}
        try:
            servers["nginx"] = start_nginx(work, cert, key, server_cpu)
            servers["understudy"] = start_understudy(binary, work, cert, key, server_cpu)
            figures = {(name, kind): [] for name in servers for kind in ("keepalive", "handshakes")}
            for name, (_, port) in servers.items():
                check(port, cafile)
                wrk(port, 1, connections, False, load_cpu)  # warm-up
            for round_index in range(rounds):
                for kind, close, clients in (("keepalive", False, connections),
                                             ("handshakes", True, close_connections)):
                    for name, (process, port) in servers.items():
                        result = wrk(port, duration, clients, close, load_cpu)
                        if process.poll() is not None:
                            raise RuntimeError(f"{name} exited under load")
                        if result.non_2xx or result.socket_errors:
                            print(f"  warning: {name} {kind}: {result.non_2xx} non-2xx, {result.socket_errors} socket errors",
                                  file=sys.stderr)
                        figures[(name, kind)].append(result.requests_per_second)
                        print(f"  round {round_index + 1} {kind:10} {name:10} {result.requests_per_second:10.0f} req/s "
                              f"p99 {result.p99_ms:7.2f} ms", file=sys.stderr)
        finally:
            for process, _ in servers.values():
                process.terminate()
                process.wait(30)
        journal_lines = sum(1 for _ in open(f"{work}/journal.jsonl")) if os.path.exists(f"{work}/journal.jsonl") else 0
    return figures, journal_lines


def main(argv):
    parser = argparse.ArgumentParser(prog="scripts/bench --https", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 s rounds, 2 rounds: checks the harness only")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=6.0, help="seconds per wrk round")
    parser.add_argument("--connections", type=int, default=50, help="keep-alive connections")
    parser.add_argument("--close-connections", type=int, default=8, help="concurrent clients for the handshake rate")
    parser.add_argument("--understudy", help="the binary (default: build the release one)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.duration = 2, 2.0
    server_cpu = os.environ.get("BENCH_SERVER_CPU", "0")
    load_cpu = os.environ.get("BENCH_LOAD_CPU", "1")
    binary = args.understudy or toolchain.build_understudy(os.environ.get("BENCH_SCRATCH", ".build-bench-release"))

    figures, journal_lines = measure(binary, args.rounds, args.duration, args.connections, args.close_connections,
                                     server_cpu, load_cpu)
    print(f"\n### HTTPS: Understudy vs nginx (one worker), {args.rounds} rounds of {args.duration:.0f} s, "
          f"load {toolchain.load_average():.2f}\n")
    print("| figure | nginx (median req/s) | Understudy (median req/s) | ratio | target |")
    print("|---|---|---|---|---|")
    for kind, label, target in (("keepalive", f"keep-alive throughput ({args.connections} connections)", "≥ 0.8 ×"),
                                ("handshakes", f"handshakes/s (Connection: close, {args.close_connections} clients)", "—")):
        nginx = statistics.median(figures[("nginx", kind)])
        understudy = statistics.median(figures[("understudy", kind)])
        print(f"| {label} | {nginx:,.0f} | {understudy:,.0f} | {understudy / nginx:.2f} × | {target} |")
    print(f"\nUnderstudy journaled {journal_lines} requests to its file.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
