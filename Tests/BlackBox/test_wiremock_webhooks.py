"""WireMock webhooks (issue 42) from the outside: a WireMock root whose mappings carry WireMock 2's
`postServeActions` and WireMock 3's `serveEventListeners` is served with each mapping's response, and
each webhook reaches a real receiver on 127.0.0.1 with WireMock's semantics (its `Webhooks` and
`WebhookDefinition`, docs/webhooks.md "WireMock's webhooks"): `method` GET by default and a body only
with POST, PUT or PATCH; `url`, `method`, header values and `body` templated from `originalRequest`
(`{{jsonPath originalRequest.body '$.x'}}`), `{{x}}` HTML-escaped as Handlebars escapes it; `base64Body`
sent as its bytes; `delay` fixed, uniform or lognormal after the response. The 2.35 jar of the
differential suite cannot run them (webhooks are an extension there), so these tests hold Understudy
to WireMock's documented behaviour instead. No sleeps: each test waits on the receiver's queue or
polls the admin listing, with a deadline."""
import base64
import json
import pathlib
import tempfile
import time
import unittest

from Tests.BlackBox.blackbox import Daemon, request
from Tests.BlackBox.test_webhooks import Receiver, wait_for_delivery

BINARY = bytes(range(256))


def mappings(receiver_url):
    """The WireMock root's mappings: one per form and feature, the receiver's URL literal where the
    form has no template."""
    return {
        "wm2-orders.json": {
            "request": {"method": "POST", "urlPath": "/wm2/orders"},
            "response": {"status": 201, "jsonBody": {"accepted": True}, "headers": {"Content-Type": "application/json"}},
            # WireMock 2's webhook extension, the documented callback pattern: everything templated.
            "postServeActions": [{"name": "webhook", "parameters": {
                "method": "{{jsonPath originalRequest.body '$.callbackMethod'}}",
                "url": "{{jsonPath originalRequest.body '$.callbackUrl'}}",
                "headers": {"Content-Type": "application/json",
                            "X-Order": "{{jsonPath originalRequest.body '$.id'}}",
                            "X-Note": "{{jsonPath originalRequest.body '$.note'}}",
                            "X-Raw-Note": "{{{jsonPath originalRequest.body '$.note'}}}"},
                "body": "{\"order\": \"{{jsonPath originalRequest.body '$.id'}}\", \"path\": \"{{originalRequest.url}}\", "
                        "\"source\": \"{{parameters.source}}\"}",
                "source": "wm2"}}],
        },
        "wm3-default-get.json": {
            "request": {"method": "POST", "url": "/wm3/ping"},
            "response": {"status": 200, "body": "pong"},
            # WireMock 3's listener, no method: GET, which carries no body (the `body` is dropped).
            "serveEventListeners": [{"name": "webhook", "parameters": {
                "url": receiver_url + "/wm3/ping-hook", "body": "never sent",
                "delay": {"type": "fixed", "milliseconds": 200}}}],
        },
        "wm3-binary.json": {
            "request": {"method": "POST", "url": "/wm3/binary"},
            "response": {"status": 202},
            "serveEventListeners": [{"name": "webhook", "requestPhases": ["AFTER_COMPLETE"], "parameters": {
                "method": "PUT", "url": receiver_url + "/wm3/binary-hook",
                "headers": {"Content-Type": "application/octet-stream"},
                "base64Body": base64.b64encode(BINARY).decode(),
                "delay": {"type": "uniform", "lower": 50, "upper": 120}}}],
        },
        "wm3-lognormal-and-others.json": {"mappings": [
            {"request": {"method": "GET", "url": "/wm3/lognormal"},
             "response": {"status": 200, "body": "later"},
             "serveEventListeners": [
                 {"name": "some-other-extension", "parameters": {"x": 1}},
                 {"name": "webhook", "parameters": {"method": "POST", "url": receiver_url + "/wm3/lognormal-hook",
                                                    "body": "{{originalRequest.method}} {{originalRequest.path}}",
                                                    "delay": {"type": "lognormal", "median": 40, "sigma": 0.1}}}]},
            # WireMock 2's first form: `{"webhook": {...parameters}}`.
            {"request": {"method": "DELETE", "urlPathPattern": "/wm2/items/.*"},
             "response": {"status": 204},
             "postServeActions": {"webhook": {"method": "POST", "url": receiver_url + "/wm2/deleted",
                                              "body": "deleted {{originalRequest.pathSegments.[2]}}"}}},
            {"request": {"method": "GET", "url": "/wm3/nowhere"},
             "response": {"status": 200, "body": "served anyway"},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://hooks.example.com/x"}}]},
        ]},
    }


class WireMockWebhookTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.receiver = Receiver()
        cls.addClassCleanup(cls.receiver.close)
        work = tempfile.TemporaryDirectory(prefix="understudy-wm-webhooks-")
        cls.addClassCleanup(work.cleanup)
        root = pathlib.Path(work.name, "root")
        (root / "mappings").mkdir(parents=True)
        for name, mapping in mappings(cls.receiver.url).items():
            (root / "mappings" / name).write_text(json.dumps(mapping, indent=1))
        cls.mappings_dir = root / "mappings"
        cls.daemon = Daemon([str(root)], str(pathlib.Path(work.name, "stderr.log")))
        cls.addClassCleanup(cls.daemon.stop)

    def next_at(self, path):
        """The receiver's next request, which must be to `path` (the tests run one at a time)."""
        got = self.receiver.next()
        self.assertEqual(got["path"], path, got)
        return got

    def test_no_mapping_is_skipped_and_the_load_warns_where_wiremock_would_send_nothing(self):
        health = self.daemon.get_json("/__admin/health")
        self.assertEqual(health.get("skipped", []), [], health)
        warnings = [line for line in self.daemon.stderr().splitlines() if ": warning: " in line]
        for text in ("`body` ignored: WireMock sends a webhook's body only with POST, PUT or PATCH",
                     "extension `some-other-extension` ignored",
                     "webhooks go to loopback addresses only; `hooks.example.com` is not one"):
            self.assertTrue(any(text in line for line in warnings), f"{text!r} not in {warnings}")

    def test_post_serve_actions_template_method_url_headers_and_body_from_the_original_request(self):
        payload = {"id": "o-17", "note": "a&b", "callbackMethod": "PUT",
                   "callbackUrl": self.receiver.url + "/wm2/callback"}
        status, headers, body = request(self.daemon.port, "POST", "/wm2/orders", json.dumps(payload).encode(),
                                        {"Content-Type": "application/json"})
        self.assertEqual((status, json.loads(body)), (201, {"accepted": True}))
        got = self.next_at("/wm2/callback")
        self.assertEqual(got["method"], "PUT")
        self.assertEqual(got["headers"]["x-order"], "o-17")
        self.assertEqual(got["headers"]["x-note"], "a&amp;b", "{{x}} is HTML-escaped, as Handlebars escapes it")
        self.assertEqual(got["headers"]["x-raw-note"], "a&b", "{{{x}}} is not")
        self.assertEqual(got["headers"]["content-type"], "application/json")
        self.assertEqual(json.loads(got["body"]), {"order": "o-17", "path": "/wm2/orders", "source": "wm2"})
        delivery = wait_for_delivery(self.daemon.port, lambda d: d["request"]["url"].endswith("/wm2/callback")
                                     and d["state"] == "delivered")
        self.assertEqual(delivery["attempts"], 1)

    def test_serve_event_listeners_default_to_get_without_a_body_after_the_fixed_delay(self):
        sent = time.monotonic()
        status, _, body = request(self.daemon.port, "POST", "/wm3/ping", b"{}")
        self.assertEqual((status, body), (200, b"pong"))
        got = self.next_at("/wm3/ping-hook")
        self.assertEqual(got["method"], "GET")
        self.assertEqual(got["body"], b"")
        self.assertGreaterEqual(got["at"] - sent, 0.2, "the fixed delay runs after the response")

    def test_base64_body_is_sent_as_its_bytes_after_a_uniform_delay(self):
        sent = time.monotonic()
        status, _, _ = request(self.daemon.port, "POST", "/wm3/binary", b"")
        self.assertEqual(status, 202)
        got = self.next_at("/wm3/binary-hook")
        self.assertEqual(got["method"], "PUT")
        self.assertEqual(got["body"], BINARY)
        self.assertEqual(got["headers"]["content-type"], "application/octet-stream")
        self.assertGreaterEqual(got["at"] - sent, 0.05, "at least the uniform distribution's lower bound")

    def test_a_lognormal_delay_and_the_original_request_in_a_text_body(self):
        status, _, body = request(self.daemon.port, "GET", "/wm3/lognormal")
        self.assertEqual((status, body), (200, b"later"))
        got = self.next_at("/wm3/lognormal-hook")
        self.assertEqual((got["method"], got["body"]), ("POST", b"GET /wm3/lognormal"))

    def test_the_first_post_serve_actions_form_fires_too(self):
        status, _, _ = request(self.daemon.port, "DELETE", "/wm2/items/it-9")
        self.assertEqual(status, 204)
        got = self.next_at("/wm2/deleted")
        self.assertEqual(got["body"], b"deleted it-9")

    def test_a_refused_target_still_serves_and_the_refusal_is_journaled(self):
        status, _, body = request(self.daemon.port, "GET", "/wm3/nowhere")
        self.assertEqual((status, body), (200, b"served anyway"))
        delivery = wait_for_delivery(self.daemon.port, lambda d: d["request"]["url"] == "http://hooks.example.com/x")
        self.assertEqual(delivery["state"], "failed")
        self.assertEqual(delivery["lastAttempt"]["error"], "refused-target")
        self.assertEqual(delivery["request"]["method"], "GET")
        journal = self.daemon.get_json("/__admin/requests")
        outbound = [e for e in journal["requests"] if e.get("outbound", {}).get("url") == "http://hooks.example.com/x"]
        self.assertEqual(len(outbound), 1, journal)


if __name__ == "__main__":
    unittest.main()
