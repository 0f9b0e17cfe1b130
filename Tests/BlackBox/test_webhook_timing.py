"""When a webhook is rendered and sent (issue 42, what it costs the triggering request), against the built
binary with real receivers on 127.0.0.1. A webhook whose URL is no template and whose templates draw no
random values is rendered when it is due, not when its response is sent; what it reads is kept from the
moment it was triggered, so the request it sends is the one it would have sent then: `seq`, `now`, the
request and the response as sent, even after other requests and an advance of the clock. On a real clock
one timer of the world serves all its waiting deliveries: each goes out no earlier than its delay, in the
order they fall due, whatever order they were made in. No sleeps: the tests wait on the receivers'
queues or poll the admin listing, each with a deadline."""
import json
import time
import unittest

from Tests.BlackBox.test_webhooks import Receiver, admin_json, call, open_session, start_daemon, wait_for_delivery

FROZEN = "2030-01-01T00:00:00Z"
# No `url`: each session's `webhookDefaults.url` is the target, so the webhook renders when it is due.
STUBS = {"stubs": [
    {"id": "kept", "request": {"method": "POST", "path": "/t/kept"},
     "responses": [{"status": 201, "template": True, "json": {"id": "ord_{{request.json.n}}"},
                    "webhooks": [{"delayMs": 60000,
                                  "headers": {"X-Order": "{{response.json.id}}", "X-Seq": "{{seq}}"},
                                  "json": {"seq": "{{seq}}", "at": "{{now.iso}}", "path": "{{request.path}}",
                                           "status": "{{response.status}}", "n": "{{request.json.n}}",
                                           "server": "{{server.url}}"}}]}]},
    {"id": "three", "request": {"method": "POST", "path": "/t/three"},
     "responses": [{"status": 200, "webhooks": [
         {"delayMs": 450, "json": {"order": "late"}},
         {"delayMs": 150, "json": {"order": "early"}},
         {"delayMs": 300, "json": {"order": "middle"}}]}]},
    {"id": "plain", "request": {"path": "/t/plain"}, "responses": [{"body": "ok"}]},
]}


class WebhookTimingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        start_daemon(cls, STUBS)

    def setUp(self):
        self.receiver = Receiver()
        self.addCleanup(self.receiver.close)

    def session(self, **extra):
        return open_session(self, self.daemon.port, {"webhookDefaults": {"url": self.receiver.url + "/hook"}, **extra})

    def test_a_webhook_rendered_when_due_sends_what_it_read_when_triggered(self):
        port = self.session(clock={"frozenAt": FROZEN})
        self.assertEqual(call(port, "GET", "/t/plain")[0], 200)  # seq 1
        status, _, body = call(port, "POST", "/t/kept", {"n": 7})  # seq 2: the trigger
        self.assertEqual((status, json.loads(body)), (201, {"id": "ord_7"}))
        # The world moves on before the webhook is due: more requests, and the clock.
        for _ in range(3):
            self.assertEqual(call(port, "GET", "/t/plain")[0], 200)
        _, early = admin_json(port, "POST", "/__admin/clock", {"advance": "PT30S"})
        self.assertEqual(early["fired"], [])
        pending = wait_for_delivery(port, lambda d: d["stub"] == "kept")
        self.assertEqual(pending["state"], "pending")
        expected = {"seq": "2", "at": "2030-01-01T00:00:00.000Z", "path": "/t/kept", "status": "201", "n": "7",
                    "server": f"http://127.0.0.1:{port}"}
        # Listed before it is due, rendered as it will be sent.
        self.assertEqual(json.loads(pending["request"]["body"]), expected)
        self.assertEqual(pending["request"]["headers"]["X-Order"], "ord_7")
        self.assertEqual(pending["request"]["url"], self.receiver.url + "/hook")
        _, answer = admin_json(port, "POST", "/__admin/clock", {"advance": "PT30S"})
        fired = [event for event in answer["fired"] if event["kind"] == "webhook"]
        self.assertEqual([event["request"] for event in fired], [f"POST {self.receiver.url}/hook ({pending['id']})"])
        got = self.receiver.next()
        self.assertEqual(json.loads(got["body"]), expected)
        self.assertEqual((got["headers"]["x-order"], got["headers"]["x-seq"]), ("ord_7", "2"))
        self.assertEqual(got["headers"]["content-type"], "application/json")
        delivered = wait_for_delivery(port, lambda d: d["stub"] == "kept" and d["state"] == "delivered")
        self.assertEqual(delivered["eventId"], pending["eventId"], "the event id does not change when it is sent")

    def test_on_a_real_clock_deliveries_go_out_in_due_order_and_none_before_its_delay(self):
        port = self.session()
        started = time.monotonic()
        self.assertEqual(call(port, "POST", "/t/three", {})[0], 200)
        # Serving goes on while they wait.
        for _ in range(20):
            self.assertEqual(call(port, "GET", "/t/plain")[0], 200)
        arrivals = [self.receiver.next() for _ in range(3)]
        orders = [json.loads(got["body"])["order"] for got in arrivals]
        self.assertEqual(orders, ["early", "middle", "late"])
        delays = {"early": 0.150, "middle": 0.300, "late": 0.450}
        for order, got in zip(orders, arrivals):
            self.assertGreaterEqual(got["at"] - started, delays[order], f"{order} went out before its delayMs")
        states = [wait_for_delivery(port, lambda d, i=i: d["id"] == f"wh_{i}" and d["state"] == "delivered")
                  for i in (1, 2, 3)]
        self.assertEqual([d["stub"] for d in states], ["three"] * 3)
        self.assertEqual(len({d["eventId"] for d in states}), 3, "each delivery its own event id")


if __name__ == "__main__":
    unittest.main()
