#!/usr/bin/env python3
"""Reproducers for abusive-client problems in the transport (exit 1 while the problem exists).

  python3 -m scripts.hardening.abuse slowloris      a head trickled a byte a second, with --idle-timeout 2,
                                                    must be closed within ~2x the timeout
  python3 -m scripts.hardening.abuse fd-exhaustion  more connections than open files: the daemon must not
                                                    spin on accept() nor flood stderr, and must recover
The daemon binary: $UNDERSTUDY_BIN, or built under $UNDERSTUDY_SCRATCH (default .build)."""
import os
import socket
import sys
import tempfile
import time

from scripts.lib import understudy_daemon
from scripts.lib.understudy_daemon import Daemon, log, request, stub_directory


def slowloris(work):
    daemon = Daemon([stub_directory(work), "--quiet", "--idle-timeout", "2"], f"{work}/stderr.log")
    try:
        sock = socket.create_connection(("127.0.0.1", daemon.port))
        start = time.monotonic()
        closed_after = None
        for byte in b"GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 64:
            try:
                sock.send(bytes([byte]))
                sock.settimeout(1.0)
                if sock.recv(100) == b"":
                    closed_after = time.monotonic() - start
                    break
            except socket.timeout:
                pass
            except OSError:
                closed_after = time.monotonic() - start
                break
            if time.monotonic() - start > 12:
                break
        served = request(daemon.port, "GET", "/ok")[0]
    finally:
        daemon.stop()
    if closed_after is None or closed_after > 5:
        log(f"slowloris: FAIL a head trickled one byte a second stayed open {time.monotonic() - start:.1f} s "
            f"with --idle-timeout 2 (others still served: {served})")
        return 1
    log(f"slowloris: closed after {closed_after:.1f} s")
    return 0


def fd_exhaustion(work):
    real = understudy_daemon.binary()
    wrapper = f"{work}/limited.sh"
    with open(wrapper, "w") as script:
        script.write(f'#!/bin/sh\nexec prlimit --nofile=128:128 "{real}" "$@"\n')
    os.chmod(wrapper, 0o755)
    os.environ["UNDERSTUDY_BIN"] = wrapper
    daemon = Daemon([stub_directory(work), "--quiet"], f"{work}/stderr.log")
    sockets = []
    try:
        for _ in range(160):
            try:
                sockets.append(socket.create_connection(("127.0.0.1", daemon.port), timeout=1))
            except OSError:
                break
        stat = lambda: sum(int(x) for x in open(f"/proc/{daemon.process.pid}/stat").read().split()[13:15])
        before = stat()
        time.sleep(2)
        busy_ticks = stat() - before
        for sock in sockets:
            sock.close()
        deadline = time.monotonic() + 5
        recovered = None
        while time.monotonic() < deadline and recovered != 200:
            try:
                recovered = request(daemon.port, "GET", "/ok", timeout=1)[0]
            except OSError:
                time.sleep(0.1)
    finally:
        daemon.stop()
    stderr_bytes = os.path.getsize(f"{work}/stderr.log")
    problems = []
    if busy_ticks > 50:
        problems.append(f"{busy_ticks} CPU ticks in 2 s while out of descriptors (spinning on accept)")
    if stderr_bytes > 100_000:
        problems.append(f"{stderr_bytes} bytes of stderr (libevent's accept warning, unthrottled)")
    if recovered != 200:
        problems.append("no 200 once descriptors were free again")
    for problem in problems:
        log(f"fd-exhaustion: FAIL {problem}")
    if not problems:
        log(f"fd-exhaustion: quiet and recovered ({busy_ticks} CPU ticks in 2 s, {stderr_bytes} bytes of stderr)")
    return 1 if problems else 0


def main():
    checks = {"slowloris": slowloris, "fd-exhaustion": fd_exhaustion}
    names = sys.argv[1:] or list(checks)
    status = 0
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"understudy-{name}-") as work:
            status |= checks[name](work)
    return status


if __name__ == "__main__":
    sys.exit(main())
