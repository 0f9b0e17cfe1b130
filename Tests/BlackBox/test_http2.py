"""HTTP/2 (issue 24) against the built binary: h2c with prior knowledge on the plain port, h2 by ALPN
on the HTTPS port (and HTTP/1.1 for a client that offers only that), the same stubs per stream, the
journal's `protocol` and `streamId`, and each HTTP/2 fault as the client sees it on the wire.

Real clients only: curl (--http2-prior-knowledge, --http2 over TLS), nghttp, and the `h2` package
driven over a plain or TLS socket (frame types and error codes).
"""
import json
import pathlib
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import unittest

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.settings
import hyperframe.frame

from Tests.BlackBox.blackbox import Daemon, request


def request_json(port, method, path, value):
    """A JSON request over HTTP/1.1: (status, decoded body, headers)."""
    status, headers, body = request(port, method, path, json.dumps(value).encode(), {"Content-Type": "application/json"})
    return status, json.loads(body), headers

STUBS = {
    "stubs": [
        {"id": "hello", "request": {"method": "GET", "path": "/hello"},
         "responses": [{"status": 200, "body": "hi\n", "headers": {"X-Kind": "hello", "Connection": "keep-alive"}}]},
        {"id": "seq", "request": {"method": "GET", "path": "/seq"},
         "responses": [{"status": 200, "body": "one"}, {"status": 201, "body": "two"}, {"status": 202, "body": "three"}]},
        {"id": "limited", "request": {"method": "GET", "path": "/limited"}, "rateLimit": {"limit": 2, "window": 60},
         "responses": [{"status": 200, "body": "ok"}]},
        {"id": "scenario-start", "request": {"method": "POST", "path": "/cart"}, "scenario": "cart",
         "whenState": "Started", "setState": "Full", "responses": [{"status": 201, "body": "added"}]},
        {"id": "scenario-full", "request": {"method": "GET", "path": "/cart"}, "scenario": "cart",
         "whenState": "Full", "responses": [{"status": 200, "body": "full"}]},
        {"id": "echo", "request": {"method": "POST", "path": "/echo"},
         "responses": [{"status": 200, "template": True, "body": "got {{request.body}} on {{request.path}}"}]},
        {"id": "fast", "request": {"method": "GET", "pathPattern": "^/fast/\\d+$"}, "responses": [{"status": 200, "body": "f"}]},
        {"id": "slow", "request": {"method": "GET", "pathPattern": "^/slow/\\d+$"},
         "responses": [{"status": 200, "body": "s", "delayMs": 1500}]},
        {"id": "wait", "request": {"method": "GET", "path": "/wait"}, "responses": [{"status": 200, "body": "w", "delayMs": 400}]},
        {"id": "dribble", "request": {"method": "GET", "path": "/dribble"},
         "responses": [{"status": 200, "body": "abcdefgh", "dribble": {"chunks": 4, "overMs": 300}}]},
        {"id": "sse", "request": {"method": "GET", "path": "/sse"},
         "responses": [{"status": 200, "events": [{"data": "a"}, {"data": "b", "delayMs": 200}]}]},
        {"id": "reason", "request": {"method": "GET", "path": "/reason"},
         "responses": [{"status": 202, "statusMessage": "Queued Up", "body": "q"}]},
        {"id": "rst", "request": {"method": "GET", "path": "/rst"}, "responses": [{"status": 200, "fault": "rst-stream"}]},
        {"id": "rst-refused", "request": {"method": "GET", "path": "/rst-refused"},
         "responses": [{"status": 200, "fault": "rst-stream-refused"}]},
        {"id": "rst-cancel", "request": {"method": "GET", "path": "/rst-cancel"},
         "responses": [{"status": 200, "fault": "rst-stream-cancel"}]},
        {"id": "rst-after", "request": {"method": "GET", "path": "/rst-after"},
         "responses": [{"status": 503, "body": "never", "headers": {"X-Part": "head"}, "fault": "rst-stream-after-headers"}]},
        {"id": "rst-refused-after", "request": {"method": "GET", "path": "/rst-refused-after"},
         "responses": [{"status": 200, "body": "never", "headers": {"X-Part": "head"},
                        "fault": {"rstStream": {"errorCode": "REFUSED_STREAM", "afterHeaders": True}}}]},
        {"id": "rst-cancel-after", "request": {"method": "GET", "path": "/rst-cancel-after"},
         "responses": [{"status": 202, "fault": {"rstStream": {"errorCode": "CANCEL", "afterHeaders": True}}}]},
        {"id": "rst-calm", "request": {"method": "GET", "path": "/rst-calm"},
         "responses": [{"status": 200, "fault": {"rstStream": {"errorCode": "ENHANCE_YOUR_CALM"}}}]},
        {"id": "goaway-this", "request": {"method": "GET", "path": "/goaway-this"},
         "responses": [{"fault": {"goaway": {"lastStreamId": "this"}}}]},
        {"id": "goaway-zero-cut", "request": {"method": "GET", "path": "/goaway-zero-cut"},
         "responses": [{"fault": {"goaway": {"lastStreamId": 0, "errorCode": "ENHANCE_YOUR_CALM", "inFlight": "cut"}}}]},
        {"id": "goaway", "request": {"method": "GET", "path": "/goaway"}, "responses": [{"status": 200, "fault": "goaway"}]},
        {"id": "goaway-now", "request": {"method": "GET", "path": "/goaway-now"},
         "responses": [{"status": 200, "fault": "goaway-now"}]},
        {"id": "stall", "request": {"method": "GET", "path": "/stall"},
         "responses": [{"status": 200, "body": "never arrives", "fault": "flow-control-stall"}]},
        {"id": "reset", "request": {"method": "GET", "path": "/reset"}, "responses": [{"status": 200, "fault": "connection-reset"}]},
        {"id": "ctr", "request": {"method": "GET", "path": "/ctr"},
         "responses": [{"status": 200, "body": "first"}, {"status": 200, "body": "second"}]},
        {"id": "goaway-later", "request": {"method": "GET", "path": "/goaway-later"},
         "responses": [{"status": 200, "fault": "goaway", "delayMs": 400}]},
        {"id": "cookie", "request": {"method": "GET", "path": "/cookie", "headers": {"Cookie": "theme=dark; session=abc"}},
         "responses": [{"status": 200, "template": True, "body": "{{request.headers.cookie}}"}]},
    ]
}


