"""Idempotency keys (issue 47) against the built daemon, as the IETF draft "The Idempotency-Key HTTP Header
Field" (-07) describes them: the first request with a key is answered and its answer kept, the same key and
request replays it with `Idempotent-Replayed: true` without moving the stub's sequence, the same key with
another body is refused (422, or the stub's `mismatchStatus`), a key whose first request is still being
answered gets 409, a missing required key 400, and keys expire on the world's clock. On the main port and
on sessions (two with the same key never see each other), over HTTP/1.1 and h2c (the `h2` package), with
JSON, form and raw bodies. The journal says what each key did."""
import json
import time
import unittest

import urllib3

from Tests.BlackBox.blackbox import StubFileDaemonTestCase, request
from Tests.BlackBox.test_http2 import H2Client

STUBS = {"stubs": [
    {"id": "charge", "request": {"method": "POST", "path": "/v1/charges"}, "idempotency": {},
     "responses": [
         {"status": 201, "template": True, "json": {"id": "ch_{{random.uuid}}", "n": 1}},
         {"status": 201, "template": True, "json": {"id": "ch_{{random.uuid}}", "n": 2}},
         {"status": 201, "template": True, "json": {"id": "ch_{{random.uuid}}", "n": 3}}],
     "afterLast": "cycle"},
    {"id": "required", "request": {"method": "POST", "path": "/v1/required"},
     "idempotency": {"required": True, "header": "X-Request-Key"}, "responses": [{"status": 200, "body": "ok"}]},
    {"id": "strict", "request": {"method": "POST", "path": "/v1/strict"}, "idempotency": {"mismatchStatus": 409},
     "responses": [{"status": 201, "body": "made"}]},
    {"id": "slow", "request": {"method": "POST", "path": "/v1/slow"}, "idempotency": {},
     "responses": [{"status": 201, "body": "slow and made", "delayMs": 30000}]},
    {"id": "flaky", "request": {"method": "POST", "path": "/v1/flaky"}, "idempotency": {},
     "responses": [{"fault": "connection-reset"}, {"status": 503, "retryAfter": 1},
                   {"status": 201, "json": {"charged": True}}, {"status": 201, "json": {"charged": "twice"}}]},
    {"id": "plain", "request": {"method": "POST", "path": "/v1/plain"},
     "responses": [{"status": 201, "body": "one"}, {"status": 201, "body": "two"}]},
]}

FROZEN = "2030-01-01T00:00:00Z"
REPLAYED = "idempotent-replayed"


def post(port, path, body=b"", headers=None):
    status, response_headers, payload = request(port, "POST", path, body, headers)
    return status, response_headers, payload


