#!/usr/bin/env python3
"""Soak: several clients send mixed traffic (sequences, scenarios, rate limits, delays, faults,
client aborts mid-delay, unmatched paths, admin reads, resets and reloads) for a fixed time, then the
JSON Lines journal file is checked: every non-admin request the daemon answered appears exactly once,
`seq` advances by one per line (restarting at 1 after a reset), rate-limited stubs never admitted more
than their limit in a window, scenario states stayed declared, and the daemon's RSS stayed bounded."""
import argparse
import http.client
import json
import random
import socket
import ssl
import sys
import tempfile
import threading
import time
from collections import Counter

from scripts.lib.understudy_daemon import Daemon, log, request, stub_directory

DECLARED_STATES = {"Started", "LoggedIn", "Expired"}
# (weight, kind, method, path): kind says what the client may expect.
OPERATIONS = [
    (20, "answer", "GET", "/ok"),
    (10, "answer", "POST", "/post"),
    (12, "answer", "GET", "/seq"),
    (6, "answer", "POST", "/login"),
    (12, "answer", "GET", "/data"),
    (12, "answer", "GET", "/limited"),
    (5, "answer", "GET", "/slow"),
    (2, "abort", "GET", "/slower"),       # the client gives up mid-delay and closes
    (1, "answer", "GET", "/big"),
    (1, "abort-read", "GET", "/big"),     # the client closes mid-response
    (2, "fault", "GET", "/fault/reset"),
    (2, "fault", "GET", "/fault/empty"),
    (2, "fault", "GET", "/fault/malformed"),
    (2, "fault", "GET", "/fault/half"),
    (5, "answer", "GET", "/nothing-here"),
    (4, "admin", "GET", "/__admin/requests?limit=5"),
    (2, "admin", "GET", "/__admin/health"),
    (2, "admin", "GET", "/__admin/scenarios"),
    (1, "admin", "GET", "/__admin/stubs"),
]


class ReadWriteLock:
    """Requests share it; a reset or reload takes it alone, so the journal shows exactly where it happened."""

    def __init__(self):
        self.condition = threading.Condition()
        self.readers = 0
        self.writer = False
        self.waiting_writers = 0

    def acquire_read(self):
        with self.condition:
            while self.writer or self.waiting_writers:
                self.condition.wait()
            self.readers += 1

    def release_read(self):
        with self.condition:
            self.readers -= 1
            self.condition.notify_all()

    def acquire_write(self):
        with self.condition:
            self.waiting_writers += 1
            while self.writer or self.readers:
                self.condition.wait()
            self.waiting_writers -= 1
            self.writer = True

    def release_write(self):
        with self.condition:
            self.writer = False
            self.condition.notify_all()


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent = {}          # id -> kind ("answered", "fault", "aborted")
        self.admin = 0
        self.resets = 0
        self.reloads = 0
        self.markers = []       # reset/reload marker ids, in the order they happened
        self.errors = []

    def note(self, ident, outcome):
        with self.lock:
            self.sent[ident] = outcome


