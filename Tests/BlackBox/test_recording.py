"""Recording, from the outside: a second Understudy daemon plays the real API (a rate limit, a sequence, a token
endpoint, a 30 KB body, a 301), a scripted client runs against it, and what it saw becomes native stubs: by
`POST /__admin/recordings/snapshot` of a session, by `understudy import-har` of the journal's HAR export, by
`understudy record` (the proxy), and by `understudy record --session` (the proxy as a session of a daemon that keeps
serving its own stubs). Then the API is stopped and the same script replays against the recorded stubs:
every status, kept header and body byte is the same, sequences replay in order, no declared secret is anywhere in
the output tree, another token still matches, and `--template-dates` re-renders a recorded date."""
import http.client
import json
import os
import pathlib
import subprocess
import tempfile
import unittest

from Tests.BlackBox.blackbox import Daemon, binary, run_cli

TOKEN = "upstream-token-5f2c9a71"
CLIENT_SECRET = "client-secret-8d41e0"
API_KEY = "key-3c7be215"
SECRETS = [TOKEN, CLIENT_SECRET, API_KEY]
REPORT = json.dumps({"rows": [{"id": i, "text": f"row {i:05d} of the quarterly report"} for i in range(700)]})
FROZEN = "2030-01-01T00:00:00.000Z"

API = {"stubs": [
    {"id": "limited", "request": {"method": "GET", "path": "/api/limited"},
     "rateLimit": {"limit": 1, "window": 3600}, "responses": [{"json": {"ok": True}}]},
    {"id": "flaky", "request": {"method": "GET", "path": "/api/flaky"},
     "responses": [{"status": 503, "headers": {"Retry-After": "1"}, "body": "busy"}, {"json": {"done": True}}]},
    {"id": "token", "request": {"method": "POST", "path": "/api/token"},
     "responses": [{"json": {"access_token": TOKEN, "token_type": "bearer"}}]},
    {"id": "me", "request": {"method": "GET", "path": "/api/me",
                             "headers": {"Authorization": {"matches": "^Bearer .+"}}},
     "responses": [{"template": True, "json": {"name": "Ada", "seenAt": "{{now.iso}}"}}]},
    {"id": "report", "request": {"method": "GET", "path": "/api/report"},
     "responses": [{"headers": {"Content-Type": "application/json", "X-Report": "full"}, "body": REPORT}]},
    {"id": "old", "request": {"method": "GET", "path": "/api/old"},
     "responses": [{"status": 301, "headers": {"Location": "/api/new"}}]},
    {"id": "new", "request": {"method": "GET", "path": "/api/new"}, "responses": [{"body": "moved here\n"}]},
    {"id": "search", "request": {"method": "GET", "path": "/api/search", "query": {"api_key": {"present": True}}},
     "responses": [{"json": {"hits": ["a", "b"]}}]},
    {"id": "events", "request": {"method": "GET", "path": "/api/events"}, "responses": [{"events": [
        {"event": "quote", "data": "{\"price\": 1}", "id": "1"},
        {"data": "{\"price\": 2}", "id": "2", "delayMs": 50},
        {"event": "done", "data": "end", "id": "3", "delayMs": 50}]}]},
]}
# Response headers recording does not keep: they describe one transfer, and the replaying daemon writes its own.
VOLATILE = {"date", "content-length", "connection", "transfer-encoding", "server", "keep-alive"}
REDACTION = ["--redact-header", "Authorization", "--redact-json", "$.client_secret", "--redact-json",
             "$.access_token", "--redact-query", "api_key", "--match-header", "Authorization"]
REDACTION_JSON = {"redactHeaders": ["Authorization"], "redactJson": ["$.client_secret", "$.access_token"],
                  "redactQuery": ["api_key"], "matchHeaders": ["Authorization"]}