def admin_json(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else b""
    status, _, payload = request(port, method, path, data)
    return status, json.loads(payload) if payload else None


JSON = {"Content-Type": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class IdempotencyTests(StubFileDaemonTestCase):
    STUBS = STUBS

    def session(self, body=None):
        status, created = admin_json(self.daemon.port, "POST", "/__admin/sessions", body or {})
        self.assertEqual(status, 201, created)
        self.addCleanup(lambda: request(self.daemon.port, "DELETE", f"/__admin/sessions/{created['id']}"))
        return created["port"]

    def fresh_main(self):
        """The main port with sequences, keys and journal back at the start."""
        status, _, _ = request(self.daemon.port, "POST", "/__admin/reset")
        self.assertEqual(status, 200)
        return self.daemon.port

    def journal(self, port):
        _, journal = admin_json(port, "GET", "/__admin/requests")
        return sorted(journal["requests"], key=lambda entry: entry["seq"])

    def outcomes(self, port, stub):
        return [(entry["idempotency"]["key"], entry["idempotency"]["outcome"]) if "idempotency" in entry else None
                for entry in self.journal(port) if entry["stub"] == stub]

    # -- first, replay, sequence --

    def check_first_and_replay(self, port, headers, first_body, same_body, other_body):
        key = {"Idempotency-Key": "key-1"}
        status, first_headers, first = post(port, "/v1/charges", first_body, {**headers, **key})
        self.assertEqual(status, 201)
        self.assertNotIn(REPLAYED, first_headers)
        status, replay_headers, replay = post(port, "/v1/charges", same_body, {**headers, **key})
        self.assertEqual(status, 201)
        self.assertEqual(replay, first, "the templated id is frozen: the replay sends the first body as sent")
        self.assertEqual(replay_headers.get(REPLAYED), "true")
        self.assertEqual(replay_headers.get("content-type"), first_headers.get("content-type"))
        status, _, mismatch = post(port, "/v1/charges", other_body, {**headers, **key})
        self.assertEqual(status, 422, mismatch)
        problem = json.loads(mismatch)
        self.assertEqual(problem["idempotencyKey"], "key-1")
        self.assertIn('"key-1"', problem["detail"])
        self.assertEqual(problem["status"], 422)
        # The sequence moved once for key-1: a new key gets the second response.
        status, _, second = post(port, "/v1/charges", first_body, {**headers, "Idempotency-Key": "key-2"})
        self.assertEqual((status, json.loads(second)["n"]), (201, 2))
        self.assertEqual(json.loads(first)["n"], 1)
        self.assertEqual(self.outcomes(port, "charge"),
                         [("key-1", "first"), ("key-1", "replay"), ("key-1", "mismatch"), ("key-2", "first")])
        entries = [entry for entry in self.journal(port) if entry["stub"] == "charge"]
        self.assertEqual(entries[0]["idempotency"].get("stored"), True)
        self.assertEqual(entries[1]["responseIndex"], 0, "the replay names the response it repeats")
        self.assertEqual(entries[1]["response"]["headers"].get("idempotent-replayed"), ["true"])

    def test_json_bodies_are_compared_by_value(self):
        port = self.fresh_main()
        self.check_first_and_replay(
            port, JSON, b'{"amount": 2000, "currency": "eur", "meta": {"a": 1, "b": [1, 2]}}',
            b'{"currency":"eur","meta":{"b":[1,2.0],"a":1e0},"amount":2000}',
            b'{"amount": 2001, "currency": "eur", "meta": {"a": 1, "b": [1, 2]}}')

    def test_form_bodies_are_compared_by_field(self):
        port = self.fresh_main()
        self.check_first_and_replay(
            port, FORM, b"amount=2000&currency=eur&metadata%5Border%5D=7&tag=a&tag=b",
            b"metadata[order]=7&tag=a&currency=eur&tag=b&amount=2000",
            b"amount=2000&currency=eur&metadata%5Border%5D=7&tag=b&tag=a")

    def test_multipart_bodies_are_compared_by_field_whatever_their_boundary(self):
        port = self.fresh_main()
        key = {"Idempotency-Key": "mp-1"}

        def send(fields, boundary):
            body, content_type = urllib3.encode_multipart_formdata(fields, boundary=boundary)
            return post(port, "/v1/charges", body, {"Content-Type": content_type, **key})

        status, _, first = send([("amount", "2000"), ("currency", "eur")], "first-boundary")
        self.assertEqual(status, 201)
        status, headers, replay = send([("amount", "2000"), ("currency", "eur")], "another-boundary")
        self.assertEqual((status, replay, headers.get(REPLAYED)), (201, first, "true"))
        self.assertEqual(send([("amount", "2001"), ("currency", "eur")], "first-boundary")[0], 422)
        self.assertEqual(self.outcomes(port, "charge"), [("mp-1", "first"), ("mp-1", "replay"), ("mp-1", "mismatch")])

    def test_other_bodies_are_compared_byte_for_byte(self):
        port = self.fresh_main()
        headers = {"Content-Type": "application/octet-stream"}
        self.check_first_and_replay(port, headers, b"\x00\x01payload", b"\x00\x01payload", b"\x00\x01payloaD")

    def test_a_stub_without_idempotency_ignores_the_key(self):
        port = self.fresh_main()
        key = {"Idempotency-Key": "k"}
        self.assertEqual(post(port, "/v1/plain", b"x", key)[2], b"one")
        self.assertEqual(post(port, "/v1/plain", b"x", key)[2], b"two")
        self.assertEqual(self.outcomes(port, "plain"), [None, None], "no idempotency member on its lines")

    def test_the_draft_quoted_key_is_the_bare_key(self):
        port = self.fresh_main()
        _, _, first = post(port, "/v1/charges", b"{}", {**JSON, "Idempotency-Key": '"8e03978e-40d5"'})
        status, headers, replay = post(port, "/v1/charges", b"{}", {**JSON, "idempotency-key": "8e03978e-40d5"})
        self.assertEqual((status, headers.get(REPLAYED), replay), (201, "true", first))

    # -- refusals --

    def test_a_missing_required_key_gets_400_naming_the_header(self):
        port = self.fresh_main()
        status, headers, body = post(port, "/v1/required", b"{}", JSON)
        self.assertEqual(status, 400)
        self.assertEqual(headers.get("content-type"), "application/problem+json")
        problem = json.loads(body)
        self.assertIn("X-Request-Key", problem["detail"])
        self.assertNotIn("idempotencyKey", problem)
        status, _, body = post(port, "/v1/required", b"{}", {**JSON, "X-Request-Key": " "})
        self.assertEqual(status, 400, "an empty key is no key")
        status, _, body = post(port, "/v1/required", b"{}", {**JSON, "x-request-key": "r1"})
        self.assertEqual((status, body), (200, b"ok"))
        self.assertEqual(self.outcomes(port, "required"), [(None, "missing"), (None, "missing"), ("r1", "first")])

    def test_the_mismatch_status_is_configurable(self):
        port = self.fresh_main()
        key = {**JSON, "Idempotency-Key": "s1"}
        self.assertEqual(post(port, "/v1/strict", b'{"a":1}', key)[0], 201)
        status, _, body = post(port, "/v1/strict", b'{"a":2}', key)
        self.assertEqual(status, 409)
        self.assertEqual(json.loads(body)["idempotencyKey"], "s1")
        status, _, body = post(port, "/v1/charges", b'{"a":2}', key)
        self.assertEqual(status, 201, "keys are per stub: another stub has not seen s1")

    def test_answers_that_did_not_happen_are_not_kept_and_the_client_is_charged_once(self):
        port = self.fresh_main()
        key = {**JSON, "Idempotency-Key": "retry-1"}
        with self.assertRaises((ConnectionResetError, ValueError, IndexError)):
            post(port, "/v1/flaky", b'{"amount":1}', key)
        status, headers, _ = post(port, "/v1/flaky", b'{"amount":1}', key)
        self.assertEqual((status, headers.get("retry-after")), (503, "1"))
        status, headers, body = post(port, "/v1/flaky", b'{"amount":1}', key)
        self.assertEqual((status, json.loads(body)), (201, {"charged": True}))
        self.assertNotIn(REPLAYED, headers)
        status, headers, body = post(port, "/v1/flaky", b'{"amount":1}', key)
        self.assertEqual((status, json.loads(body), headers.get(REPLAYED)), (201, {"charged": True}, "true"))
        entries = [entry for entry in self.journal(port) if entry["stub"] == "flaky"]
        self.assertEqual([(entry["idempotency"]["outcome"], entry["idempotency"].get("stored")) for entry in entries],
                         [("first", False), ("first", False), ("first", True), ("replay", None)])
        self.assertEqual([entry["responseIndex"] for entry in entries], [0, 1, 2, 2])

    # -- in progress and expiry, on a frozen clock --

    def wait_held(self, port, count, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if admin_json(port, "GET", "/__admin/clock")[1]["held"] >= count:
                return
            time.sleep(0.02)  # polling with a deadline
        self.fail(f"no held request after {timeout} s")

    def test_a_key_in_progress_gets_409_then_replays_once_answered_over_h2c(self):
        port = self.session({"clock": {"frozenAt": FROZEN}})
        client = H2Client(port, timeout=10)
        self.addCleanup(client.close)
        fields = [("content-type", "application/json"), ("idempotency-key", "slow-1")]
        first = client.request("/v1/slow", method="POST", body=b'{"a":1}', headers=fields)
        self.wait_held(port, 1)
        second = client.request("/v1/slow", method="POST", body=b'{"a":1}', headers=fields)
        self.assertTrue(client.pump(client.done(second), timeout=5), client.responses[second])
        self.assertEqual(client.responses[second]["status"], 409)
        self.assertEqual(json.loads(client.responses[second]["body"])["idempotencyKey"], "slow-1")
        self.assertIsNone(client.responses[first]["status"], "the first is still held")
        _, advanced = admin_json(port, "POST", "/__admin/clock", {"advance": "PT30S"})
        self.assertEqual(len(advanced["fired"]), 1)
        self.assertTrue(client.pump(client.done(first), timeout=5), client.responses[first])
        self.assertEqual((client.responses[first]["status"], client.responses[first]["body"]), (201, b"slow and made"))
        third = client.request("/v1/slow", method="POST", body=b'{"a":1}', headers=fields)
        self.assertTrue(client.pump(client.done(third), timeout=5), client.responses[third])
        self.assertEqual(client.responses[third]["status"], 201)
        self.assertEqual(client.responses[third]["body"], b"slow and made")
        self.assertEqual(client.responses[third]["headers"].get(REPLAYED), "true")
        self.assertEqual(self.outcomes(port, "slow"),
                         [("slow-1", "in-progress"), ("slow-1", "first"), ("slow-1", "replay")])
        self.assertTrue(all(entry.get("protocol") == "HTTP/2" for entry in self.journal(port)))

    def test_keys_expire_after_their_ttl_on_the_worlds_clock(self):
        port = self.session({"clock": {"frozenAt": FROZEN}})
        key = {**JSON, "Idempotency-Key": "day-1"}
        first = json.loads(post(port, "/v1/charges", b"{}", key)[2])
        admin_json(port, "POST", "/__admin/clock", {"advance": "PT23H59M"})
        status, headers, body = post(port, "/v1/charges", b"{}", key)
        self.assertEqual((status, headers.get(REPLAYED), json.loads(body)), (201, "true", first))
        admin_json(port, "POST", "/__admin/clock", {"advance": "PT2M"})
        status, headers, body = post(port, "/v1/charges", b"{}", key)
        self.assertEqual((status, json.loads(body)["n"]), (201, 2), "past a day the key is new")
        self.assertNotIn(REPLAYED, headers)
        status, _, body = post(port, "/v1/charges", b'{"other": true}', key)
        self.assertEqual(status, 422, "the new first request is the one held to")
        self.assertEqual(self.outcomes(port, "charge"),
                         [("day-1", "first"), ("day-1", "replay"), ("day-1", "first"), ("day-1", "mismatch")])

    # -- worlds --

    def test_two_sessions_with_the_same_key_never_see_each_other(self):
        first, second = self.session(), self.session()
        key = {**JSON, "Idempotency-Key": "shared"}
        # Different bodies under one key: in one world the second would be a mismatch.
        status_a, _, a = post(first, "/v1/charges", b'{"who":"a"}', key)
        status_b, headers_b, b = post(second, "/v1/charges", b'{"who":"b"}', key)
        self.assertEqual((status_a, status_b), (201, 201))
        self.assertNotIn(REPLAYED, headers_b)
        self.assertNotEqual(json.loads(a)["id"], json.loads(b)["id"])
        main = self.fresh_main()
        status, headers, _ = post(main, "/v1/charges", b'{"who":"main"}', key)
        self.assertEqual(status, 201)
        self.assertNotIn(REPLAYED, headers, "nor does the main port")
        self.assertEqual(post(first, "/v1/charges", b'{"who":"a"}', key)[2], a)
        self.assertEqual(post(second, "/v1/charges", b'{"who":"b"}', key)[2], b)
        self.assertEqual(self.outcomes(first, "charge"), [("shared", "first"), ("shared", "replay")])
        self.assertEqual(self.outcomes(second, "charge"), [("shared", "first"), ("shared", "replay")])

    def test_a_replay_over_h2c_on_the_main_port(self):
        port = self.fresh_main()
        client = H2Client(port, timeout=10)
        self.addCleanup(client.close)
        fields = [("content-type", "application/x-www-form-urlencoded"), ("idempotency-key", "h2-1")]
        first = client.request("/v1/charges", method="POST", body=b"amount=5&currency=eur", headers=fields)
        self.assertTrue(client.pump(client.done(first), timeout=5))
        again = client.request("/v1/charges", method="POST", body=b"currency=eur&amount=5", headers=fields)
        other = client.request("/v1/charges", method="POST", body=b"currency=eur&amount=6", headers=fields)
        self.assertTrue(client.pump(client.done(again, other), timeout=5))
        self.assertEqual(client.responses[first]["status"], 201)
        self.assertEqual(client.responses[again]["body"], client.responses[first]["body"])
        self.assertEqual(client.responses[again]["headers"].get(REPLAYED), "true")
        self.assertEqual(client.responses[other]["status"], 422)

    def test_a_session_gives_its_post_and_patch_stubs_a_rule(self):
        port = self.session({"idempotency": {"required": True, "mismatchStatus": 400},
                             "stubs": [{"id": "read", "request": {"method": "GET", "path": "/v1/read"},
                                        "responses": [{"body": "read"}]}]})
        status, _, body = post(port, "/v1/plain", b"x")
        self.assertEqual(status, 400, "the session's rule: the key is required")
        self.assertIn("Idempotency-Key", json.loads(body)["detail"])
        key = {"Idempotency-Key": "p1"}
        self.assertEqual(post(port, "/v1/plain", b"x", key)[2], b"one")
        self.assertEqual(post(port, "/v1/plain", b"x", key)[2], b"one", "replayed")
        self.assertEqual(post(port, "/v1/plain", b"y", key)[0], 400, "its mismatch status")
        self.assertEqual(post(port, "/v1/strict", b"x", key)[0], 201, "a stub's own rule wins (key optional)")
        self.assertEqual(request(port, "GET", "/v1/read")[::2], (200, b"read"), "a GET stub takes no rule")
        self.assertEqual(post(self.fresh_main(), "/v1/plain", b"x")[2], b"one", "the main port is not the session")
        status, refusal = admin_json(self.daemon.port, "POST", "/__admin/sessions", {"idempotency": {"ttl": -1}})
        self.assertEqual(status, 400)
        self.assertIn("idempotency.ttl", refusal["error"] if isinstance(refusal, dict) and "error" in refusal
                      else json.dumps(refusal))

    def test_the_stub_listing_shows_the_rule_and_its_keys(self):
        port = self.fresh_main()
        post(port, "/v1/charges", b"{}", {**JSON, "Idempotency-Key": "listed"})
        _, listing = admin_json(port, "GET", "/__admin/stubs")
        stubs = {stub["id"]: stub for stub in listing["stubs"]}
        self.assertEqual(stubs["charge"]["idempotency"],
                         {"header": "Idempotency-Key", "required": False, "ttl": 86400, "mismatchStatus": 422,
                          "keys": 1})
        self.assertIsNone(stubs["plain"]["idempotency"])


if __name__ == "__main__":
    unittest.main()