def curl(*args):
    """Runs curl (silent, errors shown); returns (exit code, stdout, stderr)."""
    done = subprocess.run(["curl", "-sS", "--max-time", "20", *args], capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout, done.stderr


class H2Client:
    """An `h2` client connection over a socket (plain: prior knowledge; TLS: ALPN `h2`). Events are
    read with a deadline; each test asserts on the frames the server sent."""

    def __init__(self, port, context=None, timeout=20.0):
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock = context.wrap_socket(raw, server_hostname="127.0.0.1") if context else raw
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.events = []
        self.closed = False
        self.flush()
        self.pending = b""  # bytes of an incomplete frame
        self.terminated = False  # a GOAWAY arrived: h2 takes no more frames, so they are read here
        self.responses = {}  # stream id -> {"status", "headers", "fields", "body", "ended", "reset", "ended_at"}
        self.goaways = []  # (arrival time, last-stream id, error code) of every GOAWAY, in order

    def flush(self):
        data = self.conn.data_to_send()
        if data and not self.closed:
            try:
                self.sock.sendall(data)
            except (ConnectionResetError, BrokenPipeError, ssl.SSLError):  # the server reset or closed it
                self.closed = True

    def request(self, path, method="GET", body=b"", headers=(), send=True):
        """Opens a stream; with `send` False its frames wait for the next `flush()` (one write for several)."""
        stream = self.conn.get_next_available_stream_id()
        fields = [(":method", method), (":path", path), (":scheme", "http"), (":authority", "127.0.0.1"), *headers]
        self.conn.send_headers(stream, fields, end_stream=not body)
        if body:
            self.conn.send_data(stream, body, end_stream=True)
        if send:
            self.flush()
        self.responses[stream] = {"status": None, "headers": {}, "fields": None, "body": b"", "ended": False,
                                  "reset": None}
        return stream

    def request_after_goaway(self, path):
        """Opens a stream after a GOAWAY arrived, as a client whose HEADERS crossed it would have: `h2`
        refuses to once it has read the GOAWAY, so the HEADERS frame is built here."""
        stream = max(self.responses, default=-1) + 2
        frame = hyperframe.frame.HeadersFrame(stream)
        frame.data = self.conn.encoder.encode(
            [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "127.0.0.1")])
        frame.flags.add("END_HEADERS")
        frame.flags.add("END_STREAM")
        self.sock.sendall(frame.serialize())
        self.responses[stream] = {"status": None, "headers": {}, "fields": None, "body": b"", "ended": False,
                                  "reset": None}
        return stream

    def pump(self, until, timeout=15.0):
        """Reads and handles frames until `until()` holds or the connection closes; returns `until()`."""
        deadline = time.monotonic() + timeout
        while not until() and not self.closed and time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except (socket.timeout, TimeoutError):
                break
            except (ConnectionResetError, ssl.SSLError):
                self.closed = True
                break
            if not data:
                self.closed = True
                break
            self.pending += data
            # One frame at a time: the `h2` package treats GOAWAY as the end, while RFC 9113 §6.8 lets
            # the streams up to its last-stream id finish; their frames are decoded here instead.
            while len(self.pending) >= 9:
                length = int.from_bytes(self.pending[:3], "big")
                if len(self.pending) < 9 + length:
                    break
                frame, self.pending = self.pending[:9 + length], self.pending[9 + length:]
                if self.terminated:
                    self.after_goaway(frame)
                    continue
                for event in self.conn.receive_data(frame):
                    self.events.append((time.monotonic(), event))
                    self.handle(event)
                    if isinstance(event, h2.events.ConnectionTerminated):
                        self.terminated = True
            if not self.terminated:
                self.flush()
        return until()

    def after_goaway(self, raw):
        frame, length = hyperframe.frame.Frame.parse_frame_header(memoryview(raw[:9]))
        frame.parse_body(memoryview(raw[9:9 + length]))
        if isinstance(frame, hyperframe.frame.GoAwayFrame):
            self.goaways.append((time.monotonic(), frame.last_stream_id, frame.error_code))
            return
        state = self.responses.get(frame.stream_id)
        if state is None:
            return
        if isinstance(frame, hyperframe.frame.HeadersFrame):
            fields = self.conn.decoder.decode(frame.data, raw=False)
            headers = dict(fields)
            state["status"], state["headers"], state["fields"] = int(headers[":status"]), headers, list(fields)
        elif isinstance(frame, hyperframe.frame.DataFrame):
            state["body"] += frame.data
        elif isinstance(frame, hyperframe.frame.RstStreamFrame):
            state["reset"] = frame.error_code
        if "END_STREAM" in frame.flags:
            state["ended"], state["ended_at"] = True, time.monotonic()

    def handle(self, event):
        if isinstance(event, h2.events.ConnectionTerminated):
            self.goaways.append((time.monotonic(), event.last_stream_id, event.error_code))
        state = self.responses.get(getattr(event, "stream_id", None))
        if isinstance(event, h2.events.ResponseReceived) and state is not None:
            headers = dict(event.headers)
            state["status"] = int(headers[":status"])
            state["headers"] = headers
            state["fields"] = list(event.headers)  # the field block in order, repeats kept
        elif isinstance(event, h2.events.DataReceived) and state is not None:
            state["body"] += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded) and state is not None:
            state["ended"] = True
            state["ended_at"] = time.monotonic()
        elif isinstance(event, h2.events.StreamReset) and state is not None:
            state["reset"] = event.error_code

    def of_type(self, kind):
        return [event for _, event in self.events if isinstance(event, kind)]

    def done(self, *streams):
        return lambda: all(self.responses[s]["ended"] or self.responses[s]["reset"] is not None for s in streams)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class HTTP2Daemon:
    """A daemon with --https and a journal, in its own temporary directory."""

    def __init__(self, add_cleanup, *extra):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="understudy-h2-"))
        add_cleanup(shutil.rmtree, self.work, True)
        (self.work / "stubs.json").write_text(json.dumps(STUBS))
        self.ca = self.work / "ca.pem"
        self.journal = self.work / "journal.jsonl"
        self.daemon = Daemon([str(self.work / "stubs.json"), "--https", "--tls-ca-file", str(self.ca),
                              "--journal", str(self.journal), *extra], str(self.work / "stderr.txt"))
        add_cleanup(self.daemon.stop)
        self.port = self.daemon.port
        self.https_port = self.daemon.https_port
        self.plain = f"http://127.0.0.1:{self.port}"
        self.url = f"https://127.0.0.1:{self.https_port}"

    def requests(self, path=None):
        """The live journal (admin API), oldest first."""
        entries = sorted(self.daemon.get_json("/__admin/requests")["requests"], key=lambda entry: entry["seq"])
        return [entry for entry in entries if path is None or entry["path"] == path]

    def wait_requests(self, path, count):
        """Waits (the admin long poll) until `count` requests to `path` are journaled; returns them."""
        answer = self.daemon.get_json(f"/__admin/requests/wait?path={path}&count={count}&timeoutMs=10000")
        return sorted(answer["requests"], key=lambda entry: entry["seq"])

    def tls_context(self, protocols=("h2",)):
        context = ssl.create_default_context(cafile=str(self.ca))
        context.set_alpn_protocols(list(protocols))
        return context

    def client(self, tls=False):
        client = H2Client(self.https_port if tls else self.port, self.tls_context() if tls else None)
        return client


