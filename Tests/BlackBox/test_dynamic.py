"""Dynamic responses against the built binary (issue 15): templates (`{{server.url}}` on the main port
and a session's port, `--seed`), server-sent events read in order no earlier than their delays, a
dribbled body in its stated number of chunks, a throttled body, the journal entry written before the
first byte, a thousand open streams blocking nothing, and clients hanging up mid-stream leaving no
descriptors or memory behind."""
import http.client
import json
import pathlib
import resource
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from Tests.BlackBox.blackbox import ROOT, Daemon

STUBS = {"stubs": [
    {"id": "echo", "request": {"pathPattern": "/echo/.*"}, "responses": [{
        "template": True,
        "headers": {"X-Request-Id": "{{request.headers.x-request-id}}"},
        "json": {"id": "{{request.pathSegments.1}}", "page": "{{request.query.page}}", "self": "{{server.url}}{{request.url}}",
                 "seq": "{{seq}}", "uuid": "{{random.uuid}}", "n": "{{random.int.1.1000000}}", "name": "{{request.json.user.name}}"}}]},
    {"id": "sse", "request": {"path": "/sse"}, "responses": [{"events": [
        {"event": "first", "data": "one", "id": "1"},
        {"data": "two\nlines", "id": "2", "delayMs": 150},
        {"comment": "ping", "retry": 500, "data": "three", "id": "3", "delayMs": 250}]}]},
    {"id": "sse-late", "request": {"path": "/sse-late"}, "responses": [{"events": [
        {"data": "late", "delayMs": 30000}]}]},
    {"id": "drip-chunked", "request": {"path": "/drip-chunked"}, "responses": [{
        "headers": {"Transfer-Encoding": "chunked"}, "body": "0123456789abcdefghijklmnopqrstuvwxyz!!!!",
        "dribble": {"chunks": 5, "overMs": 400}}]},
    {"id": "drip-length", "request": {"path": "/drip-length"}, "responses": [{
        "body": "0123456789abcdefghijklmnopqrstuvwxyz!!!!", "dribble": {"chunks": 4, "overMs": 600}}]},
    {"id": "throttle", "request": {"path": "/throttle"}, "responses": [{"body": "x" * 100, "bytesPerSecond": 200}]},
    {"id": "static", "request": {"path": "/static"}, "responses": [{"body": "static"}]},
]}


def read_chunked(sock, deadline):
    """Reads a chunked response after its head; returns [(monotonic arrival, chunk bytes)]."""
    buffer = b""
    chunks = []
    while True:
        while b"\r\n" not in buffer:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            data = sock.recv(65536)
            if not data:
                raise AssertionError("connection closed inside a chunked body")
            buffer += data
        size_line, _, buffer = buffer.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        while len(buffer) < size + 2:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            data = sock.recv(65536)
            if not data:
                raise AssertionError("connection closed inside a chunk")
            buffer += data
        arrived = time.monotonic()
        if size == 0:
            return chunks
        chunks.append((arrived, buffer[:size]))
        buffer = buffer[size + 2:]


def read_head(sock, deadline):
    """Reads up to the blank line; returns (status, headers, bytes after the head)."""
    data = b""
    while b"\r\n\r\n" not in data:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        more = sock.recv(65536)
        if not more:
            raise AssertionError(f"closed before the head ended: {data!r}")
        data += more
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, rest


class PushBack:
    """A socket whose first reads return bytes already read with the head."""
    def __init__(self, sock, rest):
        self.sock, self.rest = sock, rest

    def settimeout(self, value):
        self.sock.settimeout(value)

    def recv(self, count):
        if self.rest:
            data, self.rest = self.rest, b""
            return data
        return self.sock.recv(count)


def open_stream(port, path):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def settled_fd_count(daemon, deadline_s=5.0):
    """The daemon's descriptor count once a closed keep-alive connection has been reaped (polls)."""
    deadline = time.monotonic() + deadline_s
    previous = daemon.fd_count()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        current = daemon.fd_count()
        if current == previous:
            return current
        previous = current
    return previous