def call(port, method, target, headers=None, body=b""):
    """One request over a fresh connection: (status, kept headers sorted, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        connection.request(method, target, body=body or None, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        kept = sorted((name.lower(), value) for name, value in response.getheaders() if name.lower() not in VOLATILE)
        return response.status, kept, data
    finally:
        connection.close()


def script(port, token_override=None, events=False):
    """The client session: a token, then the API with it (and, with `events`, a server-sent event stream, which
    only the proxy can record: a journal holds an event stub's head only). Returns [(step, (status, headers,
    body))]."""
    seen = []
    answer = call(port, "POST", "/api/token", {"Content-Type": "application/json"},
                  json.dumps({"client_id": "app", "client_secret": CLIENT_SECRET}).encode())
    seen.append(("token", answer))
    token = token_override or json.loads(answer[2])["access_token"]
    seen.append(("me", call(port, "GET", "/api/me", {"Authorization": f"Bearer {token}"})))
    for index in range(2):
        seen.append((f"limited {index}", call(port, "GET", "/api/limited")))
    for index in range(2):
        seen.append((f"flaky {index}", call(port, "GET", "/api/flaky")))
    seen.append(("report", call(port, "GET", "/api/report")))
    seen.append(("old", call(port, "GET", "/api/old")))
    seen.append(("new", call(port, "GET", "/api/new")))
    seen.append(("search", call(port, "GET", f"/api/search?q=x&api_key={API_KEY}")))
    if events:
        seen.append(("events", call(port, "GET", "/api/events", {"Accept": "text/event-stream"})))
    return seen


def admin(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body).encode())
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def every_file(directory):
    return [path for path in pathlib.Path(directory).rglob("*") if path.is_file()]


class RecordingTests(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory(prefix="understudy-recording-")
        self.dir = pathlib.Path(self.work.name)
        (self.dir / "api").mkdir()
        (self.dir / "api" / "api.json").write_text(json.dumps(API))

    def tearDown(self):
        self.work.cleanup()

    def upstream(self, *extra):
        return Daemon([str(self.dir / "api"), "--quiet", *extra], name="api")

    def replay_and_compare(self, out, recorded, *, redacted, frozen=None, events=False):
        """Serves `out` with the API gone and replays the script: the same answers (the token's redacted; with
        `frozen`, the replaying clock is frozen there and `/api/me`'s templated date must be that instant)."""
        checked = run_cli("check", out)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        with Daemon([out, "--quiet"], name="replay") as replay:
            if frozen:
                self.assertEqual(admin(replay.port, "POST", "/__admin/clock", {"freeze": frozen})[0], 200)
                me = dict(recorded)["me"]
                seen_at = json.loads(me[2])["seenAt"]
                self.assertNotEqual(seen_at, frozen)
                recorded = [(step, (want[0], want[1], want[2].replace(seen_at.encode(), frozen.encode()))
                             if step == "me" else want) for step, want in recorded]
            replayed = script(replay.port, events=events)
            self.assertEqual([step for step, _ in replayed], [step for step, _ in recorded])
            for (step, want), (_, got) in zip(recorded, replayed):
                with self.subTest(step=step):
                    if redacted and step == "token":
                        want = (want[0], want[1], want[2].replace(TOKEN.encode(), b"REDACTED"))
                    self.assertEqual(got[0], want[0], f"{step}: status")
                    self.assertEqual(got[1], want[1], f"{step}: kept headers")
                    self.assertEqual(got[2], want[2], f"{step}: body bytes")
            if redacted:
                # The placeholder matches any value: another token and another key still match.
                other = script(replay.port, token_override="a-completely-different-token", events=events)
                self.assertEqual(dict(other)["me"], dict(recorded)["me"])
                status, _, _ = call(replay.port, "GET", "/api/search?q=x&api_key=another-key")
                self.assertEqual(status, 200)
                status, _, _ = call(replay.port, "GET", "/api/me")
                self.assertEqual(status, 404, "the token is matched on presence: without one, no stub")
            return replay

    def assert_no_secrets(self, out):
        files = every_file(out)
        self.assertTrue(files)
        for path in files:
            data = path.read_bytes()
            for secret in SECRETS:
                self.assertNotIn(secret.encode(), data, f"{secret} leaked into {path}")

    def assert_sequences_in_one_stub(self, out):
        stubs = json.loads((pathlib.Path(out) / "recorded.json").read_text())["stubs"]
        by_path = {stub["request"]["path"]: stub for stub in stubs}
        self.assertEqual([r["status"] for r in by_path["/api/limited"]["responses"]], [200, 429])
        self.assertEqual([r["status"] for r in by_path["/api/flaky"]["responses"]], [503, 200])
        report = by_path["/api/report"]["responses"][0]
        self.assertRegex(report["bodyFile"], r"^__files/get-api-report-[0-9a-f]{8}\.json$")
        self.assertEqual((pathlib.Path(out) / report["bodyFile"]).read_text(), REPORT)

    def test_a_session_snapshot_replays_the_same_answers_with_secrets_out(self):
        with self.upstream("--journal-body-limit", "1000000") as api:
            status, session = admin(api.port, "POST", "/__admin/sessions", {"name": "recording"})
            self.assertEqual(status, 201, session)
            recorded = script(session["port"])
            self.assertEqual([answer[0] for _, answer in recorded], [200, 200, 200, 429, 503, 200, 200, 301, 200, 200])
            self.assertEqual(len(dict(recorded)["report"][2]), len(REPORT))
            out = str(self.dir / "snapshot")
            dated = str(self.dir / "dated")
            # A bad call is a 400 that says why, and writes nothing.
            status, answer = admin(session["port"], "POST", "/__admin/recordings/snapshot",
                                   {"out": out, "redactHeader": ["Authorization"]})
            self.assertEqual(status, 400)
            self.assertIn("did you mean `redactHeaders`", answer["error"])
            self.assertFalse(pathlib.Path(out).exists())
            status, answer = admin(session["port"], "POST", "/__admin/recordings/snapshot",
                                   dict(REDACTION_JSON, out=out))
            self.assertEqual(status, 200, answer)
            self.assertEqual(answer["exchanges"], 10)
            self.assertEqual(answer["stubs"], 8)
            status, answer = admin(session["port"], "POST", "/__admin/recordings/snapshot",
                                   dict(REDACTION_JSON, out=dated, templateDates=True))
            self.assertEqual(status, 200, answer)
            # The main port's journal is its own: nothing was answered there.
            status, answer = admin(api.port, "POST", "/__admin/recordings/snapshot", {"out": str(self.dir / "main")})
            self.assertEqual(status, 400)
            self.assertIn("nothing to record", answer["error"])
        self.assert_no_secrets(out)
        self.assert_no_secrets(dated)
        self.assert_sequences_in_one_stub(out)
        self.replay_and_compare(out, recorded, redacted=True)
        # --template-dates: the recorded date is rendered again at replay time (here a frozen clock's).
        with Daemon([dated, "--quiet"], name="replay-dated") as replay:
            status, _ = admin(replay.port, "POST", "/__admin/clock", {"freeze": FROZEN})
            self.assertEqual(status, 200)
            status, _, body = call(replay.port, "GET", "/api/me", {"Authorization": "Bearer x"})
            self.assertEqual(status, 200)
            self.assertEqual(json.loads(body)["seenAt"], FROZEN)
            self.assertNotEqual(json.loads(dict(recorded)["me"][2])["seenAt"], FROZEN)

    def test_a_truncated_journal_is_refused_rather_than_recorded_short(self):
        with self.upstream() as api:  # the default --journal-body-limit: 4096 bytes
            self.assertEqual(call(api.port, "GET", "/api/report")[0], 200)
            out = self.dir / "short"
            status, answer = admin(api.port, "POST", "/__admin/recordings/snapshot", {"out": str(out)})
            self.assertEqual(status, 400)
            self.assertIn("--journal-body-limit", answer["error"])
            self.assertFalse(out.exists(), "a refused snapshot writes nothing")

    def test_har_export_then_import_replays_the_same_answers(self):
        journal = self.dir / "journal.jsonl"
        with self.upstream("--journal", str(journal), "--journal-body-limit", "1000000") as api:
            recorded = script(api.port)
        har = run_cli("har", journal)
        self.assertEqual(har.returncode, 0, har.stderr)
        (self.dir / "run.har").write_text(har.stdout)
        out = str(self.dir / "from-har")
        imported = run_cli("import-har", self.dir / "run.har", "--out", out, *REDACTION)
        self.assertEqual(imported.returncode, 0, imported.stderr)
        self.assertIn("8 stubs from 10 exchanges", imported.stdout)
        self.assert_no_secrets(out)
        self.assert_sequences_in_one_stub(out)
        self.replay_and_compare(out, recorded, redacted=True)

    def test_import_har_refuses_a_truncated_body_and_bad_options(self):
        journal = self.dir / "short.jsonl"
        with self.upstream("--journal", str(journal)) as api:
            call(api.port, "GET", "/api/report")
        (self.dir / "short.har").write_text(run_cli("har", journal).stdout)
        result = run_cli("import-har", self.dir / "short.har", "--out", self.dir / "x")
        self.assertEqual(result.returncode, 1)
        self.assertIn("_truncated", result.stderr)
        self.assertFalse((self.dir / "x").exists())
        result = run_cli("import-har", self.dir / "short.har", "--out", self.dir / "x", "--match-body", "sku")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("is not a JSON path", result.stderr)

    def test_record_through_the_proxy_replays_the_same_answers(self):
        """The acceptance run: `understudy record` in front of the API, a scripted session, the API stopped, the
        same script against what was recorded."""
        out = str(self.dir / "recorded")
        with self.upstream() as api:
            command = [binary(), "record", "--to", f"http://127.0.0.1:{api.port}", "--out", out, "--port", "0",
                       "--quiet", "--template-dates", *REDACTION]
            with Daemon(command=command, name="record") as recorder:
                recorded = script(recorder.port, events=True)
                self.assertEqual([answer[0] for _, answer in recorded],
                                 [200, 200, 200, 429, 503, 200, 200, 301, 200, 200, 200])
                # Recording journals every byte: the 30 KB body is whole, the event stream too.
                self.assertEqual(dict(recorded)["report"][2], REPORT.encode())
                self.assertIn(b"event: done", dict(recorded)["events"][2])
                status, answer = admin(recorder.port, "POST", "/__admin/recordings/stop")
                self.assertEqual(status, 200, answer)
                self.assertEqual((answer["stubs"], answer["exchanges"]), (9, 11), answer)
                self.assertEqual(recorder.process.wait(30), 0, "record exits once the stop route wrote the stubs")
        # The API is gone; the recording answers in its place.
        self.assertIsNotNone(api.process.poll())
        self.assert_no_secrets(out)
        grep = subprocess.run(["grep", "-rlF", "-e", TOKEN, "-e", CLIENT_SECRET, "-e", API_KEY, out],
                              capture_output=True, text=True)
        self.assertEqual((grep.returncode, grep.stdout), (1, ""), "grep found a declared secret in the output tree")
        self.assert_sequences_in_one_stub(out)
        self.replay_and_compare(out, recorded, redacted=True, frozen=FROZEN, events=True)

    def test_record_writes_on_sigterm(self):
        out = self.dir / "on-term"
        with self.upstream() as api:
            recorder = Daemon(command=[binary(), "record", "--to", f"http://127.0.0.1:{api.port}", "--out", str(out),
                                       "--port", "0"], name="record")
            with recorder:
                self.assertEqual(call(recorder.port, "GET", "/api/new")[2], b"moved here\n")
                self.assertEqual(recorder.stop(), 0)
        stubs = json.loads((out / "recorded.json").read_text())["stubs"]
        self.assertEqual([stub["request"]["path"] for stub in stubs], ["/api/new"])

    def test_echo_ids_echoes_a_request_header_id_on_replay(self):
        """`--echo-ids` and request headers: the API echoes the request's `X-Request-Id` in a response header, a
        JSON body field and a sentence; the recording answers a new id in all three places, is matched with
        `--match-header X-Request-Id` on the header's presence only, and leaves values that only look like ids
        (a date-like version header, the media type, the Host) as recorded."""
        (self.dir / "api" / "echo.json").write_text(json.dumps({"stubs": [
            {"id": "charge", "request": {"method": "POST", "path": "/api/charges"},
             "responses": [{"template": True, "status": 201,
                            "headers": {"X-Request-Id": "{{request.headers.x-request-id}}",
                                        "Api-Version": "2023-10-16", "Content-Type": "application/json"},
                            "body": '{"id": "ch_1", "requestId": "{{request.headers.x-request-id}}", '
                                    '"note": "request {{request.headers.x-request-id}} accepted", '
                                    '"version": "2023-10-16", "accepted": "{{request.headers.accept}}", '
                                    '"host": "{{request.headers.host}}"}'}]}]}))
        out = self.dir / "echoed"
        headers = {"X-Request-Id": "req-7f3a9c2e", "Api-Version": "2023-10-16", "Accept": "application/json",
                   "Content-Type": "application/json"}
        charge = json.dumps({"amount": 500}).encode()
        with self.upstream() as api:
            command = [binary(), "record", "--to", f"http://127.0.0.1:{api.port}", "--out", str(out), "--port", "0",
                       "--quiet", "--echo-ids", "--match-header", "X-Request-Id"]
            with Daemon(command=command, name="record") as recorder:
                status, kept, body = call(recorder.port, "POST", "/api/charges", headers, charge)
                self.assertEqual(status, 201, body)
                self.assertIn(("x-request-id", "req-7f3a9c2e"), kept)
                self.assertEqual(json.loads(body)["requestId"], "req-7f3a9c2e")
                recorded_host = json.loads(body)["host"]
                self.assertEqual(recorder.stop(), 0)
        stubs = json.loads((out / "recorded.json").read_text())["stubs"]
        [stub] = stubs
        self.assertEqual(stub["request"]["headers"], {"X-Request-Id": {"present": True}},
                         "the recorded id is one request's: the stub must not demand it")
        self.assertNotIn("req-7f3a9c2e", (out / "recorded.json").read_text())
        checked = run_cli("check", out)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        with Daemon([str(out), "--quiet"], name="replay") as replay:
            status, kept, body = call(replay.port, "POST", "/api/charges",
                                      dict(headers, **{"X-Request-Id": "req-b2c90d11"}), charge)
            self.assertEqual(status, 201, body)
            self.assertIn(("x-request-id", "req-b2c90d11"), kept, "the response header echoes the new id")
            answer = json.loads(body)
            self.assertEqual(answer["requestId"], "req-b2c90d11", "the JSON field echoes the new id")
            self.assertEqual(answer["note"], "request req-b2c90d11 accepted", "so does the id inside a string")
            # Not ids: a version with no letter, a media type, the Host; recorded as they were.
            self.assertIn(("api-version", "2023-10-16"), kept)
            self.assertEqual(answer["version"], "2023-10-16")
            self.assertEqual(answer["accepted"], "application/json")
            self.assertEqual(answer["host"], recorded_host)
            # Without the header: the stub asked for its presence, so no match.
            status, _, _ = call(replay.port, "POST", "/api/charges",
                                {name: value for name, value in headers.items() if name != "X-Request-Id"}, charge)
            self.assertEqual(status, 404)

    # record --session: one shared daemon, one session recording; the daemon's own port and stubs are untouched.

    def own_daemon(self, *extra):
        (self.dir / "own").mkdir(exist_ok=True)
        (self.dir / "own" / "own.json").write_text(json.dumps({"stubs": [
            {"id": "own", "request": {"method": "GET", "path": "/own"},
             "responses": [{"body": "first"}, {"body": "second"}]}]}))
        return Daemon([str(self.dir / "own"), "--quiet", *extra], name="shared")

    def record_session(self, daemon_url, upstream_port, out, *extra):
        command = [binary(), "record", "--session", "--admin-url", daemon_url, "--to",
                   f"http://127.0.0.1:{upstream_port}", "--out", str(out), *extra]
        # stderr to a file: it is read after the command exited (stop() closes an in-memory one).
        return Daemon(command=command, name="record-session", stderr_path=self.dir / "record-session.log")

    def test_record_in_a_session_replays_the_same_answers_and_leaves_the_daemon_alone(self):
        out = self.dir / "in-session"
        with self.upstream() as api, self.own_daemon() as shared:
            self.assertEqual(call(shared.port, "GET", "/own")[2], b"first")
            with self.record_session(shared.url, api.port, out, "--template-dates", *REDACTION) as recorder:
                self.assertNotEqual(recorder.port, shared.port)
                status, listing = admin(shared.port, "GET", "/__admin/sessions")
                self.assertEqual(status, 200)
                [session] = listing["sessions"]
                self.assertEqual((session["port"], session["recording"]), (recorder.port, {"out": str(out),
                                                                                             "written": False}))
                recorded = script(recorder.port, events=True)
                self.assertEqual([answer[0] for _, answer in recorded],
                                 [200, 200, 200, 429, 503, 200, 200, 301, 200, 200, 200])
                # The session journals every byte, past the daemon's default 4 KiB journal body limit.
                self.assertEqual(dict(recorded)["report"][2], REPORT.encode())
                # The daemon's own port meanwhile: its stubs, its sequence, its journal; nothing proxied there.
                self.assertEqual(call(shared.port, "GET", "/own")[2], b"second")
                self.assertEqual(call(shared.port, "GET", "/api/new")[0], 404)
                self.assertEqual(recorder.stop(), 0, recorder.stderr())
                self.assertIn("9 stubs from 11 exchanges", recorder.stderr())
            self.assertFalse(recorder.alive())
            status, listing = admin(shared.port, "GET", "/__admin/sessions")
            self.assertEqual(listing["sessions"], [], "record --session deletes its session")
            status, stubs = admin(shared.port, "GET", "/__admin/stubs")
            self.assertEqual([stub["id"] for stub in stubs["stubs"]], ["own"])
            status, journal = admin(shared.port, "GET", "/__admin/requests")
            self.assertEqual([(entry["path"], entry["status"]) for entry in journal["requests"]],
                             [("/own", 200), ("/own", 200), ("/api/new", 404)])
        self.assertIsNotNone(api.process.poll())
        grep = subprocess.run(["grep", "-rlF", "-e", TOKEN, "-e", CLIENT_SECRET, "-e", API_KEY, str(out)],
                              capture_output=True, text=True)
        self.assertEqual((grep.returncode, grep.stdout), (1, ""), "grep found a declared secret in the output tree")
        self.assert_no_secrets(out)
        self.assert_sequences_in_one_stub(out)
        self.replay_and_compare(str(out), recorded, redacted=True, frozen=FROZEN, events=True)

    def test_the_sessions_stop_route_writes_and_ends_record_session(self):
        out = self.dir / "stop-route"
        with self.upstream() as api, self.own_daemon() as shared:
            with self.record_session(shared.url, api.port, out) as recorder:
                self.assertEqual(call(recorder.port, "GET", "/api/new")[2], b"moved here\n")
                status, answer = admin(recorder.port, "POST", "/__admin/recordings/stop")
                self.assertEqual(status, 200, answer)
                self.assertEqual((answer["out"], answer["stubs"], answer["exchanges"]), (str(out), 1, 1))
                self.assertEqual(recorder.process.wait(30), 0, recorder.stderr())
            status, listing = admin(shared.port, "GET", "/__admin/sessions")
            self.assertEqual(listing["sessions"], [])
            # The main port has no recording to stop.
            status, answer = admin(shared.port, "POST", "/__admin/recordings/stop")
            self.assertEqual(status, 400)
            self.assertIn("not recording", answer["error"])
        stubs = json.loads((out / "recorded.json").read_text())["stubs"]
        self.assertEqual([stub["request"]["path"] for stub in stubs], ["/api/new"])

    def test_record_session_without_a_daemon_or_a_session_fails_and_writes_nothing(self):
        out = self.dir / "nothing"
        with self.upstream() as gone:
            closed = gone.url
        environment = {name: value for name, value in os.environ.items() if name != "UNDERSTUDY_URL"}
        cases = [
            (["--admin-url", closed], "no daemon to record in at " + closed),
            ([], "name it with --admin-url"),
            (["--admin-url", "https://127.0.0.1:1"], "is not a daemon's http://HOST:PORT"),
        ]
        with self.own_daemon() as shared:
            # The session body's `recording`, sent by hand and wrong: a 400 that says why, and no session.
            for recording, message in [({"redactHeader": ["Authorization"]}, "`out` is required"),
                                       ({"out": str(out), "redactHeader": ["Authorization"]},
                                        "did you mean `redactHeaders`"),
                                       ("dir", "must be an object")]:
                status, answer = admin(shared.port, "POST", "/__admin/sessions", {"recording": recording})
                self.assertEqual(status, 400, answer)
                self.assertIn(message, answer["error"])
            self.assertEqual(admin(shared.port, "GET", "/__admin/sessions")[1]["sessions"], [])
        with self.own_daemon("--max-sessions", "0") as full:
            cases.append((["--admin-url", full.url], "too many sessions"))
            for extra, message in cases:
                with self.subTest(extra=extra):
                    result = run_cli("record", "--session", "--to", "http://127.0.0.1:9", "--out", out, *extra,
                                     env=environment)
                    self.assertEqual(result.returncode, 1, result.stderr)
                    self.assertIn(message, result.stderr)
                    self.assertEqual(result.stdout, "", "no readiness line")
                    self.assertFalse(out.exists())
        result = run_cli("record", "--session", "--admin-url", "http://127.0.0.1:9", "--to", "http://127.0.0.1:9",
                         "--out", out, "--proxy-ca", "ca.pem")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("start it with --proxy-ca", result.stderr)


if __name__ == "__main__":
    unittest.main()