class HTTP2ClientsTests(unittest.TestCase):
    """curl and nghttp: h2c, h2 by ALPN, and the fallback to HTTP/1.1."""

    @classmethod
    def setUpClass(cls):
        cls.server = HTTP2Daemon(cls.addClassCleanup)

    def test_curl_prior_knowledge_speaks_h2c_and_the_journal_says_so(self):
        code, out, err = curl("--http2-prior-knowledge", "-D", "-", "-w", "|%{http_version}", f"{self.server.plain}/hello")
        self.assertEqual(code, 0, err)
        head, _, rest = out.partition("\n\n")  # text mode: CRLF read as LF
        self.assertTrue(head.startswith("HTTP/2 200"), head)
        self.assertIn("x-kind: hello", head)
        self.assertNotIn("connection:", head.lower())  # connection-specific fields are not HTTP/2 (RFC 9113 §8.2.2)
        self.assertEqual(rest, "hi\n|2")
        code, out, err = curl("-w", "|%{http_version}", f"{self.server.plain}/hello")  # HTTP/1.1 stays the default
        self.assertEqual((code, out), (0, "hi\n|1.1"), err)
        entries = self.server.requests("/hello")[-2:]
        self.assertEqual([entry.get("protocol") for entry in entries], ["HTTP/2", None])
        self.assertEqual(entries[0]["streamId"], 1)
        self.assertNotIn("streamId", entries[1])
        self.assertEqual(entries[0]["headers"]["host"], [f"127.0.0.1:{self.server.port}"])  # from :authority
        self.assertEqual(entries[0]["response"]["status"], 200)
        # HAR export carries the protocol as httpVersion.
        har = self.server.daemon.get_json("/__admin/requests.har?path=/hello")
        versions = [(e["request"]["httpVersion"], e["response"]["httpVersion"]) for e in har["log"]["entries"]]
        self.assertIn(("HTTP/2", "HTTP/2"), versions)
        self.assertIn(("HTTP/1.1", "HTTP/1.1"), versions)

    def test_alpn_picks_h2_on_https_and_http11_for_a_client_offering_only_that(self):
        code, out, err = curl("--cacert", str(self.server.ca), "--http2", "-w", "|%{http_version}", f"{self.server.url}/hello")
        self.assertEqual((code, out), (0, "hi\n|2"), err)
        code, out, err = curl("--cacert", str(self.server.ca), "--http1.1", "-w", "|%{http_version}", f"{self.server.url}/hello")
        self.assertEqual((code, out), (0, "hi\n|1.1"), err)
        for offered, chosen in ((["h2", "http/1.1"], "h2"), (["http/1.1"], "http/1.1"), (["spdy/3"], None)):
            raw = socket.create_connection(("127.0.0.1", self.server.https_port), timeout=20)
            with self.server.tls_context(offered).wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                self.assertEqual(tls.selected_alpn_protocol(), chosen, offered)
        entries = self.server.requests("/hello")[-2:]
        self.assertEqual([(entry.get("scheme"), entry.get("protocol")) for entry in entries],
                         [("https", "HTTP/2"), ("https", None)])

    def test_nghttp_gets_every_stream_on_one_connection_over_h2c_and_tls(self):
        for base in (self.server.plain, self.server.url):
            done = subprocess.run(["nghttp", "-n", "-s", f"{base}/hello", f"{base}/wait", f"{base}/fast/1"],
                                  capture_output=True, text=True, timeout=30)
            self.assertEqual(done.returncode, 0, done.stderr + done.stdout)
            # -s prints one line per stream after the summary header: three 200s.
            self.assertEqual(done.stdout.count(" 200 "), 3, done.stdout)

    def test_paced_bodies_and_events_arrive_as_data_frames(self):
        code, out, err = curl("--http2-prior-knowledge", f"{self.server.plain}/dribble")
        self.assertEqual((code, out), (0, "abcdefgh"), err)
        code, out, err = curl("--cacert", str(self.server.ca), "--http2", f"{self.server.url}/sse")
        self.assertEqual((code, out), (0, "data: a\n\ndata: b\n\n"), err)

    def test_http2_faults_over_http11_end_the_request_unanswered_or_after_the_head(self):
        code, _, err = curl(f"{self.server.plain}/rst")
        self.assertEqual(code, 52, err)  # empty reply
        code, out, err = curl("-i", f"{self.server.plain}/rst-after")
        self.assertEqual(code, 18, err)  # transfer closed with outstanding read data
        self.assertTrue(out.startswith("HTTP/1.1 503"), out)
        # The object form likewise: after the headers as `close-after-headers`, a GOAWAY as `empty-response`.
        code, out, err = curl("-i", f"{self.server.plain}/rst-refused-after")
        self.assertEqual(code, 18, err)
        self.assertTrue(out.startswith("HTTP/1.1 200"), out)
        code, _, err = curl(f"{self.server.plain}/goaway-this")
        self.assertEqual(code, 52, err)
        # No RST_STREAM or GOAWAY went out, so the journal names none.
        for path in ("/rst-refused-after", "/goaway-this"):
            entry = self.server.requests(path)[-1]
            self.assertEqual(entry["outcome"], "fault")
            self.assertNotIn("errorCode", entry)
            self.assertNotIn("lastStreamId", entry)


