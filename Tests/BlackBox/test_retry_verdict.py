"""The journal's retry verdict (issue 47): for every request to a stub that can ask for a wait, whether it
came back before the `Retry-After` (or a refusal's `X-RateLimit-Reset`) of the previous answer to the same
client (`User-Agent`) had passed, and by how much, on the world's clock (a frozen clock moved by `advance`).
With `earlyRetries: "refuse"` (per stub or per session) an early retry gets the refusal again and the stub's
sequence does not move."""
import json
import unittest

from Tests.BlackBox.blackbox import StubFileDaemonTestCase, request
from Tests.BlackBox.test_http2 import H2Client

STUBS = {"stubs": [
    {"id": "busy", "request": {"method": "POST", "path": "/v1/busy"},
     "responses": [{"status": 503, "retryAfter": 2}, {"status": 503, "retryAfter": 4}, {"status": 201, "body": "made"}]},
    {"id": "strict", "request": {"method": "GET", "path": "/v1/strict"}, "earlyRetries": "refuse",
     "responses": [{"status": 429, "headers": {"Retry-After": "3"}}, {"status": 200, "body": "ok"}]},
    {"id": "limited", "request": {"method": "GET", "path": "/v1/limited"},
     "rateLimit": {"limit": 1, "window": 10}, "responses": [{"status": 200, "body": "ok"}]},
    {"id": "plain", "request": {"method": "GET", "path": "/v1/plain"}, "responses": [{"status": 200}]},
]}

FROZEN = "2030-01-01T00:00:00Z"


