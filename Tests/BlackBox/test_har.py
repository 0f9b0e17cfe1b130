"""HAR export, from the outside: `GET /__admin/requests.har` and `understudy har JOURNAL.jsonl` write HAR 1.2
that validates against a HAR 1.2 JSON schema, and a round trip (requests sent → journal → HAR → parsed) keeps
method, URL, headers, bodies, status and order; times follow the journal's monotonic clock."""
import base64
import datetime
import http.client
import json
import pathlib
import tempfile
import time
import unittest
import urllib.parse

import jsonschema

from Tests.BlackBox.blackbox import Daemon, request, run_cli

HAR_SCHEMA = json.loads((pathlib.Path(__file__).resolve().parent / "har-1.2.schema.json").read_text())
STUBS = {"stubs": [
    {"id": "posts", "request": {"method": "GET", "path": "/posts"},
     "responses": [{"status": 200, "headers": {"X-Trace": ["a", "b"]}, "json": [{"id": 1}]}]},
    {"id": "create", "request": {"method": "POST", "path": "/posts"},
     "responses": [{"status": 201, "body": "created\n"}]},
    {"id": "upload", "request": {"method": "PUT", "path": "/blob"},
     "responses": [{"status": 204}]},
    {"id": "slow", "request": {"path": "/slow"}, "responses": [{"status": 200, "delayMs": 120, "body": "late"}]},
    {"id": "limited", "request": {"path": "/limited"}, "rateLimit": {"limit": 1, "window": 60},
     "responses": [{"status": 200}]},
    {"id": "reset", "request": {"path": "/reset"}, "responses": [{"fault": "connection-reset"}]},
]}

# (method, target, headers, body): sent in this order, one connection each.
SENT = [
    ("GET", "/posts?page=2&tag=a&tag=b%20c", {"Accept": "application/json", "X-Repeat": "one"}, b""),
    ("POST", "/posts", {"Content-Type": "application/json", "Cookie": "session=abc; theme=dark"}, b'{"title":"hello"}'),
    ("PUT", "/blob", {"Content-Type": "application/octet-stream"}, bytes([0xFF, 0x00, 0x01, 0x80])),
    ("GET", "/slow", {}, b""),
    ("GET", "/limited", {}, b""),
    ("GET", "/limited", {}, b""),
    ("DELETE", "/nothing-here?x=1", {"X-Why": "unmatched"}, b""),
]


def send_all(port):
    """Sends SENT (then a request that meets a fault); returns [(status, headers, body)] as the client got them."""
    received = []
    for method, target, headers, body in SENT:
        received.append(request(port, method, target, body=body, headers=headers))
    try:
        request(port, "GET", "/reset")
    except (ConnectionError, ValueError, OSError):
        pass  # the fault: the connection is reset by design
    return received