class HTTP2StreamsTests(unittest.TestCase):
    """The `h2` package over a socket: per-stream behaviour and the faults' frames."""

    def setUp(self):
        self.server = HTTP2Daemon(self.addCleanup)

    def client(self, tls=False):
        client = self.server.client(tls)
        self.addCleanup(client.close)
        return client

    def test_sequences_rate_limits_scenarios_and_templates_per_stream_as_over_http11(self):
        client = self.client()
        statuses = []
        for _ in range(3):
            stream = client.request("/seq")
            self.assertTrue(client.pump(client.done(stream)))
            statuses.append((client.responses[stream]["status"], client.responses[stream]["body"]))
        self.assertEqual(statuses, [(200, b"one"), (201, b"two"), (202, b"three")])
        streams = [client.request("/limited") for _ in range(3)]
        self.assertTrue(client.pump(client.done(*streams)))
        self.assertEqual(sorted(client.responses[s]["status"] for s in streams), [200, 200, 429])
        first = client.request("/cart", "POST", b"x")
        self.assertTrue(client.pump(client.done(first)))
        second = client.request("/cart")
        self.assertTrue(client.pump(client.done(second)))
        self.assertEqual([client.responses[s]["status"] for s in (first, second)], [201, 200])
        echo = client.request("/echo", "POST", b"payload")
        self.assertTrue(client.pump(client.done(echo)))
        self.assertEqual(client.responses[echo]["body"], b"got payload on /echo")
        # statusMessage has no place in HTTP/2: the status alone goes out, and nothing claims a phrase.
        reason = client.request("/reason")
        self.assertTrue(client.pump(client.done(reason)))
        self.assertEqual(client.responses[reason]["status"], 202)
        # The journal: each request once, with its stream id, as HTTP/1.1 journals it.
        entries = [e for e in self.server.requests() if not e["path"].startswith("/__admin")]
        self.assertEqual([e["path"] for e in entries], ["/seq"] * 3 + ["/limited"] * 3 + ["/cart", "/cart", "/echo", "/reason"])
        self.assertEqual({e["protocol"] for e in entries}, {"HTTP/2"})
        self.assertEqual([e["streamId"] for e in entries], list(range(1, 2 * len(entries), 2)))
        self.assertEqual([e["responseIndex"] for e in entries[:3]], [0, 1, 2])
        self.assertEqual(sum(1 for e in entries if e["rateLimited"]), 1)
        self.assertNotIn("reason", entries[-1]["response"])

    def test_100_concurrent_streams_on_one_connection_and_delayed_ones_hold_no_other(self):
        client = self.client(tls=True)
        started = time.monotonic()
        slow = [client.request(f"/slow/{n}") for n in range(10)]
        fast = [client.request(f"/fast/{n}") for n in range(90)]
        self.assertTrue(client.pump(client.done(*fast), timeout=20))
        fast_done = max(client.responses[s]["ended_at"] for s in fast)
        self.assertTrue(client.pump(client.done(*slow), timeout=20))
        self.assertEqual({client.responses[s]["status"] for s in slow + fast}, {200})
        first_slow = min(client.responses[s]["ended_at"] for s in slow)
        self.assertLess(fast_done, first_slow, "a fast stream waited for a delayed one")
        self.assertGreaterEqual(first_slow - started, 1.5)  # the delay is a lower bound
        self.assertEqual(len(self.server.requests()), 100)  # each once

    def test_a_long_poll_on_one_stream_is_answered_by_a_request_on_another(self):
        client = self.client()
        poll = client.request("/__admin/requests/wait?path=/fast/7&count=1&timeoutMs=10000")
        request = client.request("/fast/7")
        self.assertTrue(client.pump(client.done(poll, request)))
        answer = json.loads(client.responses[poll]["body"])
        self.assertEqual((answer["timedOut"], [e["streamId"] for e in answer["requests"]]), (False, [request]))

    def test_rst_stream_faults_carry_their_error_codes_and_other_streams_continue(self):
        client = self.client()
        expected = {"/rst": h2.errors.ErrorCodes.INTERNAL_ERROR, "/rst-refused": h2.errors.ErrorCodes.REFUSED_STREAM,
                    "/rst-cancel": h2.errors.ErrorCodes.CANCEL}
        streams = {path: client.request(path) for path in expected}
        ok = client.request("/hello")
        self.assertTrue(client.pump(client.done(ok, *streams.values())))
        for path, code in expected.items():
            state = client.responses[streams[path]]
            self.assertEqual((state["status"], state["reset"]), (None, code), path)  # no HEADERS, then RST_STREAM
        self.assertEqual((client.responses[ok]["status"], client.responses[ok]["body"]), (200, b"hi\n"))
        after = client.request("/rst-after")
        self.assertTrue(client.pump(client.done(after)))
        state = client.responses[after]
        self.assertEqual((state["status"], state["headers"].get("x-part"), state["body"], state["reset"]),
                         (503, "head", b"", h2.errors.ErrorCodes.INTERNAL_ERROR))
        entries = [e for e in self.server.requests() if e["path"].startswith("/rst")]
        self.assertEqual(len(entries), 4)  # each once
        faults = {e["path"]: (e["fault"], e["errorCode"], e["status"]) for e in entries}
        self.assertEqual(faults, {"/rst": ("rst-stream", "INTERNAL_ERROR", None),
                                  "/rst-refused": ("rst-stream-refused", "REFUSED_STREAM", None),
                                  "/rst-cancel": ("rst-stream-cancel", "CANCEL", None),
                                  "/rst-after": ("rst-stream-after-headers", "INTERNAL_ERROR", 503)})
        self.assertNotIn("lastStreamId", entries[0])
        hello = self.server.requests("/hello")[-1]
        self.assertNotIn("errorCode", hello)  # only HTTP/2 faults carry one

    def test_rst_stream_object_form_combines_any_error_code_with_before_or_after_the_headers(self):
        client = self.client(tls=True)
        paths = ("/rst-refused-after", "/rst-cancel-after", "/rst-calm")
        streams = {path: client.request(path) for path in paths}
        ok = client.request("/hello")
        self.assertTrue(client.pump(client.done(ok, *streams.values())))
        seen = {path: (client.responses[s]["status"], client.responses[s]["body"], client.responses[s]["reset"])
                for path, s in streams.items()}
        self.assertEqual(seen, {
            "/rst-refused-after": (200, b"", h2.errors.ErrorCodes.REFUSED_STREAM),  # HEADERS, then RST_STREAM
            "/rst-cancel-after": (202, b"", h2.errors.ErrorCodes.CANCEL),
            "/rst-calm": (None, b"", h2.errors.ErrorCodes.ENHANCE_YOUR_CALM),  # RST_STREAM, no HEADERS
        })
        self.assertEqual(client.responses[streams["/rst-refused-after"]]["headers"].get("x-part"), "head")
        self.assertEqual((client.responses[ok]["status"], client.responses[ok]["body"]), (200, b"hi\n"))
        self.assertFalse(client.closed)  # only those streams were reset
        entries = {e["path"]: e for e in self.server.requests() if e["path"] in paths}
        self.assertEqual(len([e for e in self.server.requests() if e["path"] in paths]), 3)  # each once
        self.assertEqual({p: (e["fault"], e["errorCode"], e["status"], e["outcome"], e["streamId"])
                          for p, e in entries.items()}, {
            "/rst-refused-after": ("rst-stream-after-headers", "REFUSED_STREAM", 200, "fault", streams["/rst-refused-after"]),
            "/rst-cancel-after": ("rst-stream-after-headers", "CANCEL", 202, "fault", streams["/rst-cancel-after"]),
            "/rst-calm": ("rst-stream", "ENHANCE_YOUR_CALM", None, "fault", streams["/rst-calm"]),
        })
        self.assertEqual(entries["/rst-refused-after"]["response"]["headers"]["x-part"], ["head"])

    def test_goaway_names_the_previous_stream_and_lets_in_flight_streams_finish(self):
        client = self.client()
        waiting = client.request("/wait")  # 400 ms: in flight when the GOAWAY goes out
        going = client.request("/goaway")
        self.assertTrue(client.pump(lambda: client.of_type(h2.events.ConnectionTerminated)))
        goaway = client.of_type(h2.events.ConnectionTerminated)[0]
        self.assertEqual((goaway.error_code, goaway.last_stream_id), (h2.errors.ErrorCodes.NO_ERROR, waiting))
        self.assertGreater(going, goaway.last_stream_id)  # so the client knows it may retry it
        self.assertTrue(client.pump(lambda: client.closed, timeout=15))
        self.assertEqual((client.responses[waiting]["status"], client.responses[waiting]["body"]), (200, b"w"))
        self.assertIsNone(client.responses[going]["status"])
        self.assertEqual([(e["fault"], e["errorCode"], e["lastStreamId"]) for e in self.server.requests("/goaway")],
                         [("goaway", "NO_ERROR", waiting)])

    def test_goaway_naming_this_stream_lets_the_others_finish_and_never_answers_it(self):
        client = self.client()
        waiting = client.request("/wait")
        going = client.request("/goaway-this")
        self.assertTrue(client.pump(lambda: client.of_type(h2.events.ConnectionTerminated)))
        goaway = client.of_type(h2.events.ConnectionTerminated)[0]
        # The client is told this stream was processed (so it must not retry it blindly).
        self.assertEqual((goaway.error_code, goaway.last_stream_id), (h2.errors.ErrorCodes.NO_ERROR, going))
        self.assertTrue(client.pump(lambda: client.closed, timeout=15))
        self.assertEqual((client.responses[waiting]["status"], client.responses[waiting]["body"]), (200, b"w"))
        self.assertEqual((client.responses[going]["status"], client.responses[going]["ended"]), (None, False))
        entries = self.server.requests("/goaway-this")
        self.assertEqual([(e["fault"], e["errorCode"], e["lastStreamId"], e["outcome"], e["status"]) for e in entries],
                         [("goaway", "NO_ERROR", going, "fault", None)])
        self.assertEqual([e["outcome"] for e in self.server.requests("/wait")], ["answered"])

    def test_goaway_object_form_sends_its_stream_id_and_code_and_can_cut_in_flight_streams(self):
        client = self.client(tls=True)
        waiting = client.request("/wait")
        client.request("/goaway-zero-cut")
        self.assertTrue(client.pump(lambda: client.closed, timeout=15))
        goaway = client.of_type(h2.events.ConnectionTerminated)[0]
        self.assertEqual((goaway.error_code, goaway.last_stream_id), (h2.errors.ErrorCodes.ENHANCE_YOUR_CALM, 0))
        self.assertIsNone(client.responses[waiting]["status"])
        self.assertEqual([e["outcome"] for e in self.server.wait_requests("/wait", 1)], ["client-gone"])
        entries = self.server.requests("/goaway-zero-cut")
        self.assertEqual([(e["fault"], e["errorCode"], e["lastStreamId"]) for e in entries],
                         [("goaway-now", "ENHANCE_YOUR_CALM", 0)])

    def test_goaway_now_cuts_in_flight_streams(self):
        client = self.client(tls=True)
        waiting = client.request("/wait")
        client.request("/goaway-now")
        self.assertTrue(client.pump(lambda: client.closed, timeout=15))
        goaway = client.of_type(h2.events.ConnectionTerminated)[0]
        self.assertEqual((goaway.error_code, goaway.last_stream_id), (h2.errors.ErrorCodes.INTERNAL_ERROR, waiting))
        self.assertIsNone(client.responses[waiting]["status"])
        # The cut stream is journaled when the connection closes, as a request whose client is gone.
        self.assertEqual([e["outcome"] for e in self.server.wait_requests("/wait", 1)], ["client-gone"])
        self.assertEqual([(e["fault"], e["errorCode"], e["lastStreamId"]) for e in self.server.requests("/goaway-now")],
                         [("goaway-now", "INTERNAL_ERROR", waiting)])

    def test_streams_after_a_goaway_fault_in_the_same_read_are_ignored_not_answered_journaled_or_counted(self):
        # RFC 9113 §6.8: streams above the GOAWAY's last-stream id are ignored by its sender; the client
        # retries them, so the server must not have answered them, journaled them or moved a sequence.
        for path, code in (("/goaway", h2.errors.ErrorCodes.NO_ERROR),
                           ("/goaway-now", h2.errors.ErrorCodes.INTERNAL_ERROR)):
            client = self.client()
            self.assertTrue(client.pump(lambda: client.of_type(h2.events.RemoteSettingsChanged)))
            going = client.request(path, send=False)
            later = client.request("/ctr", send=False)
            client.flush()  # both HEADERS in one write
            self.assertTrue(client.pump(lambda: client.closed, timeout=15), path)
            self.assertEqual([(last, error) for _, last, error in client.goaways], [(0, code)], path)
            self.assertGreater(later, client.goaways[0][1])
            self.assertEqual((client.responses[later]["status"], client.responses[later]["body"]), (None, b""), path)
            self.assertEqual([(e["fault"], e["lastStreamId"], e["streamId"]) for e in self.server.requests(path)],
                             [(path.lstrip("/"), 0, going)])
        self.assertEqual(self.server.requests("/ctr"), [])  # ignored, so never journaled
        # The client retries as the GOAWAY invites: the stub's sequence has not moved.
        retry = self.client()
        stream = retry.request("/ctr")
        self.assertTrue(retry.pump(retry.done(stream)))
        self.assertEqual((retry.responses[stream]["status"], retry.responses[stream]["body"]), (200, b"first"))
        self.assertEqual([(e["outcome"], e["responseIndex"]) for e in self.server.requests("/ctr")], [("answered", 0)])

    def test_a_goaway_sent_after_a_later_stream_was_answered_names_that_stream(self):
        client = self.client()
        going = client.request("/goaway-later")  # its GOAWAY goes out 400 ms later
        later = client.request("/ctr")  # answered meanwhile
        self.assertTrue(client.pump(lambda: client.closed, timeout=15))
        self.assertEqual((client.responses[later]["status"], client.responses[later]["body"]), (200, b"first"))
        # The server acted on stream 3, so the GOAWAY may not tell the client it did not (RFC 9113 §6.8).
        self.assertEqual([(last, error) for _, last, error in client.goaways], [(later, h2.errors.ErrorCodes.NO_ERROR)])
        self.assertIsNone(client.responses[going]["status"])
        self.assertEqual([(e["fault"], e["lastStreamId"]) for e in self.server.requests("/goaway-later")],
                         [("goaway", later)])
        self.assertEqual([e["outcome"] for e in self.server.requests("/ctr")], ["answered"])

    def test_split_cookie_fields_are_joined_for_matching_and_templates_and_journaled_as_received(self):
        split = [("cookie", "theme=dark"), ("cookie", "session=abc")]
        for tls in (False, True):
            client = self.client(tls)
            stream = client.request("/cookie", headers=split)
            self.assertTrue(client.pump(client.done(stream)))
            # RFC 9113 §8.2.3: joined with "; " before the request is handed on, so the header matcher
            # written for HTTP/1.1's one Cookie field matches, and the template renders the whole value.
            self.assertEqual((client.responses[stream]["status"], client.responses[stream]["body"]),
                             (200, b"theme=dark; session=abc"), f"tls={tls}")
        status, _, body = request(self.server.port, "GET", "/cookie", b"", {"Cookie": "theme=dark; session=abc"})
        self.assertEqual((status, body), (200, b"theme=dark; session=abc"))
        entries = self.server.requests("/cookie")
        # The journal keeps the fields as they came over the wire: two over HTTP/2, one over HTTP/1.1.
        self.assertEqual([e["headers"]["cookie"] for e in entries],
                         [["theme=dark", "session=abc"], ["theme=dark", "session=abc"], ["theme=dark; session=abc"]])
        self.assertEqual([e["outcome"] for e in entries], ["answered"] * 3)

    def test_flow_control_stall_sends_headers_and_never_the_body(self):
        client = self.client()
        stalled = client.request("/stall")
        self.assertTrue(client.pump(lambda: client.responses[stalled]["status"] is not None))
        ok = client.request("/hello")  # the connection is not stalled, only that stream
        self.assertTrue(client.pump(client.done(ok)))
        self.assertFalse(client.pump(client.done(stalled), timeout=1.0))
        self.assertEqual((client.responses[stalled]["body"], client.responses[stalled]["ended"]), (b"", False))
        entry = [e for e in self.server.requests() if e["path"] == "/stall"][0]
        self.assertEqual((entry["fault"], entry["status"]), ("flow-control-stall", 200))

    def test_sigterm_lets_a_delayed_stream_finish_then_the_daemon_exits(self):
        client = self.client()
        waiting = client.request("/wait")
        # A PING after the request: its ACK proves the server has read the HEADERS before it.
        client.conn.ping(b"in-order")
        client.flush()
        self.assertTrue(client.pump(lambda: client.of_type(h2.events.PingAckReceived)))
        self.server.daemon.process.send_signal(signal.SIGTERM)
        self.assertTrue(client.pump(client.done(waiting)))
        self.assertEqual((client.responses[waiting]["status"], client.responses[waiting]["body"]), (200, b"w"))
        self.assertEqual(self.server.daemon.process.wait(15), 0)

    def test_connection_reset_over_http2_resets_the_whole_connection(self):
        client = self.client()
        client.request("/wait")
        client.request("/reset")
        self.assertTrue(client.pump(lambda: client.closed, timeout=15))
        self.assertEqual(client.of_type(h2.events.ConnectionTerminated), [])  # a TCP reset, no GOAWAY