def admin_json(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else b""
    status, _, payload = request(port, method, path, data)
    return status, json.loads(payload) if payload else None


class RetryVerdictTests(StubFileDaemonTestCase):
    STUBS = STUBS

    def session(self, body=None):
        body = dict(body or {})
        body.setdefault("clock", {"frozenAt": FROZEN})
        status, created = admin_json(self.daemon.port, "POST", "/__admin/sessions", body)
        self.assertEqual(status, 201, created)
        self.addCleanup(lambda: request(self.daemon.port, "DELETE", f"/__admin/sessions/{created['id']}"))
        return created["port"]

    def advance(self, port, duration):
        status, _ = admin_json(port, "POST", "/__admin/clock", {"advance": duration})
        self.assertEqual(status, 200)

    def journal(self, port, stub):
        _, journal = admin_json(port, "GET", "/__admin/requests")
        return [entry for entry in sorted(journal["requests"], key=lambda e: e["seq"]) if entry["stub"] == stub]

    def test_each_retry_is_judged_against_the_previous_answers_wait_on_the_worlds_clock(self):
        port = self.session()
        agent = {"User-Agent": "patient/1"}
        self.assertEqual(request(port, "POST", "/v1/busy", b"{}", agent)[0], 503)  # asks for 2 s
        self.advance(port, "PT1.5S")
        self.assertEqual(request(port, "POST", "/v1/busy", b"{}", agent)[0], 503)  # early by 500 ms; asks 4 s
        self.advance(port, "PT4S")
        self.assertEqual(request(port, "POST", "/v1/busy", b"{}", agent)[0], 201)
        entries = self.journal(port, "busy")
        self.assertNotIn("retry", entries[0], "the first request follows no answer")
        self.assertEqual(entries[1]["retry"], {"askedMs": 2000, "waitedMs": 1500, "verdict": "early", "earlyByMs": 500})
        self.assertEqual(entries[2]["retry"], {"askedMs": 4000, "waitedMs": 4000, "verdict": "on-time"})

    def test_clients_are_told_apart_by_user_agent(self):
        port = self.session()
        request(port, "POST", "/v1/busy", b"", {"User-Agent": "one"})
        request(port, "POST", "/v1/busy", b"", {"User-Agent": "two"})  # another client: nothing to judge
        self.advance(port, "PT1S")
        request(port, "POST", "/v1/busy", b"", {"User-Agent": "one"})
        entries = self.journal(port, "busy")
        self.assertNotIn("retry", entries[1])
        self.assertEqual(entries[2]["retry"]["verdict"], "early")
        self.assertEqual(entries[2]["retry"]["askedMs"], 2000)

    def test_refuse_answers_an_early_retry_with_the_refusal_again_and_the_sequence_stays(self):
        port = self.session()
        status, headers, _ = request(port, "GET", "/v1/strict")
        self.assertEqual((status, headers.get("retry-after")), (429, "3"))
        self.advance(port, "PT1S")
        status, headers, _ = request(port, "GET", "/v1/strict")
        self.assertEqual((status, headers.get("retry-after")), (429, "2"), "the time still to wait")
        self.advance(port, "PT2S")
        status, _, body = request(port, "GET", "/v1/strict")
        self.assertEqual((status, body), (200, b"ok"), "the sequence did not move for the refused retry")
        entries = self.journal(port, "strict")
        self.assertEqual([e["responseIndex"] for e in entries], [0, None, 1])
        self.assertEqual(entries[1]["retry"], {"askedMs": 3000, "waitedMs": 1000, "verdict": "refused", "earlyByMs": 2000})
        self.assertTrue(entries[1]["rateLimited"])
        self.assertEqual(entries[2]["retry"]["verdict"], "on-time")

    def test_a_session_can_refuse_early_retries_for_all_its_stubs_over_h2c(self):
        port = self.session({"earlyRetries": "refuse"})
        client = H2Client(port, timeout=10)
        self.addCleanup(client.close)

        def post():
            stream = client.request("/v1/busy", method="POST")
            self.assertTrue(client.pump(client.done(stream), timeout=5), client.responses[stream])
            return client.responses[stream]["status"]

        self.assertEqual(post(), 503)
        self.advance(port, "PT1S")
        self.assertEqual(post(), 503)  # early: the first 503 again
        self.advance(port, "PT1S")
        self.assertEqual(post(), 503)  # on time: the stub's second 503
        entries = self.journal(port, "busy")
        self.assertEqual([e["responseIndex"] for e in entries], [0, None, 1])
        self.assertEqual([e.get("retry", {}).get("verdict") for e in entries], [None, "refused", "on-time"])
        self.assertEqual(entries[1]["protocol"], "HTTP/2")

    def test_a_rate_limit_refusal_asks_for_its_wait_and_an_admitted_answer_asks_for_none(self):
        port = self.session()
        self.assertEqual(request(port, "GET", "/v1/limited")[0], 200)
        self.assertEqual(request(port, "GET", "/v1/limited")[0], 429)
        self.assertEqual(request(port, "GET", "/v1/limited")[0], 429)
        entries = self.journal(port, "limited")
        self.assertNotIn("retry", entries[1], "an admitted answer's X-RateLimit-Reset asks for no wait")
        self.assertEqual(entries[2]["retry"]["verdict"], "early")
        self.assertEqual(entries[2]["retry"]["waitedMs"], 0)

    def test_stubs_that_never_ask_for_a_wait_carry_no_verdict(self):
        port = self.session()
        request(port, "GET", "/v1/plain")
        request(port, "GET", "/v1/plain")
        self.assertTrue(all("retry" not in e for e in self.journal(port, "plain")))

    def test_bad_early_retries_values_are_refused_with_where_and_why(self):
        status, created = admin_json(self.daemon.port, "POST", "/__admin/sessions", {"earlyRetries": "block"})
        self.assertEqual(status, 400)
        self.assertIn("`earlyRetries` must be one of `observe`, `refuse`, found `block`", json.dumps(created))
        status, _, body = request(
            self.daemon.port, "POST", "/__admin/stubs",
            json.dumps({"stubs": [{"request": {"path": "/x"}, "earlyRetries": "refuze",
                                   "responses": [{"status": 200}]}]}).encode())
        self.assertEqual(status, 400)
        error = json.loads(body)["errors"][0]
        self.assertEqual(error["path"], "stubs[0].earlyRetries")
        self.assertEqual(error["suggestion"], "refuse")


if __name__ == "__main__":
    unittest.main()