def parse_time(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


class HARTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        work = pathlib.Path(cls.work.name)
        (work / "stubs.json").write_text(json.dumps(STUBS))
        cls.journal = work / "journal.jsonl"
        cls.daemon = Daemon([str(work / "stubs.json"), "--journal", str(cls.journal), "--quiet"], str(work / "stderr"))
        cls.received = send_all(cls.daemon.port)
        cls.statuses = [status for status, _, _ in cls.received]
        status, headers, body = request(cls.daemon.port, "GET", "/__admin/requests.har")
        assert status == 200, body
        cls.admin_har = json.loads(body)
        cls.content_type = headers.get("content-type")
        status, _, body = request(cls.daemon.port, "GET", "/__admin/requests")
        cls.entries = json.loads(body)["requests"]

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.work.cleanup()

    def cli_har(self):
        result = run_cli("har", self.journal)
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)

    def test_both_exports_validate_against_the_har_schema(self):
        validator = jsonschema.Draft202012Validator(HAR_SCHEMA)
        for name, har in [("admin", self.admin_har), ("cli", self.cli_har())]:
            with self.subTest(export=name):
                errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(har)]
                self.assertEqual(errors, [])
                self.assertEqual(har["log"]["version"], "1.2")
                self.assertEqual(har["log"]["creator"]["name"], "understudy")
        self.assertTrue(self.content_type.startswith("application/json"))

    def test_the_file_and_the_live_journal_convert_the_same(self):
        self.assertEqual(self.cli_har(), self.admin_har)

    def test_round_trip_keeps_method_url_headers_bodies_status_and_order(self):
        har_entries = self.cli_har()["log"]["entries"]
        sent = SENT + [("GET", "/reset", {}, b"")]
        self.assertEqual(len(har_entries), len(sent))
        self.assertEqual([e["_understudy"]["seq"] for e in har_entries], list(range(1, len(sent) + 1)))
        for (method, target, headers, body), entry, journaled in zip(sent, har_entries, self.entries):
            with self.subTest(target=target, method=method):
                har_request = entry["request"]
                self.assertEqual(har_request["method"], method)
                url = urllib.parse.urlsplit(har_request["url"])
                self.assertEqual((url.scheme, url.netloc), ("http", f"127.0.0.1:{self.daemon.port}"))
                self.assertEqual(url.path + ("?" + url.query if url.query else ""), target)
                pairs = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
                self.assertEqual([(q["name"], q["value"]) for q in har_request["queryString"]], pairs)
                har_headers = [(h["name"].lower(), h["value"]) for h in har_request["headers"]]
                for name, value in headers.items():
                    self.assertIn((name.lower(), value), har_headers)
                self.assertIn(("host", f"127.0.0.1:{self.daemon.port}"), har_headers)
                if body:
                    post = har_request["postData"]
                    self.assertEqual(post["mimeType"], headers["Content-Type"])
                    if post.get("_encoding") == "base64":
                        self.assertEqual(base64.b64decode(post["text"]), body)
                    else:
                        self.assertEqual(post["text"].encode(), body)
                    self.assertEqual(har_request["bodySize"], len(body))
                else:
                    self.assertNotIn("postData", har_request)
                    self.assertEqual(har_request["bodySize"], 0)
                self.assertEqual(entry["response"]["status"], journaled["status"] if journaled["status"] is not None else 0)
        self.assertEqual([e["response"]["status"] for e in har_entries[:len(self.statuses)]], self.statuses)
        cookies = {c["name"]: c["value"] for c in har_entries[1]["request"]["cookies"]}
        self.assertEqual(cookies, {"session": "abc", "theme": "dark"})
        self.assertEqual(har_entries[2]["request"]["postData"]["_encoding"], "base64")

    def test_round_trip_keeps_the_responses_the_client_got(self):
        if "response" not in self.entries[0]:
            self.skipTest("this journal records no responses (the journal-truth work is not merged in this build)")
        har_entries = self.cli_har()["log"]["entries"]
        for (status, headers, body), entry, journaled in zip(self.received, har_entries, self.entries):
            with self.subTest(seq=journaled["seq"]):
                response = entry["response"]
                self.assertEqual(response["status"], status)
                self.assertEqual(response["content"]["text"].encode(), body)
                self.assertEqual(response["content"]["size"], len(body))
                self.assertEqual(response["bodySize"], len(body))
                har_headers = [(h["name"].lower(), h["value"]) for h in response["headers"]]
                for name, value in headers.items():
                    self.assertIn((name, value), har_headers)
                self.assertEqual(response["content"]["mimeType"], headers.get("content-type", ""))
        first = [(h["name"].lower(), h["value"]) for h in har_entries[0]["response"]["headers"]]
        self.assertEqual([v for n, v in first if n == "x-trace"], ["a", "b"], "repeated headers in order")
        reset = har_entries[len(SENT)]["response"]
        self.assertEqual((reset["status"], reset["_error"], reset["bodySize"]), (0, "connection-reset", -1))
        slow = har_entries[3]
        self.assertGreaterEqual(slow["timings"]["wait"], 120, "held for its delayMs, on the monotonic clock")

    def test_understudy_fields_carry_what_har_has_no_place_for(self):
        entries = self.admin_har["log"]["entries"]
        self.assertEqual(entries[0]["_understudy"]["stub"], "posts")
        self.assertEqual(entries[5]["_understudy"]["rateLimited"], True)
        self.assertEqual(entries[5]["response"]["status"], 429)
        self.assertEqual(entries[6]["_understudy"]["matched"], False)
        self.assertEqual(entries[7]["_understudy"]["fault"], "connection-reset")

    def test_times_follow_the_monotonic_clock(self):
        entries = self.admin_har["log"]["entries"]
        starts = [parse_time(e["startedDateTime"]) for e in entries]
        self.assertEqual(starts, sorted(starts))
        for previous, current, journal_a, journal_b in zip(starts, starts[1:], self.entries, self.entries[1:]):
            gap_har = (current - previous).total_seconds() * 1000
            gap_journal = journal_b["elapsedMs"] - journal_a["elapsedMs"]
            self.assertAlmostEqual(gap_har, gap_journal, delta=1.01)
        for entry in entries:
            timings = entry["timings"]
            self.assertAlmostEqual(entry["time"], timings["send"] + timings["wait"] + timings["receive"])

    def test_filters_apply_to_the_export(self):
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests.har?matched=false")
        self.assertEqual(status, 200)
        entries = json.loads(body)["log"]["entries"]
        self.assertEqual([e["request"]["method"] for e in entries], ["DELETE"])
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests.har?status=4xx")
        self.assertEqual([e["response"]["status"] for e in json.loads(body)["log"]["entries"]], [429, 404])
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests.har?stub=posts&method=get&limit=1")
        self.assertEqual([e["_understudy"]["stub"] for e in json.loads(body)["log"]["entries"]], ["posts"])
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests.har?stauts=404")
        self.assertEqual(status, 400)
        self.assertIn("did you mean `status`", json.loads(body)["error"])
        status, headers, _ = request(self.daemon.port, "POST", "/__admin/requests.har")
        self.assertEqual(status, 405)
        self.assertEqual(headers.get("allow"), "GET")

    def test_export_is_not_journaled(self):
        before = len(self.entries)
        request(self.daemon.port, "GET", "/__admin/requests.har")
        _, _, body = request(self.daemon.port, "GET", "/__admin/requests")
        self.assertEqual(len(json.loads(body)["requests"]), before)

    def test_cli_refuses_what_is_not_a_journal(self):
        with tempfile.TemporaryDirectory() as work:
            bad = pathlib.Path(work) / "bad.jsonl"
            bad.write_text('{"seq":1,"method":"GET","path":"/"}\nnot json\n')
            result = run_cli("har", bad)
            self.assertEqual(result.returncode, 1)
            self.assertIn("line 2", result.stderr)
            self.assertEqual(result.stdout, "")
            missing = run_cli("har", pathlib.Path(work) / "missing.jsonl")
            self.assertEqual(missing.returncode, 1)
            self.assertIn("cannot read", missing.stderr)