def documented_faults():
    """Every `fault` value the stub-format reference lists (its `fault` values row), and the object
    form's variants: a new fault in the reference is checked here without a change to this file."""
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "stub-format.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `fault` values |"))
    named = {name: name for name in re.findall(r'`"([a-z-]+)"`', row)}
    objects = {
        "rst-object": {"rstStream": {"errorCode": "ENHANCE_YOUR_CALM"}},
        "rst-object-after-headers": {"rstStream": {"errorCode": "CANCEL", "afterHeaders": True}},
        "goaway-object": {"goaway": {"lastStreamId": "this", "errorCode": "ENHANCE_YOUR_CALM", "inFlight": "cut"}},
    }
    return {**named, **objects}


def http1_head(port, path):
    """GET `path` over HTTP/1.1 on a raw socket; the response head as sent, read up to its blank line:
    (status, [(name, value)]), or None when the bytes before the close were not a head."""
    data = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        while b"\r\n\r\n" not in data:  # flow-control-stall sends its head and keeps the connection open
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
    if not data.startswith(b"HTTP/1.1 ") or b"\r\n\r\n" not in data:
        return None
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    fields = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]
    return int(lines[0].split(" ")[1]), fields


class FaultHeadTruthTests(unittest.TestCase):
    """The journal's response head for every fault, over every protocol, is the head that went on the
    wire: read from the socket over HTTP/1.1, from the HEADERS frame's field block over h2c and h2."""

    PROTOCOLS = ("http1", "h2c", "h2")

    @classmethod
    def setUpClass(cls):
        cls.faults = documented_faults()
        stubs = []
        for protocol in cls.PROTOCOLS:
            for name, fault in cls.faults.items():
                for variant, body in (("body", {"body": "never-sent"}), ("empty", {})):
                    response = {"status": 200, "headers": {"X-Part": "head", "Cache-Control": "no-store"},
                                "fault": fault, **body}
                    stubs.append({"request": {"method": "GET", "path": f"/{protocol}/{name}/{variant}"},
                                  "responses": [response]})
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="understudy-h2-heads-"))
        cls.addClassCleanup(shutil.rmtree, cls.work, True)
        (cls.work / "stubs.json").write_text(json.dumps({"stubs": stubs}))
        cls.ca = cls.work / "ca.pem"
        cls.daemon = Daemon([str(cls.work / "stubs.json"), "--https", "--tls-ca-file", str(cls.ca), "--quiet"],
                            str(cls.work / "stderr.txt"))
        cls.addClassCleanup(cls.daemon.stop)

    def wire_head(self, protocol, path):
        if protocol == "http1":
            return http1_head(self.daemon.port, path)
        context = None
        if protocol == "h2":
            context = ssl.create_default_context(cafile=str(self.ca))
            context.set_alpn_protocols(["h2"])
        client = H2Client(self.daemon.https_port if context else self.daemon.port, context)
        self.addCleanup(client.close)
        stream = client.request(path)
        state = client.responses[stream]
        self.assertTrue(client.pump(lambda: state["status"] is not None or state["reset"] is not None or client.closed),
                        path)
        if state["status"] is None:
            return None
        return state["status"], [(name, value) for name, value in state["fields"] if name != ":status"]

    def journaled_head(self, path):
        answer = self.daemon.get_json(f"/__admin/requests/wait?path={path}&count=1&timeoutMs=10000")
        self.assertEqual(len(answer["requests"]), 1, path)  # journaled once
        entry = answer["requests"][0]
        self.assertEqual(entry["outcome"], "fault", path)
        if entry["response"] is None:
            return None
        return entry["response"]["status"], entry["response"]["headers"]

    def test_every_documented_fault_journals_the_head_it_sent_over_every_protocol(self):
        self.assertIn("flow-control-stall", self.faults)  # the reference's row was found
        self.assertGreaterEqual(len(self.faults), 16)
        for protocol in self.PROTOCOLS:
            for name in self.faults:
                for variant in ("body", "empty"):
                    path = f"/{protocol}/{name}/{variant}"
                    with self.subTest(path=path):
                        wire = self.wire_head(protocol, path)
                        journaled = self.journaled_head(path)
                        if wire is None:
                            self.assertIsNone(journaled)
                            continue
                        status, fields = wire
                        grouped = {}
                        for field, value in fields:
                            grouped.setdefault(field.lower(), []).append(value)
                        self.assertIsNotNone(journaled)
                        self.assertEqual(journaled[0], status)
                        self.assertEqual({key.lower(): value for key, value in journaled[1].items()}, grouped)
                        if protocol != "http1":  # HTTP/2 has no Date of its own to leave out
                            self.assertIn("date", grouped)