def call(port, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        connection.close()


class DynamicResponseTests(unittest.TestCase):
    def start(self, *args, stubs=None):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        path = pathlib.Path(directory.name, "stubs.json")
        path.write_text(json.dumps(stubs or STUBS))
        daemon = Daemon([str(path), "--quiet", *args], str(pathlib.Path(directory.name, "stderr.log")))
        self.addCleanup(daemon.stop)
        return daemon

    def journal(self, daemon):
        return json.loads(call(daemon.port, "GET", "/__admin/requests")[2])["requests"]

    # MARK: templates

    def test_template_renders_request_values_and_the_listener_url(self):
        daemon = self.start("--seed", "11")
        status, headers, body = call(daemon.port, "POST", "/echo/42?page=3", body=b'{"user":{"name":"Ada"}}',
                                     headers={"X-Request-Id": "r-9", "Content-Type": "application/json"})
        self.assertEqual(status, 200)
        self.assertEqual(dict(headers)["X-Request-Id"], "r-9")
        document = json.loads(body)
        self.assertEqual(document["id"], "42")
        self.assertEqual(document["page"], "3")
        self.assertEqual(document["self"], f"http://127.0.0.1:{daemon.port}/echo/42?page=3")
        self.assertEqual(document["seq"], "1")
        self.assertEqual(document["name"], "Ada")
        self.assertRegex(document["uuid"], r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")

    def test_server_url_names_the_host_the_client_used_when_it_is_this_loopback_listener(self):
        daemon = self.start()

        def self_url(port, host):
            status, _, body = call(port, "GET", "/echo/h", headers={"Host": host} if host else None)
            self.assertEqual(status, 200, body)
            return json.loads(body)["self"]

        port = daemon.port
        # curl calling `localhost` sends `Host: localhost:PORT`, as a same-origin-checking client does.
        curl = subprocess.run(["curl", "-s", "--max-time", "10", f"http://localhost:{port}/echo/h"],
                              capture_output=True, text=True)
        self.assertEqual(curl.returncode, 0, curl.stderr)
        self.assertEqual(json.loads(curl.stdout)["self"], f"http://localhost:{port}/echo/h")
        for host in (f"localhost:{port}", f"LocalHost:{port}", f"[::1]:{port}", f"127.0.0.2:{port}",
                     f"api.localhost:{port}", f"127.0.0.1:{port}"):
            with self.subTest(host=host):
                self.assertEqual(self_url(port, host), f"http://{host}/echo/h")
        # Any other host, or a loopback name with another port, gets the listener's own address.
        for host in ("example.com", f"example.com:{port}", f"localhost:{port + 1 if port < 65535 else 1}",
                     "localhost", f"[::2]:{port}", f"127.0.0.1.evil.test:{port}"):
            with self.subTest(host=host):
                self.assertEqual(self_url(port, host), f"http://127.0.0.1:{port}/echo/h")
        # A Host that is not `host[:port]` never reaches a template: the transport refuses it with 400
        # (RFC 9112 §3.2; docs/transport.md), saying which character is wrong.
        for host, why in ((f"localhost:{port}@evil.test", "not a number"), (f"bad host:{port}", "0x20 cannot appear")):
            with self.subTest(host=host):
                status, _, body = call(port, "GET", "/echo/h", headers={"Host": host})
                self.assertEqual(status, 400, body)
                self.assertIn(why, body.decode() if isinstance(body, bytes) else body)
        # A session's port: the same rule with the session's own port.
        status, _, body = call(port, "POST", "/__admin/sessions", body=b"{}", headers={"Content-Type": "application/json"})
        self.assertEqual(status, 201, body)
        session = json.loads(body)["port"]  # a session starts with the daemon's file stubs
        self.assertEqual(self_url(session, f"localhost:{session}"), f"http://localhost:{session}/echo/h")
        self.assertEqual(self_url(session, f"localhost:{port}"), f"http://127.0.0.1:{session}/echo/h")

    def test_the_same_seed_gives_the_same_random_values(self):
        def values(seed):
            daemon = self.start("--seed", seed)
            result = [json.loads(call(daemon.port, "GET", "/echo/x")[2]) for _ in range(3)]
            daemon.stop()
            return [(r["uuid"], r["n"]) for r in result]
        first, second, other = values("99"), values("99"), values("100")
        self.assertEqual(first, second)
        self.assertNotEqual(first, other)
        self.assertEqual(len(set(first)), 3)

    def test_pagination_example_through_a_session(self):
        daemon = self.start(stubs=json.loads((ROOT / "stubs" / "pagination.json").read_text()))
        status, _, body = call(daemon.port, "POST", "/__admin/sessions", body=b"{}", headers={"Content-Type": "application/json"})
        self.assertEqual(status, 201, body)
        session = json.loads(body)
        self.assertNotEqual(session["port"], daemon.port)
        url, pages = session["url"] + "/examples/items", []
        while url:
            self.assertTrue(url.startswith(session["url"] + "/"), f"a link left the session: {url}")
            path = url[len(session["url"]):]
            status, headers, body = call(session["port"], "GET", path)
            self.assertEqual(status, 200, path)
            pages.append(json.loads(body)["page"])
            links = dict(headers)["Link"]
            url = next((part.split(">")[0].strip(" <") for part in links.split(",") if 'rel="next"' in part), None)
            self.assertLessEqual(len(pages), 3)
        self.assertEqual(pages, [1, 2, 3])
        # The session journaled its three requests; the main port none.
        session_journal = json.loads(call(session["port"], "GET", "/__admin/requests")[2])["requests"]
        self.assertEqual(len(session_journal), 3)
        self.assertEqual(self.journal(daemon), [])

    # MARK: streams

    def test_sse_events_arrive_in_order_no_earlier_than_their_delays(self):
        daemon = self.start()
        started = time.monotonic()
        with open_stream(daemon.port, "/sse") as sock:
            status, headers, rest = read_head(sock, started + 10)
            self.assertEqual(status, 200)
            self.assertEqual(headers["content-type"], "text/event-stream")
            self.assertEqual(headers["transfer-encoding"], "chunked")
            chunks = read_chunked(PushBack(sock, rest), started + 10)
        self.assertEqual([c[1] for c in chunks], [
            b"event: first\nid: 1\ndata: one\n\n",
            b"id: 2\ndata: two\ndata: lines\n\n",
            b": ping\nid: 3\nretry: 500\ndata: three\n\n",
        ])
        # Lower bounds only: each event no earlier than the sum of the delays before it.
        self.assertGreaterEqual(chunks[1][0] - started, 0.150)
        self.assertGreaterEqual(chunks[2][0] - started, 0.400)
        self.assertGreaterEqual(chunks[2][0] - chunks[0][0], 0.400 - 0.05)
        entry = self.journal(daemon)[0]
        self.assertEqual(entry["stream"], "events")
        self.assertEqual(entry["status"], 200)

    def test_journal_entry_is_written_before_the_first_byte(self):
        daemon = self.start()
        with open_stream(daemon.port, "/sse-late") as sock:
            status, _, _ = read_head(sock, time.monotonic() + 10)
            self.assertEqual(status, 200)
            deadline = time.monotonic() + 10
            while not self.journal(daemon) and time.monotonic() < deadline:
                time.sleep(0.01)
            entries = self.journal(daemon)
            self.assertEqual(len(entries), 1)
            self.assertEqual(entries[0]["stream"], "events")
            sock.settimeout(0.2)
            with self.assertRaises(socket.timeout):  # the only event is 30 s away: nothing yet
                sock.recv(1)

    def test_dribbled_body_arrives_in_the_stated_number_of_chunks(self):
        daemon = self.start()
        started = time.monotonic()
        with open_stream(daemon.port, "/drip-chunked") as sock:
            _, headers, rest = read_head(sock, started + 10)
            self.assertEqual(headers.get("transfer-encoding"), "chunked")
            self.assertNotIn("content-length", headers)
            chunks = read_chunked(PushBack(sock, rest), started + 10)
        self.assertEqual(len(chunks), 5)
        self.assertEqual(b"".join(c[1] for c in chunks), STUBS["stubs"][4]["responses"][0]["body"].encode())
        self.assertGreaterEqual(chunks[-1][0] - started, 0.400)

    def test_dribble_with_a_declared_length(self):
        daemon = self.start()
        started = time.monotonic()
        with open_stream(daemon.port, "/drip-length") as sock:
            _, headers, rest = read_head(sock, started + 10)
            self.assertEqual(headers["content-length"], "40")
            self.assertNotIn("transfer-encoding", headers)
            reads = [(time.monotonic(), rest)] if rest else []
            received = len(rest)
            while received < 40:
                sock.settimeout(10)
                data = sock.recv(65536)
                self.assertTrue(data)
                reads.append((time.monotonic(), data))
                received += len(data)
        # Four pieces 200 ms apart: each arrives in its own read (the pieces are far apart in time).
        self.assertEqual([len(r[1]) for r in reads], [10, 10, 10, 10])
        self.assertGreaterEqual(reads[-1][0] - started, 0.600)
        for earlier, later in zip(reads, reads[1:]):
            self.assertGreaterEqual(later[0] - earlier[0], 0.100)

    def test_throttled_body_takes_its_time(self):
        daemon = self.start()
        started = time.monotonic()
        status, _, body = call(daemon.port, "GET", "/throttle")
        elapsed = time.monotonic() - started
        self.assertEqual((status, body), (200, b"x" * 100))
        # 100 bytes at 200 B/s: ten 10-byte pieces 50 ms apart, the last no earlier than 450 ms.
        self.assertGreaterEqual(elapsed, 0.45)

    def test_a_thousand_streams_block_nothing_and_hanging_up_frees_everything(self):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < 2300:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
        daemon = self.start("--journal-limit", "1000")
        # Warm up: one stream start to finish, so lazily allocated buffers exist before the baseline.
        with open_stream(daemon.port, "/sse") as sock:
            _, _, rest = read_head(sock, time.monotonic() + 10)
            read_chunked(PushBack(sock, rest), time.monotonic() + 10)
        self.assertEqual(call(daemon.port, "GET", "/static")[2], b"static")
        baseline_fds = settled_fd_count(daemon)
        baseline_rss = daemon.rss_kb()

        after_rounds = []
        for round_number in range(3):
            socks = []
            try:
                for _ in range(1000):
                    socks.append(open_stream(daemon.port, "/sse-late"))
                for sock in socks:
                    status, _, _ = read_head(sock, time.monotonic() + 30)
                    self.assertEqual(status, 200)
                peak_fds, peak_rss = daemon.fd_count(), daemon.rss_kb()
                self.assertGreaterEqual(peak_fds, baseline_fds + 1000)
                # With a thousand streams open, a plain request is answered (the streams' only event is 30 s away).
                self.assertEqual(call(daemon.port, "GET", "/static")[2], b"static")
            finally:
                # Half hang up with a reset, half with a plain FIN.
                for index, sock in enumerate(socks):
                    if index % 2:
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    sock.close()
            deadline = time.monotonic() + 15
            while daemon.fd_count() > baseline_fds and time.monotonic() < deadline:
                time.sleep(0.05)  # polling with a deadline: the daemon closes 1000 sockets as the hang-ups arrive
            after_rounds.append(daemon.rss_kb())
            print(f"\n  round {round_number + 1}, 1000 streams: fds {baseline_fds} → {peak_fds} open → {daemon.fd_count()} after hang-up; "
                  f"RSS {baseline_rss} → {peak_rss} → {after_rounds[-1]} kB", file=sys.stderr)
            self.assertLessEqual(daemon.fd_count(), baseline_fds, "descriptors of hung-up streams are still open")
        # The allocator keeps freed pages, so RSS after the first round is the high-water mark; later
        # rounds must reuse it. The journal is held to 1000 entries, so from the first round on its memory
        # is fixed too (unbounded, it grew 0.7-1.2 MB a round and hid what this test looks for; with the
        # limit, six rounds stayed within 31.0-32.0 MB). A leak of even 1 KiB per stream would put *every*
        # later round over 1 MiB; under load the allocator's settling can do that once, so the smaller of
        # the two later growths is judged.
        growths = [after_rounds[1] - after_rounds[0], after_rounds[2] - after_rounds[1]]
        self.assertLess(min(growths), 1024, f"RSS grew in every round: {after_rounds}")
        self.assertLess(after_rounds[0] - baseline_rss, 16 * 1024)
        health = json.loads(call(daemon.port, "GET", "/__admin/health")[2])
        self.assertEqual(health.get("inFlight", 0), 0, health)
        # Every request is journaled once: the ring keeps the last 1000 (the third round's /static and 999
        # streams) and counts the rest (3000 streams, the warm-up stream and /static, one /static a round).
        listing = json.loads(call(daemon.port, "GET", "/__admin/requests")[2])
        self.assertEqual(sum(1 for e in listing["requests"] if e["path"] == "/sse-late"), 999)
        self.assertEqual(len(listing["requests"]) + listing["dropped"], 1000 * len(after_rounds) + 2 + len(after_rounds))
        self.assertTrue(daemon.alive())


if __name__ == "__main__":
    unittest.main()