def journal_time_ms(entry):
    return parse_time(entry["time"]).timestamp() * 1000


class SessionTimesAndStatusTextTests(unittest.TestCase):
    """Entries of the main port and of sessions created at different times each keep their own time
    (a session's `elapsedMs` counts from its creation, not from the daemon's start), in the file's HAR
    and in each port's `GET /__admin/requests.har`; `statusText` is the reason phrase sent."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        work = pathlib.Path(cls.work.name)
        (work / "stubs.json").write_text(json.dumps({"stubs": [
            {"id": "a", "request": {"path": "/a"}, "responses": [{"status": 200, "body": "a"}]},
            {"id": "custom", "request": {"path": "/custom"},
             "responses": [{"status": 202, "statusMessage": "Queued For Later"}]},
            {"id": "limited", "request": {"path": "/limited"}, "responses": [{"status": 429}]},
        ]}))
        cls.journal = work / "journal.jsonl"
        cls.daemon = Daemon([str(work / "stubs.json"), "--journal", str(cls.journal), "--quiet"], str(work / "stderr"))
        port = cls.daemon.port
        cls.sessions = []
        request(port, "GET", "/a")
        for _ in range(2):
            # The gap the bug shows as: a session's entries were placed this much too early. Not a wait for
            # anything: time has to pass between the main port's first request and each session's creation.
            cls.let_time_pass(0.4)
            status, _, body = request(port, "POST", "/__admin/sessions", body=b"{}")
            assert status == 201, body
            session = json.loads(body)
            cls.sessions.append(session)
            request(session["port"], "GET", "/a")
            request(session["port"], "GET", "/custom")
        request(port, "GET", "/custom")
        request(port, "GET", "/limited")
        request(port, "GET", "/nothing-here")

    @staticmethod
    def let_time_pass(seconds):
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            time.sleep(seconds / 4)

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.work.cleanup()

    def journal_lines(self):
        return [json.loads(line) for line in self.journal.read_text().splitlines() if line.strip()]

    def assert_each_entry_keeps_its_own_time(self, har, journal):
        entries = har["log"]["entries"]
        self.assertEqual(len(entries), len(journal))
        for entry, line in zip(entries, journal):
            with self.subTest(seq=line["seq"], session=line.get("session")):
                self.assertEqual(entry["_understudy"].get("session"), line.get("session"))
                started = parse_time(entry["startedDateTime"]).timestamp() * 1000
                self.assertAlmostEqual(started, journal_time_ms(line), delta=2.5)

    def test_the_file_places_every_sessions_entries_at_their_own_time(self):
        journal = self.journal_lines()
        self.assertEqual({line.get("session") for line in journal}, {None, *[s["id"] for s in self.sessions]})
        result = run_cli("har", self.journal)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assert_each_entry_keeps_its_own_time(json.loads(result.stdout), journal)
        # The sessions were created ~0.4 s and ~0.8 s after the first request, and the HAR says so.
        starts = {(e["_understudy"].get("session"), e["request"]["url"].rsplit("/", 1)[1]): parse_time(e["startedDateTime"])
                  for e in json.loads(result.stdout)["log"]["entries"]}
        first = starts[(None, "a")]
        for index, session in enumerate(self.sessions, start=1):
            gap = (starts[(session["id"], "a")] - first).total_seconds()
            self.assertGreaterEqual(gap, 0.4 * index)

    def test_each_ports_admin_export_places_its_entries_at_their_own_time(self):
        journal = self.journal_lines()
        for port, session in [(self.daemon.port, None)] + [(s["port"], s["id"]) for s in self.sessions]:
            with self.subTest(session=session):
                status, _, body = request(port, "GET", "/__admin/requests.har")
                self.assertEqual(status, 200, body)
                self.assert_each_entry_keeps_its_own_time(json.loads(body), [l for l in journal if l.get("session") == session])

    def test_status_text_is_the_reason_phrase_sent(self):
        result = run_cli("har", self.journal)
        self.assertEqual(result.returncode, 0, result.stderr)
        texts = {(e["_understudy"].get("session"), e["request"]["url"].rsplit("/", 1)[1]): e["response"]["statusText"]
                 for e in json.loads(result.stdout)["log"]["entries"]}
        self.assertEqual(texts[(None, "a")], "OK")
        self.assertEqual(texts[(None, "custom")], "Queued For Later")
        self.assertEqual(texts[(self.sessions[0]["id"], "custom")], "Queued For Later")
        self.assertEqual(texts[(None, "limited")], "Too Many Requests")
        self.assertEqual(texts[(None, "nothing-here")], "Not Found")
        # The phrase the client read off the status line is the one the HAR names.
        connection = http.client.HTTPConnection("127.0.0.1", self.daemon.port, timeout=10)
        try:
            connection.request("GET", "/custom")
            response = connection.getresponse()
            response.read()
            self.assertEqual(response.reason, "Queued For Later")
        finally:
            connection.close()
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests.har?stub=custom")
        self.assertEqual({e["response"]["statusText"] for e in json.loads(body)["log"]["entries"]}, {"Queued For Later"})

if __name__ == "__main__":
    unittest.main()