class HTTP2ShutdownTests(unittest.TestCase):
    """SIGTERM: every HTTP/2 connection gets a GOAWAY at once (RFC 9113 §6.8), idle or busy; streams
    opened during the drain are refused; streams in flight finish. The issue asks for the GOAWAY within
    100 ms: the bound here is 500 ms, for a loaded 2-core machine, still well below the 1.5 s answer a
    busy connection's GOAWAY used to wait for (and an idle one never got one)."""

    BOUND = 0.5

    def test_sigterm_sends_goaway_at_once_on_idle_connections_then_closes_them(self):
        server = HTTP2Daemon(self.addCleanup)
        clients = [server.client(), server.client(tls=True)]
        for client in clients:
            self.addCleanup(client.close)
            stream = client.request("/hello")
            self.assertTrue(client.pump(client.done(stream)))
        started = time.monotonic()
        server.daemon.process.send_signal(signal.SIGTERM)
        for client in clients:
            self.assertTrue(client.pump(lambda: client.goaways, timeout=10), "no GOAWAY before the close")
            arrived, _, code = client.goaways[0]
            self.assertLess(arrived - started, self.BOUND)
            self.assertEqual(code, h2.errors.ErrorCodes.NO_ERROR)
            self.assertTrue(client.pump(lambda: client.closed, timeout=10))
            # The last GOAWAY names the one stream answered on it.
            self.assertEqual(client.goaways[-1][1:], (1, h2.errors.ErrorCodes.NO_ERROR))
        self.assertEqual(server.daemon.process.wait(15), 0)

    def test_sigterm_sends_goaway_at_once_on_a_busy_connection_refuses_new_streams_and_finishes_in_flight_ones(self):
        server = HTTP2Daemon(self.addCleanup)
        client = server.client()
        self.addCleanup(client.close)
        slow = client.request("/slow/1")  # answered 1.5 s after it arrives
        # A PING after the request: its ACK proves the server has read the HEADERS before it.
        client.conn.ping(b"in-order")
        client.flush()
        self.assertTrue(client.pump(lambda: client.of_type(h2.events.PingAckReceived)))
        started = time.monotonic()
        server.daemon.process.send_signal(signal.SIGTERM)
        self.assertTrue(client.pump(lambda: client.goaways or client.responses[slow]["ended"], timeout=10))
        self.assertTrue(client.goaways, "no GOAWAY before the stream in flight was answered")
        arrived, _, code = client.goaways[0]
        self.assertLess(arrived - started, self.BOUND)
        self.assertEqual(code, h2.errors.ErrorCodes.NO_ERROR)
        self.assertFalse(client.responses[slow]["ended"])
        # A stream opened during the drain (its HEADERS crossed the GOAWAY) is refused, not processed.
        late = client.request_after_goaway("/fast/1")
        self.assertTrue(client.pump(client.done(slow, late), timeout=10))
        self.assertEqual((client.responses[late]["status"], client.responses[late]["reset"]),
                         (None, h2.errors.ErrorCodes.REFUSED_STREAM))
        self.assertEqual((client.responses[slow]["status"], client.responses[slow]["body"]), (200, b"s"))
        self.assertTrue(client.pump(lambda: client.closed, timeout=10))
        # The final GOAWAY names the stream answered, not the refused one.
        self.assertEqual(client.goaways[-1][1:], (slow, h2.errors.ErrorCodes.NO_ERROR))
        self.assertEqual(server.daemon.process.wait(15), 0)
        entries = [json.loads(line) for line in server.journal.read_text().splitlines()]
        self.assertEqual([(e["path"], e["outcome"]) for e in entries], [("/slow/1", "answered")])