def client(number, port, deadline, tally, rng, lock, tls=None):
    """One client's loop; with `tls` (an ssl context) every connection speaks HTTPS."""
    weights = [op[0] for op in OPERATIONS]
    connection = None
    serial = 0
    while time.monotonic() < deadline:
        _, kind, method, path = rng.choices(OPERATIONS, weights)[0]
        if rng.random() < 0.002:
            kind, method, path = "reset", "POST", "/__admin/reset"
        elif rng.random() < 0.001:
            kind, method, path = "reload", "POST", "/__admin/reload"
        serial += 1
        ident = f"c{number}-{serial}"
        if not kind.startswith(("admin", "reset", "reload")):
            path += ("&" if "?" in path else "?") + "soak=" + ident
        exclusive = kind in ("reset", "reload")
        lock.acquire_write() if exclusive else lock.acquire_read()
        try:
            if kind in ("abort", "abort-read", "fault"):
                outcome = one_shot(port, method, path, kind, tls)
                tally.note(ident, outcome)
                continue
            if connection is None:
                connection = (http.client.HTTPSConnection("127.0.0.1", port, timeout=15, context=tls) if tls
                              else http.client.HTTPConnection("127.0.0.1", port, timeout=15))
            body = b"x" * rng.randrange(0, 300) if method == "POST" and kind == "answer" else None
            if exclusive:
                body = b""
                # A request is journaled when its answer goes out or its client is seen to leave:
                # wait until none is pending, so every request sent before the reset or reload
                # is journaled before it.
                wait_until_nothing_pending(connection)
            connection.request(method, path, body=body)
            response = connection.getresponse()
            response.read()
            if exclusive:
                if response.status != 200:
                    tally.errors.append(f"{method} {path} answered {response.status}")
                # A marker request, still alone: the journal line after a reset or reload is this one.
                marker = f"{kind}-{number}-{serial}"
                connection.request("GET", f"/ok?soak={marker}")
                connection.getresponse().read()
                tally.note(marker, "answered")
                with tally.lock:
                    tally.markers.append(marker)
                    if kind == "reset":
                        tally.resets += 1
                    else:
                        tally.reloads += 1
            elif kind == "answer":
                tally.note(ident, "answered")
            else:
                with tally.lock:
                    tally.admin += 1
            if response.status >= 500 and kind != "answer":
                tally.errors.append(f"{method} {path} answered {response.status}")
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        except (OSError, http.client.HTTPException) as error:
            if kind == "answer":
                tally.errors.append(f"{method} {path}: {error!r}")
                tally.note(ident, "lost")
            if connection is not None:
                connection.close()
            connection = None
        finally:
            lock.release_write() if exclusive else lock.release_read()
    if connection is not None:
        connection.close()


def wait_until_nothing_pending(connection, timeout=15.0):
    """Polls `GET /__admin/health` until `pending` (requests awaiting their answer) is 0."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connection.request("GET", "/__admin/health")
        health = json.loads(connection.getresponse().read())
        if health.get("pending", 0) == 0:
            return
        time.sleep(0.01)


def one_shot(port, method, path, kind, tls=None):
    """A request on its own connection that the client or a fault cuts short."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    if tls:
        try:
            raw = tls.wrap_socket(raw, server_hostname="127.0.0.1")
        except OSError:
            raw.close()
            raise
    with raw as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: soak\r\n\r\n".encode())
        if kind == "abort":
            time.sleep(0.3)   # the server has read the request and is inside the delay
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            return "received"
        if kind == "abort-read":
            sock.recv(4096)   # the response has started; stop reading and close
            return "received"
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass
        return "received"


