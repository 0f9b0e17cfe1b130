"""The virtual clock per world (issue 25), driven from outside: the built daemon, its admin API over
127.0.0.1, and plain sockets. A frozen clock moves only when `POST /__admin/clock` advances it; rate-limit
windows, `Retry-After` dates, the `Date` header, delayed responses and SSE events all follow it, and an
advance lists what it released. Wall-time bounds here are upper bounds that prove nothing waited in real
time (a 60-second window passes in well under 5 s), with margins for a loaded 2-core machine."""
import base64
import email.utils
import json
import pathlib
import socket
import tempfile
import threading
import time
import unittest

from Tests.BlackBox.blackbox import Daemon, request
from Tests.BlackBox.test_http2 import H2Client

STUBS = {"stubs": [
    {"id": "limited", "request": {"path": "/limited"},
     "rateLimit": {"limit": 2, "window": 60, "retryAfter": "http-date"}, "responses": [{"status": 200}]},
    {"id": "slow", "request": {"path": "/slow"}, "responses": [{"status": 200, "body": "late", "delayMs": 30000}]},
    {"id": "ticks", "request": {"path": "/ticks"}, "responses": [{"status": 200, "events": [
        {"data": f"tick {n}", "delayMs": 10000} for n in range(1, 6)]}]},
    {"id": "plain", "request": {"path": "/plain"}, "responses": [{"status": 200}]},
    {"id": "when", "request": {"path": "/when"}, "responses": [{"template": True, "body": "{{now.iso}} {{now.plus.1h.epoch}}"}]},
    {"id": "token", "request": {"method": "POST", "path": "/oauth/token"},
     "responses": [{"template": True,
                    "json": {"access_token": "at-{{now.epoch}}", "token_type": "Bearer", "expires_in": 3600}}]},
    {"id": "me", "request": {"method": "GET", "path": "/v1/me"}, "tokenExpiresIn": 3600,
     "responses": [{"json": {"name": "Ada"}}]},
]}

FROZEN = "2030-01-01T00:00:00Z"
FROZEN_EPOCH = 1893456000