class HTTP2LimitsTests(unittest.TestCase):
    def test_max_concurrent_streams_is_announced_and_extra_streams_are_refused_not_the_connection(self):
        server = HTTP2Daemon(self.addCleanup, "--max-concurrent-streams", "2")
        # Before the client has even read the server's SETTINGS: 4 streams at once.
        early = server.client()
        self.addCleanup(early.close)
        streams = [early.request("/wait") for _ in range(4)]
        self.assertTrue(early.pump(early.done(*streams)))
        self.assertEqual([(early.responses[s]["status"], early.responses[s]["reset"]) for s in streams],
                         [(200, None), (200, None),
                          (None, h2.errors.ErrorCodes.REFUSED_STREAM), (None, h2.errors.ErrorCodes.REFUSED_STREAM)])
        # After acknowledging them: RFC 9113 §5.1.2's REFUSED_STREAM again, not a connection error.
        client = server.client()
        self.addCleanup(client.close)
        self.assertTrue(client.pump(lambda: client.of_type(h2.events.RemoteSettingsChanged)))
        changed = client.of_type(h2.events.RemoteSettingsChanged)[0].changed_settings
        self.assertEqual(changed[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS].new_value, 2)
        # Make the h2 client ignore the limit, so the server is the one enforcing it.
        client.conn.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = 100
        client.conn.remote_settings.acknowledge()
        streams = [client.request("/wait") for _ in range(5)]
        self.assertTrue(client.pump(client.done(*streams)))
        self.assertEqual([client.responses[s]["status"] for s in streams[:2]], [200, 200])
        self.assertEqual([client.responses[s]["reset"] for s in streams[2:]], [h2.errors.ErrorCodes.REFUSED_STREAM] * 3)
        self.assertEqual(client.of_type(h2.events.ConnectionTerminated), [])
        # The connection stays up: a retry on it is answered.
        retry = client.request("/hello")
        self.assertTrue(client.pump(client.done(retry)))
        self.assertEqual(client.responses[retry]["status"], 200)
        self.assertFalse(client.closed)
        # Only the streams taken were journaled (a refused one was never read), each once.
        self.assertEqual(len(server.requests("/wait")), 4)
        self.assertEqual(sorted(e["streamId"] for e in server.requests("/wait")), [1, 1, 3, 3])

    def test_a_session_announces_its_own_stream_limit_on_both_its_ports(self):
        server = HTTP2Daemon(self.addCleanup)
        wait = next(stub for stub in STUBS["stubs"] if stub["id"] == "wait")
        status, body, _ = request_json(server.port, "POST", "/__admin/sessions",
                                       {"tls": "valid", "maxConcurrentStreams": 3, "stubs": [STUBS["stubs"][0], wait]})
        self.assertEqual(status, 201, body)
        self.assertEqual(body["maxConcurrentStreams"], 3)
        for port, context in ((body["port"], None), (body["httpsPort"], server.tls_context())):
            client = H2Client(port, context)
            self.addCleanup(client.close)
            stream = client.request("/hello")
            self.assertTrue(client.pump(client.done(stream)))
            changed = client.of_type(h2.events.RemoteSettingsChanged)[0].changed_settings
            self.assertEqual(changed[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS].new_value, 3)
            self.assertEqual(client.responses[stream]["status"], 200)
            # Over the session's cap: the fourth stream is refused, the three others answered.
            client.conn.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = 100
            client.conn.remote_settings.acknowledge()
            waits = [client.request("/wait") for _ in range(4)]
            self.assertTrue(client.pump(client.done(*waits)))
            self.assertEqual([(client.responses[s]["status"], client.responses[s]["reset"]) for s in waits],
                             [(200, None)] * 3 + [(None, h2.errors.ErrorCodes.REFUSED_STREAM)])
        # The main port keeps the daemon's default.
        client = server.client()
        self.addCleanup(client.close)
        self.assertTrue(client.pump(lambda: client.of_type(h2.events.RemoteSettingsChanged)))
        changed = client.of_type(h2.events.RemoteSettingsChanged)[0].changed_settings
        self.assertEqual(changed[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS].new_value, 100)
        for bad in (0, 10001, "3", 2.5):
            status, answer, _ = request_json(server.port, "POST", "/__admin/sessions", {"maxConcurrentStreams": bad})
            self.assertEqual(status, 400, answer)
            self.assertIn("`maxConcurrentStreams` must be an integer from 1 to 10000", json.dumps(answer))
        self.assertEqual(len(server.daemon.get_json("/__admin/sessions")["sessions"]), 1)  # the bad ones made none

    def test_cli_refuses_a_stream_limit_out_of_range(self):
        from Tests.BlackBox.blackbox import run_cli
        done = run_cli("serve", "--port", "0", "--max-concurrent-streams", "0")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("--max-concurrent-streams must be between 1 and 10000", done.stderr)


if __name__ == "__main__":
    unittest.main()