def check_journal(path, tally, limit_rules):
    """Returns (entries, problems)."""
    problems = []
    entries = []
    with open(path, "rb") as journal:
        for number, line in enumerate(journal, 1):
            try:
                entries.append(json.loads(line))
            except ValueError:
                problems.append(f"journal line {number} is not JSON: {line[:100]!r}")
    restarts = 0
    previous = 0
    for entry in entries:
        if entry["seq"] == previous + 1:
            previous = entry["seq"]
        elif entry["seq"] == 1:
            restarts += 1
            previous = 1
        else:
            problems.append(f"seq {entry['seq']} after {previous}")
            previous = entry["seq"]
    if restarts != tally.resets:
        problems.append(f"seq restarted {restarts} times for {tally.resets} resets")
    marker_ids = set(tally.markers)
    for entry in entries:
        query = entry.get("query") or ""
        ident = query[5:] if query.startswith("soak=") else ""
        if ident.startswith("reset-") and entry["seq"] != 1:
            problems.append(f"the request right after a reset has seq {entry['seq']}")

    seen = Counter()
    for entry in entries:
        query = entry.get("query") or ""
        for part in query.split("&"):
            if part.startswith("soak="):
                seen[part[5:]] += 1
    for ident, count in seen.items():
        if count != 1:
            problems.append(f"request {ident} journaled {count} times")
        if ident not in tally.sent:
            problems.append(f"request {ident} journaled but never sent")
    lost = [ident for ident, outcome in tally.sent.items() if outcome in ("answered", "received") and seen[ident] == 0]
    for ident in lost[:10]:
        problems.append(f"request {ident} ({tally.sent[ident]}) missing from the journal")

    # Rate limits start over at every reset and reload: check each segment between markers.
    segments, current = [], []
    for entry in entries:
        query = entry.get("query") or ""
        if query.startswith("soak=") and query[5:] in marker_ids and current:
            segments.append(current)
            current = []
        current.append(entry)
    segments.append(current)
    for segment in segments:
        for stub, (limit, window_ms) in limit_rules.items():
            admitted = [e["elapsedMs"] for e in segment if e.get("stub") == stub and not e.get("rateLimited")]
            start = 0
            for end, moment in enumerate(admitted):
                while admitted[start] + window_ms <= moment:
                    start += 1
                if end - start + 1 > limit:
                    problems.append(f"{stub} admitted {end - start + 1} requests within {window_ms} ms")
                    break
    for entry in entries:
        scenario = entry.get("scenario")
        if scenario and (scenario["from"] not in DECLARED_STATES or scenario["to"] not in DECLARED_STATES):
            problems.append(f"undeclared scenario state in seq {entry['seq']}: {scenario}")
    return entries, problems, len(lost)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="25 s (CI)")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--max-rss-mb", type=int, default=512, help="fail above this RSS")
    args = parser.parse_args()
    seconds = 25.0 if args.quick else args.minutes * 60

    with tempfile.TemporaryDirectory(prefix="understudy-soak-") as work:
        journal = f"{work}/journal.jsonl"
        # Odd-numbered clients talk HTTPS (verifying against the daemon's CA), the others plain HTTP.
        daemon = Daemon([stub_directory(work), "--quiet", "--journal", journal, "--journal-limit", "5000",
                         "--idle-timeout", "30", "--https", "--tls-ca-file", f"{work}/ca.pem"], f"{work}/stderr.log")
        tls = ssl.create_default_context(cafile=f"{work}/ca.pem")
        tally = Tally()
        lock = ReadWriteLock()
        deadline = time.monotonic() + seconds
        threads = [threading.Thread(target=client, args=(n, daemon.https_port if n % 2 else daemon.port, deadline, tally,
                                                         random.Random(args.seed + n), lock, tls if n % 2 else None))
                   for n in range(args.clients)]
        rss_samples = []
        try:
            started = time.monotonic()
            for thread in threads:
                thread.start()
            while any(thread.is_alive() for thread in threads):
                if daemon.alive():
                    rss_samples.append((time.monotonic() - started, daemon.rss_kb(), daemon.fd_count()))
                time.sleep(1)
            for thread in threads:
                thread.join()
            alive = daemon.alive()
            health = request(daemon.port, "GET", "/__admin/health")[0] if alive else None
        finally:
            code = daemon.stop()
        problems = []
        if not alive:
            problems.append(f"the daemon died: {daemon.stderr()[-2000:]}")
        if health != 200:
            problems.append(f"health after the soak: {health}")
        if code != 0:
            problems.append(f"exit status {code} on SIGTERM")
        entries, journal_problems, lost = check_journal(journal, tally, {"limited": (5, 1000.0)})
        problems += journal_problems
        problems += tally.errors[:10]
        peak = max((s[1] for s in rss_samples), default=0) // 1024
        half = [s[1] for s in rss_samples if s[0] <= seconds / 2] or [0]
        late = [s[1] for s in rss_samples if s[0] > seconds * 3 / 4] or [0]
        if peak > args.max_rss_mb:
            problems.append(f"RSS peaked at {peak} MiB (limit {args.max_rss_mb})")
        if max(late) > max(half) * 1.5 + 32 * 1024:
            problems.append(f"RSS kept growing: {max(half) // 1024} MiB by half time, {max(late) // 1024} MiB in the last quarter")
        outcomes = Counter(tally.sent.values())
        log(f"soak: {seconds:.0f} s, {args.clients} clients, seed {args.seed}: {len(tally.sent)} journaled-kind requests "
            f"({outcomes['answered']} answered, {outcomes['received']} faults/aborts), {tally.admin} admin reads, "
            f"{tally.resets} resets, {tally.reloads} reloads; {len(entries)} journal lines, {lost} lost; "
            f"RSS first-half max {max(half) // 1024} MiB, last-quarter max {max(late) // 1024} MiB, peak {peak} MiB; "
            f"open fds max {max((s[2] for s in rss_samples), default=0)}; {len(problems)} problems")
        for problem in problems[:30]:
            log(f"soak: FAIL {problem}")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