def call(port, method, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else b""
    status, response_headers, payload = request(port, method, path, data, headers)
    return status, response_headers, payload


def admin_json(port, method, path, body=None):
    status, _, payload = call(port, method, path, body)
    return status, json.loads(payload) if payload else None


class ClockTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        path = pathlib.Path(cls.directory.name, "stubs.json")
        path.write_text(json.dumps(STUBS))
        cls.daemon = Daemon([str(path), "--quiet"], str(pathlib.Path(cls.directory.name, "stderr.log")))

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.directory.cleanup()

    def session(self, body=None):
        status, created = admin_json(self.daemon.port, "POST", "/__admin/sessions", body or {})
        self.assertEqual(status, 201, created)
        self.addCleanup(lambda: call(self.daemon.port, "DELETE", f"/__admin/sessions/{created['id']}"))
        return created["port"]

    def frozen_session(self):
        return self.session({"clock": {"frozenAt": FROZEN}})

    def test_a_session_created_frozen_reports_its_clock(self):
        port = self.frozen_session()
        status, clock = admin_json(port, "GET", "/__admin/clock")
        self.assertEqual(status, 200)
        self.assertEqual(clock["mode"], "frozen")
        self.assertEqual(clock["now"], "2030-01-01T00:00:00.000Z")

    def test_a_sixty_second_window_passes_with_one_advance(self):
        port = self.frozen_session()
        started = time.monotonic()
        self.assertEqual(call(port, "GET", "/limited")[0], 200)
        self.assertEqual(call(port, "GET", "/limited")[0], 200)
        status, headers, _ = call(port, "GET", "/limited")
        self.assertEqual(status, 429)
        status, answer = admin_json(port, "POST", "/__admin/clock", {"advance": "PT61S"})
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["now"], "2030-01-01T00:01:01.000Z")
        windows = [event for event in answer["fired"] if event["kind"] == "rateLimitWindow"]
        self.assertEqual(windows, [{"kind": "rateLimitWindow", "at": "2030-01-01T00:01:00.000Z", "stub": "limited"}])
        self.assertEqual(call(port, "GET", "/limited")[0], 200)
        self.assertLess(time.monotonic() - started, 5.0, "a 60 s window must pass without a real wait")

    def test_retry_after_date_and_date_header_read_the_virtual_time(self):
        port = self.frozen_session()
        status, headers, _ = call(port, "GET", "/plain")
        self.assertEqual(status, 200)
        self.assertEqual(email.utils.parsedate_to_datetime(headers["date"]).timestamp(), FROZEN_EPOCH)
        call(port, "GET", "/limited")
        call(port, "POST", "/__admin/clock", {"advance": 10_000})  # milliseconds
        call(port, "GET", "/limited")
        status, headers, _ = call(port, "GET", "/limited")
        self.assertEqual(status, 429)
        # The first admitted request (at +0 s) leaves the window at +60 s: the date says so.
        retry = email.utils.parsedate_to_datetime(headers["retry-after"]).timestamp()
        self.assertEqual(retry, FROZEN_EPOCH + 60)
        self.assertEqual(email.utils.parsedate_to_datetime(headers["date"]).timestamp(), FROZEN_EPOCH + 10)
        # The journal's time is the world's; the real arrival is kept as wallTime.
        _, journal = admin_json(port, "GET", "/__admin/requests")
        last = journal["requests"][-1]
        self.assertEqual(last["time"], "2030-01-01T00:00:10.000Z")
        self.assertTrue(last["wallTime"].startswith(time.strftime("%Y-", time.gmtime())), last)

    def test_templates_read_the_virtual_time_and_an_offset_session_runs_ahead(self):
        port = self.frozen_session()
        call(port, "POST", "/__admin/clock", {"advance": "PT90S"})
        self.assertEqual(call(port, "GET", "/when")[2].decode(), f"2030-01-01T00:01:30.000Z {FROZEN_EPOCH + 90 + 3600}")
        ahead = self.session({"clock": {"offset": "PT2H"}})
        _, clock = admin_json(ahead, "GET", "/__admin/clock")
        self.assertEqual(clock["mode"], "offset")
        self.assertAlmostEqual(clock["offsetMs"], 7_200_000, delta=1000)
        date = email.utils.parsedate_to_datetime(call(ahead, "GET", "/plain")[1]["date"]).timestamp()
        self.assertAlmostEqual(date, time.time() + 7200, delta=5)

    def test_a_delayed_response_waits_for_the_advance_that_passes_its_due_time(self):
        port = self.frozen_session()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.addCleanup(sock.close)
        sock.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        self.wait_pending(port, 1)
        _, early = admin_json(port, "POST", "/__admin/clock", {"advance": "PT29S"})
        self.assertEqual(early["fired"], [])
        sock.settimeout(0.3)
        with self.assertRaises(socket.timeout, msg="nothing may be sent before the due time"):
            sock.recv(1)
        _, _, journal = call(port, "GET", "/__admin/requests")
        self.assertEqual(json.loads(journal)["requests"], [], "not journaled before it is sent")
        started = time.monotonic()
        _, answer = admin_json(port, "POST", "/__admin/clock", {"advance": "PT1S"})
        self.assertEqual(answer["fired"], [{"kind": "response", "at": "2030-01-01T00:00:30.000Z", "stub": "slow",
                                            "request": "GET /slow"}])
        sock.settimeout(5)
        data = b""
        while not data.endswith(b"late"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data)
        self.assertTrue(data.endswith(b"late"), data)
        self.assertLess(time.monotonic() - started, 2.0, "sent at once after the advance")
        _, journal = admin_json(port, "GET", "/__admin/requests")
        self.assertEqual([entry["stub"] for entry in journal["requests"]], ["slow"])

    def test_a_delayed_response_on_an_h2c_stream_waits_for_the_advance_too(self):
        # HTTP/2 streams answer through the same ReplyChannel seam as HTTP/1.1 connections, so the
        # frozen clock holds their delays the same way (prior-knowledge h2c with the `h2` package).
        port = self.frozen_session()
        client = H2Client(port, timeout=10)
        self.addCleanup(client.close)
        stream = client.request("/slow")
        self.wait_pending(port, 1)
        _, early = admin_json(port, "POST", "/__admin/clock", {"advance": "PT29S"})
        self.assertEqual(early["fired"], [])
        client.pump(lambda: client.responses[stream]["status"] is not None, timeout=0.3)
        self.assertIsNone(client.responses[stream]["status"], "nothing may be sent before the due time")
        self.assertEqual(admin_json(port, "GET", "/__admin/requests")[1]["requests"], [], "not journaled yet")
        started = time.monotonic()
        _, answer = admin_json(port, "POST", "/__admin/clock", {"advance": "PT1S"})
        self.assertEqual(answer["fired"], [{"kind": "response", "at": "2030-01-01T00:00:30.000Z", "stub": "slow",
                                            "request": "GET /slow"}])
        self.assertTrue(client.pump(client.done(stream), timeout=5), client.responses[stream])
        self.assertEqual(client.responses[stream]["status"], 200)
        self.assertEqual(client.responses[stream]["body"], b"late")
        self.assertLess(time.monotonic() - started, 2.0, "sent at once after the advance")
        _, journal = admin_json(port, "GET", "/__admin/requests")
        self.assertEqual([(entry["stub"], entry.get("protocol")) for entry in journal["requests"]],
                         [("slow", "HTTP/2")])

    def test_five_sse_events_ten_seconds_apart_come_with_five_advances(self):
        port = self.frozen_session()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.addCleanup(sock.close)
        sock.sendall(b"GET /ticks HTTP/1.1\r\nHost: x\r\n\r\n")
        received = self.read_until(sock, b"\r\n\r\n")  # the head goes out at once
        self.assertIn(b"text/event-stream", received)
        for n in range(1, 6):
            _, answer = admin_json(port, "POST", "/__admin/clock", {"advance": "PT10S"})
            self.assertEqual([(event["kind"], event["at"]) for event in answer["fired"]],
                             [("event", f"2030-01-01T00:00:{n * 10 % 60:02d}.000Z".replace(
                                 "00:00:00.000Z", "00:01:00.000Z"))], answer)
            received += self.read_until(sock, f"data: tick {n}\n\n".encode())
            self.assertNotIn(f"tick {n + 1}".encode(), received)
        if not received.endswith(b"0\r\n\r\n"):
            received += self.read_until(sock, b"0\r\n\r\n")  # the stream ends after the fifth
        self.assertEqual(received.count(b"data: tick"), 5)

    def test_two_sessions_keep_their_own_time_and_the_main_port_stays_real(self):
        first = self.frozen_session()
        second = self.session({"clock": {"frozenAt": "2031-06-01T12:00:00Z"}})
        results = {}

        def drive(name, port, steps):
            for _ in range(steps):
                call(port, "POST", "/__admin/clock", {"advance": "PT1H"})
            results[name] = admin_json(port, "GET", "/__admin/clock")[1]["now"]

        threads = [threading.Thread(target=drive, args=("first", first, 3)),
                   threading.Thread(target=drive, args=("second", second, 5))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(results, {"first": "2030-01-01T03:00:00.000Z", "second": "2031-06-01T17:00:00.000Z"})
        _, main = admin_json(self.daemon.port, "GET", "/__admin/clock")
        self.assertEqual(main["mode"], "real")
        self.assertLess(abs(email.utils.parsedate_to_datetime(
            call(self.daemon.port, "GET", "/plain")[1]["date"]).timestamp() - time.time()), 5)

    def test_bad_input_is_a_400_that_changes_nothing(self):
        port = self.frozen_session()
        call(port, "POST", "/__admin/clock", {"advance": "PT1M"})
        _, before = admin_json(port, "GET", "/__admin/clock")
        cases = [
            ({"set": "2029-12-31T00:00:00Z"}, "backwards"),
            ({"advance": "30 seconds"}, "ISO-8601 duration"),
            ({"advance": -5}, "ISO-8601 duration"),
            ({"warp": True}, "unknown clock command"),
            ({"advance": "PT1S", "set": FROZEN}, "exactly one key"),
        ]
        for body, why in cases:
            status, answer = admin_json(port, "POST", "/__admin/clock", body)
            self.assertEqual(status, 400, body)
            self.assertIn(why, answer["error"], body)
        status, answer = admin_json(self.daemon.port, "POST", "/__admin/sessions", {"clock": {"stopped": FROZEN}})
        self.assertEqual(status, 400)
        self.assertIn("unknown clock mode `stopped`", answer["error"])
        _, after = admin_json(port, "GET", "/__admin/clock")
        self.assertEqual((after["mode"], after["now"]), (before["mode"], before["now"]))

    def test_resuming_real_time_releases_a_held_response_on_a_real_timer(self):
        port = self.frozen_session()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.addCleanup(sock.close)
        sock.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        self.wait_pending(port, 1)
        call(port, "POST", "/__admin/clock", {"advance": "PT29.8S"})
        status, answer = admin_json(port, "POST", "/__admin/clock", {"real": True})
        self.assertEqual((status, answer["mode"]), (200, "real"))
        data = self.read_until(sock, b"late")  # the last 200 ms on a real timer
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data)

    def test_a_token_expires_after_its_lifetime_on_the_virtual_clock_and_a_refresh_gets_a_new_one(self):
        port = self.frozen_session()
        started = time.monotonic()
        token = json.loads(call(port, "POST", "/oauth/token")[2])["access_token"]
        self.assertEqual(token, f"at-{FROZEN_EPOCH}")
        bearer = {"Authorization": f"Bearer {token}"}
        self.assertEqual(call(port, "GET", "/v1/me", headers=bearer)[0], 200)
        call(port, "POST", "/__admin/clock", {"advance": "PT59M59S"})
        self.assertEqual(call(port, "GET", "/v1/me", headers=bearer)[0], 200, "still valid one second before")
        call(port, "POST", "/__admin/clock", {"advance": "PT1S"})
        status, headers, body = call(port, "GET", "/v1/me", headers=bearer)
        self.assertEqual(status, 401)
        self.assertIn('error="invalid_token"', headers["www-authenticate"])
        self.assertIn("expired", json.loads(body)["error_description"])
        fresh = json.loads(call(port, "POST", "/oauth/token")[2])["access_token"]
        self.assertEqual(fresh, f"at-{FROZEN_EPOCH + 3600}")
        self.assertEqual(call(port, "GET", "/v1/me", headers={"Authorization": f"Bearer {fresh}"})[0], 200)
        self.assertEqual(call(port, "GET", "/v1/me")[0], 401, "no token: no issue time")
        self.assertLess(time.monotonic() - started, 5.0, "an hour passes without a real wait")
        _, journal = admin_json(port, "GET", "/__admin/requests?stub=me")
        self.assertEqual([entry["status"] for entry in journal["requests"]], [200, 200, 401, 200, 401])

    def test_a_jwt_iat_claim_is_the_issue_time(self):
        port = self.frozen_session()

        def jwt(claims):
            encode = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
            return f"{encode({'alg': 'none'})}.{encode(claims)}.sig"

        self.assertEqual(call(port, "GET", "/v1/me", headers={"Authorization": f"Bearer {jwt({'iat': FROZEN_EPOCH - 10})}"})[0], 200)
        self.assertEqual(call(port, "GET", "/v1/me", headers={"Authorization": f"Bearer {jwt({'iat': FROZEN_EPOCH - 3600})}"})[0], 401)

    # Helpers

    def wait_pending(self, port, count, timeout=5.0):
        """Polls the session's `held` count with a deadline: the request is in and waiting."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if admin_json(port, "GET", "/__admin/clock")[1]["held"] >= count:
                return
            time.sleep(0.02)  # polling with a deadline
        self.fail(f"no held request after {timeout} s")

    def read_until(self, sock, marker, timeout=5.0):
        sock.settimeout(timeout)
        data = b""
        while marker not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
        self.assertIn(marker, data)
        return data


if __name__ == "__main__":
    unittest.main()
