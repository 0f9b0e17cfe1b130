"""Session-level webhook defaults and delay distributions (issue 42), against the built binary with real
receivers on 127.0.0.1. A session created with `{"webhookDefaults": {"url", "secret"}}` sends the webhooks
of stubs that give no `url` to its own receiver, signed with its own secret (verified with Stripe's own
library), so one stub file serves every session; a world without defaults fails such a webhook as
`no-target` or `no-secret`; a bad `webhookDefaults` is a 400 that says why. A webhook's `delayMs` may be a
distribution, as a response's may: on a frozen clock a uniform draw is held until an advance passes it.
No sleeps: the tests wait on the receivers' queues or poll the admin listing, each with a deadline."""
import json
import queue
import unittest

from Tests.BlackBox.test_webhooks import Receiver, admin_json, call, open_session, start_daemon, wait_for_delivery

try:  # Stripe's own verifier (scripts/lib/ensure-deps.sh, ensure_webhook_verifiers)
    import stripe
except ImportError:  # pragma: no cover - CI installs it
    stripe = None

FROZEN = "2030-01-01T00:00:00Z"
STUBS = {"stubs": [
    # No `url`, no `secret`: both come from the session.
    {"id": "reusable", "request": {"method": "POST", "path": "/d/pay"},
     "responses": [{"status": 200, "template": True, "json": {"id": "pi_{{request.json.n}}"},
                    "webhooks": [{"json": {"type": "payment_intent.succeeded", "data": {"id": "{{response.json.id}}"}},
                                  "signing": {"format": "stripe"}}]}]},
    {"id": "unsigned", "request": {"method": "POST", "path": "/d/unsigned"},
     "responses": [{"status": 200, "webhooks": [{"json": {"type": "ping"}}]}]},
    {"id": "own-url", "request": {"method": "POST", "path": "/d/own"},
     "responses": [{"status": 200, "webhooks": [{"url": "{{request.json.callback_url}}", "json": {"type": "own"},
                                                  "signing": {"format": "github"}}]}]},
    {"id": "drawn", "request": {"method": "POST", "path": "/d/drawn"},
     "responses": [{"status": 200, "webhooks": [{"delayMs": {"uniform": [1000, 2000]}, "json": {"type": "drawn"}}]}]},
]}


class WebhookDefaultsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        start_daemon(cls, STUBS)

    def receiver(self):
        receiver = Receiver()
        self.addCleanup(receiver.close)
        return receiver

    def session(self, body):
        return open_session(self, self.daemon.port, body)

    @unittest.skipIf(stripe is None, "needs the stripe package (scripts/lib/ensure-deps.sh installs it)")
    def test_two_sessions_send_the_same_stub_to_their_own_receivers_with_their_own_secrets(self):
        first, second = self.receiver(), self.receiver()
        one = self.session({"webhookDefaults": {"url": first.url + "/one", "secret": "whsec_first"}})
        two = self.session({"webhookDefaults": {"url": second.url + "/two", "secret": "whsec_second"}})
        self.assertEqual(call(one, "POST", "/d/pay", {"n": 1})[0], 200)
        self.assertEqual(call(two, "POST", "/d/pay", {"n": 2})[0], 200)
        got_one, got_two = first.next(), second.next()
        self.assertEqual((got_one["path"], got_two["path"]), ("/one", "/two"))
        event = stripe.Webhook.construct_event(got_one["body"], got_one["headers"]["stripe-signature"], "whsec_first")
        self.assertEqual(event["data"]["id"], "pi_1")
        event = stripe.Webhook.construct_event(got_two["body"], got_two["headers"]["stripe-signature"], "whsec_second")
        self.assertEqual(event["data"]["id"], "pi_2")
        with self.assertRaises(stripe.error.SignatureVerificationError):
            stripe.Webhook.construct_event(got_two["body"], got_two["headers"]["stripe-signature"], "whsec_first")

    def test_a_stubs_own_url_wins_and_the_default_secret_still_signs_it(self):
        default, own = self.receiver(), self.receiver()
        port = self.session({"webhookDefaults": {"url": default.url + "/default", "secret": "gh-secret"}})
        self.assertEqual(call(port, "POST", "/d/own", {"callback_url": own.url + "/own"})[0], 200)
        got = own.next()
        self.assertEqual(got["path"], "/own")
        self.assertTrue(got["headers"]["x-hub-signature-256"].startswith("sha256="))
        with self.assertRaises(queue.Empty):
            default.requests.get(timeout=0.2)

    def test_without_defaults_the_webhook_fails_as_no_target_or_no_secret(self):
        receiver = self.receiver()
        port = self.session({})
        self.assertEqual(call(port, "POST", "/d/unsigned", {})[0], 200)
        delivery = wait_for_delivery(port, lambda d: d["stub"] == "unsigned")
        self.assertEqual((delivery["state"], delivery["lastAttempt"]["error"]), ("failed", "no-target"))
        self.assertIn("webhookDefaults.url", delivery["lastAttempt"]["reason"])
        only_url = self.session({"webhookDefaults": {"url": receiver.url + "/x"}})
        self.assertEqual(call(only_url, "POST", "/d/pay", {"n": 3})[0], 200)
        delivery = wait_for_delivery(only_url, lambda d: d["stub"] == "reusable")
        self.assertEqual((delivery["state"], delivery["lastAttempt"]["error"]), ("failed", "no-secret"))
        self.assertIn("webhookDefaults.secret", delivery["lastAttempt"]["reason"])
        journal = admin_json(only_url, "GET", "/__admin/requests")[1]["requests"]
        self.assertEqual([e["outbound"]["error"] for e in journal if "outbound" in e], ["no-secret"])
        with self.assertRaises(queue.Empty):
            receiver.requests.get(timeout=0.2)  # nothing was sent unsigned

    def test_a_bad_webhook_defaults_is_a_400_that_says_why(self):
        for body, words in (({"webhookDefaults": {"url": "http://example.com/hook"}}, "--webhook-allow example.com"),
                            ({"webhookDefaults": {"url": "{{request.json.x}}"}}, "not a template"),
                            ({"webhookDefaults": {"urll": "http://127.0.0.1:1/"}}, "did you mean `url`?"),
                            ({"webhookDefaults": {"secret": ""}}, "non-empty string"),
                            ({"webhookDefaults": "http://127.0.0.1:1/"}, "must be an object")):
            status, answer = admin_json(self.daemon.port, "POST", "/__admin/sessions", body)
            self.assertEqual(status, 400, answer)
            self.assertIn(words, json.dumps(answer), answer)

    def test_a_uniform_delay_on_a_frozen_clock_is_held_until_an_advance_passes_the_draw(self):
        receiver = self.receiver()
        port = self.session({"clock": {"frozenAt": FROZEN}, "webhookDefaults": {"url": receiver.url + "/drawn"}})
        self.assertEqual(call(port, "POST", "/d/drawn", {})[0], 200)
        _, early = admin_json(port, "POST", "/__admin/clock", {"advance": 999})
        self.assertEqual(early["fired"], [], "the draw is at least the distribution's minimum")
        with self.assertRaises(queue.Empty):
            receiver.requests.get(timeout=0.2)
        _, late = admin_json(port, "POST", "/__admin/clock", {"advance": 1001})
        fired = [event for event in late["fired"] if event["kind"] == "webhook"]
        self.assertEqual(len(fired), 1, late)
        self.assertTrue("2030-01-01T00:00:01.000Z" <= fired[0]["at"] <= "2030-01-01T00:00:02.000Z", fired)
        self.assertEqual(json.loads(receiver.next()["body"]), {"type": "drawn"})


if __name__ == "__main__":
    unittest.main()
