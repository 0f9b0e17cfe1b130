#!/usr/bin/env python3
"""Network fuzz against the live daemon on 127.0.0.1: hand-written malformed requests (bad request
lines, bad header syntax, huge headers, invalid chunked bodies, truncated bodies, non-HTTP bytes,
pipelined garbage), random mutations of valid requests, and (on the HTTPS port) garbage and truncated
or mutated TLS handshakes. With --http2, HTTP/2 instead (scripts/hardening/h2fuzz.py: broken prefaces,
bad frames, SETTINGS/PING/CONTINUATION floods, rapid reset). Each input goes on its own connection;
the daemon must answer with a status line (400/413/431 for the malformed cases) or close, and a
normal request from another connection must still get its 200 afterwards."""
import argparse
import random
import socket
import ssl
import sys
import tempfile
import time

from scripts.lib.understudy_daemon import Daemon, log, parse_response, read_until_close, request, stub_directory

MALFORMED_OK = {400, 405, 413, 414, 431, 501, 505}
# Cases that fail today, reported to the transport's owner; printed, but fail the run only with --strict.
KNOWN: set[str] = set()
VALID = b"GET /ok HTTP/1.1\r\nHost: x\r\n\r\n"
POST = b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"


def handwritten(max_header):
    """(name, bytes, expectation): 'reject' = a 4xx/5xx status or a close; 'any' = any answer or a close."""
    big = b"a" * (max_header + 100)
    cases = [
        ("empty line only", b"\r\n\r\n", "reject"),
        ("no version", b"GET /ok\r\n\r\n", "reject"),
        ("bad version", b"GET /ok HTTP/9.9\r\nHost: x\r\n\r\n", "reject"),
        ("version garbage", b"GET /ok HTTQ/1.1\r\nHost: x\r\n\r\n", "reject"),
        ("too many spaces", b"GET  /ok  HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("method with NUL", b"G\x00T /ok HTTP/1.1\r\nHost: x\r\n\r\n", "reject"),
        ("target with NUL", b"GET /o\x00k HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("target with CR", b"GET /o\rk HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("huge request line", b"GET /" + b"x" * (max_header * 2) + b" HTTP/1.1\r\nHost: x\r\n\r\n", "reject"),
        ("huge header", b"GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: " + big + b"\r\n\r\n", "reject"),
        ("many headers", b"GET /ok HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * (max_header // 4 + 10) + b"\r\n", "reject"),
        ("header without colon", b"GET /ok HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", "reject"),
        ("header name with space", b"GET /ok HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", "any"),
        ("header continuation first", b"GET /ok HTTP/1.1\r\n continued\r\nHost: x\r\n\r\n", "any"),
        ("bare LF lines", b"GET /ok HTTP/1.1\nHost: x\n\n", "any"),
        ("bare CR lines", b"GET /ok HTTP/1.1\rHost: x\r\r", "any"),
        ("negative content-length", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nhello", "reject"),
        ("garbage content-length", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 5x\r\n\r\nhello", "reject"),
        ("two content-lengths", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", "reject"),
        ("huge content-length", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", "reject"),
        ("body over the limit", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n" + b"b" * 2000000, "reject"),
        ("truncated body", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nshort", "reject"),
        ("truncated head", b"GET /ok HTTP/1.1\r\nHost: x\r\n", "reject"),
        ("truncated request line", b"GET /o", "reject"),
        ("chunk size not hex", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", "reject"),
        ("chunk size overflow", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nhello\r\n0\r\n\r\n", "reject"),
        ("chunk shorter than size", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nhello\r\n0\r\n\r\n", "reject"),
        ("chunk without CRLF", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n", "reject"),
        ("negative chunk size", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", "reject"),
        ("chunked and content-length", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "any"),
        ("unknown transfer-encoding", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nhello", "any"),
        ("chunked body over the limit", b"POST /post HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + (b"10000\r\n" + b"c" * 0x10000 + b"\r\n") * 20 + b"0\r\n\r\n", "reject"),
        ("TLS client hello", bytes.fromhex("160301020001000200ffff") + b"\x03\x03" + bytes(range(32)) * 3, "reject"),
        ("SSH banner", b"SSH-2.0-OpenSSH_9.6\r\n", "reject"),
        ("binary noise", bytes(random.Random(1).randrange(256) for _ in range(4096)), "reject"),
        ("NUL bytes", b"\x00" * 1024, "reject"),
        ("only CRLFs", b"\r\n" * 5000, "reject"),
        ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "any"),
        ("absolute-form target", b"GET http://evil.example/ok HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("CONNECT", b"CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("asterisk target", b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("dot-dot target", b"GET /../../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("percent garbage", b"GET /%zz%%%00%ff HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("HTTP/1.0 no host", b"GET /ok HTTP/1.0\r\n\r\n", "any"),
        ("admin with garbage body", b"POST /__admin/stubs HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{\"stub", "any"),
        ("pipelined valid then garbage", VALID + b"\x16\x03\x01garbage\r\n\r\n", "any"),
        ("pipelined valid x3 then truncated", VALID * 3 + b"GET /ok HTT", "any"),
        ("pipelined garbage then valid", b"NOT HTTP AT ALL\r\n\r\n" + VALID, "reject"),
        ("pipelined post with short body then valid", b"POST /post HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhello" + VALID, "any"),
        ("lowercase method", b"get /ok HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("very long method", b"G" * 5000 + b" /ok HTTP/1.1\r\nHost: x\r\n\r\n", "any"),
        ("header value with NUL", b"GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", "any"),
        ("UTF-8 in header", "GET /ok HTTP/1.1\r\nHost: x\r\nX-Name: żółw\r\n\r\n".encode(), "any"),
        ("expect 100-continue", b"POST /post HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello", "any"),
    ]
    return cases


def mutate(rng, seed):
    data = bytearray(seed)
    for _ in range(rng.randint(1, 8)):
        choice = rng.randrange(7)
        position = rng.randrange(len(data) + 1)
        if choice == 0 and data:
            data[min(position, len(data) - 1)] = rng.randrange(256)
        elif choice == 1:
            data[position:position] = rng.choice([b"\r", b"\n", b"\r\n", b"\x00", b" ", b":", b"\t", b"%", b"\xff"])
        elif choice == 2 and data:
            del data[position:position + rng.randint(1, 16)]
        elif choice == 3:
            data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
        elif choice == 4:
            data = data[:position]
        elif choice == 5:
            data[position:position] = rng.choice([b"Content-Length: ", b"Transfer-Encoding: chunked\r\n", b"HTTP/1.1",
                                                 b"\r\n\r\n", b"Connection: close\r\n", b"ffff\r\n", b"0\r\n\r\n"])
        else:
            data[position:position] = data[:rng.randint(0, len(data))]
    return bytes(data)


def exchange(port, data, read_timeout):
    """Sends `data`, half-closes, reads until the server closes. Returns (statuses, outcome)."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:  # the server closed first (reset, broken pipe, not connected)
            pass
        sock.settimeout(read_timeout)
        received = bytearray()
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        except ConnectionResetError:
            pass
        except socket.timeout:
            return statuses_in(bytes(received)), "hung"
    return statuses_in(bytes(received)), "closed"


def client_hello(server_name="127.0.0.1"):
    """A real TLS ClientHello from Python's ssl, produced in memory (no socket)."""
    context = ssl.create_default_context()
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname=server_name)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def tls_inputs(rng, hello):
    """Garbage and broken handshakes for the HTTPS port: a truncated ClientHello, a mutated one,
    plain HTTP, random bytes, and a TLS record header that promises more than it sends."""
    choice = rng.randrange(5)
    if choice == 0:
        return "truncated handshake", hello[:rng.randint(0, len(hello) - 1)]
    if choice == 1:
        data = bytearray(hello)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return "mutated handshake", bytes(data)
    if choice == 2:
        return "plain HTTP", mutate(rng, VALID)
    if choice == 3:
        return "random bytes", bytes(rng.randrange(256) for _ in range(rng.randint(1, 2048)))
    return "short record", b"\x16\x03\x01" + rng.randint(1000, 16000).to_bytes(2, "big") + hello[5:rng.randint(5, 60)]


def https_ok(port, cafile, timeout=5):
    """GET /ok over TLS, verifying against the daemon's CA; returns (status, body)."""
    context = ssl.create_default_context(cafile=cafile)
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            tls.sendall(b"GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = read_until_close(tls, timeout)
    status, _, body = parse_response(data)
    return status, body


def statuses_in(data):
    statuses = []
    for line in data.split(b"\r\n"):
        if line.startswith(b"HTTP/1.") and len(line) >= 12 and line[9:12].isdigit():
            statuses.append(int(line[9:12]))
    return statuses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="about 10 s of random mutations (CI)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time budget for random mutations")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--strict", action="store_true", help="known, reported failures fail the run too")
    parser.add_argument("--http2", action="store_true", help="the HTTP/2 mode: h2c prefaces, frames, floods, rapid reset")
    args = parser.parse_args()
    budget = 10.0 if args.quick else args.seconds
    max_header, max_body = 8192, 1 << 20

    with tempfile.TemporaryDirectory(prefix="understudy-netfuzz-") as work:
        cafile = f"{work}/ca.pem"
        daemon = Daemon([stub_directory(work), "--quiet", "--max-header-bytes", str(max_header),
                         "--max-body", str(max_body), "--idle-timeout", "5", "--https", "--tls-ca-file", cafile],
                        f"{work}/stderr.log")
        tried, failures, known = 0, [], []

        def healthy(after, tls=False):
            try:
                if tls:
                    status, body = https_ok(daemon.https_port, cafile)
                else:
                    status, _, body = request(daemon.port, "GET", "/ok", timeout=5)
            except OSError as error:
                failures.append(f"after {after}: the next client got {error!r}")
                return False
            if status != 200 or body != b"ok":
                failures.append(f"after {after}: the next client got {status} {body[:40]!r}")
                return False
            return True

        if args.http2:
            return http2_mode(daemon, args, budget)
        try:
            for name, data, expectation in handwritten(max_header):
                tried += 1
                statuses, outcome = exchange(daemon.port, data, read_timeout=8)
                if outcome == "hung":
                    failures.append(f"{name}: no answer and no close within 8 s")
                elif expectation == "reject" and statuses and statuses[-1] not in MALFORMED_OK:
                    message = f"{name}: answered {statuses}, expected 400/413/431 or a close"
                    if name in KNOWN and not args.strict:
                        known.append(message)
                    else:
                        failures.append(message)
                healthy(name)
                if not daemon.alive():
                    failures.append(f"{name}: the daemon died")
                    break

            rng = random.Random(args.seed)
            seeds = [case[1] for case in handwritten(max_header) if len(case[1]) < 4096] + [VALID, POST, VALID * 2]
            # A quarter of the budget goes to the HTTPS port: garbage and broken handshakes.
            hello = client_hello()
            deadline = time.monotonic() + budget / 4
            handshakes = 0
            while time.monotonic() < deadline and daemon.alive():
                name, data = tls_inputs(rng, hello)
                tried += 1
                handshakes += 1
                _, outcome = exchange(daemon.https_port, data, read_timeout=8)
                if outcome == "hung":
                    failures.append(f"HTTPS {name} (seed {args.seed}, #{handshakes}) {data[:60]!r}: no close within 8 s")
                if handshakes % 25 == 0 and not (healthy(f"HTTPS input #{handshakes}", tls=True)
                                                 and healthy(f"HTTPS input #{handshakes}")):
                    break
            healthy("the HTTPS inputs", tls=True)
            deadline = time.monotonic() + budget * 3 / 4
            mutated = 0
            while time.monotonic() < deadline and daemon.alive():
                data = mutate(rng, rng.choice(seeds))
                tried += 1
                mutated += 1
                statuses, outcome = exchange(daemon.port, data, read_timeout=8)
                if outcome == "hung":
                    failures.append(f"mutation (seed {args.seed}, #{mutated}) {data[:120]!r}: no answer and no close within 8 s")
                if mutated % 25 == 0 and not healthy(f"mutation #{mutated}"):
                    break
            healthy("the last input")
            alive = daemon.alive()
            rss = daemon.rss_kb() if alive else 0
        finally:
            code = daemon.stop()
        stderr = daemon.stderr()
        if not alive:
            failures.append(f"the daemon exited with {code}: {stderr[-2000:]}")
        elif code != 0:
            failures.append(f"the daemon exited with {code} on SIGTERM")
        if "Fatal error" in stderr or "AddressSanitizer" in stderr:
            failures.append("the daemon's stderr shows a crash: " + stderr[-2000:])
        log(f"netfuzz: {tried} inputs tried ({len(handwritten(max_header))} hand-written, {handshakes} to the HTTPS port, "
            f"{mutated} mutations, seed {args.seed}), "
            f"daemon RSS {rss // 1024} MiB at the end, {len(failures)} failures, {len(known)} known issues")
        for issue in known:
            log(f"netfuzz: KNOWN {issue}")
        for failure in failures[:30]:
            log(f"netfuzz: FAIL {failure}")
        return 1 if failures else 0


def http2_mode(daemon, args, budget):
    """`--http2`: scripts/hardening/h2fuzz.py's cases against the daemon's plain port (h2c)."""
    from scripts.hardening import h2fuzz

    def http1_get(port):
        status, _, body = request(port, "GET", "/ok", timeout=5)
        return status, body

    try:
        tried, failures, summary = h2fuzz.run(daemon, random.Random(args.seed), budget, args.seed, http1_get)
        alive = daemon.alive()
    finally:
        code = daemon.stop()
    stderr = daemon.stderr()
    if not alive:
        failures.append(f"the daemon exited with {code}: {stderr[-2000:]}")
    elif code != 0:
        failures.append(f"the daemon exited with {code} on SIGTERM")
    if "Fatal error" in stderr or "AddressSanitizer" in stderr:
        failures.append("the daemon's stderr shows a crash: " + stderr[-2000:])
    log(f"netfuzz --http2: {tried} inputs tried (seed {args.seed}); {summary}; {len(failures)} failures")
    for failure in failures[:30]:
        log(f"netfuzz: FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
