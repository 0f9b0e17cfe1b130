"""Webhook deliveries that fail at the socket (issue 42), against the built binary: a receiver that
resets the connection (SO_LINGER 0, so the close is a RST) and one that never answers each end in the
state docs/webhooks.md gives them (`failed`, `connection-reset`; `failed`, `timeout` after `timeoutMs`),
journaled as failed attempts, and the daemon answers every other request meanwhile and after. The
receivers are raw sockets on 127.0.0.1, each accepting on a thread of its own; the tests wait on what the
receiver saw or poll the admin listing, each with a deadline, and never sleep to synchronise."""
import json
import queue
import socket
import struct
import threading
import time
import unittest

from Tests.BlackBox.blackbox import request
from Tests.BlackBox.test_webhooks import admin_json, call, open_session, start_daemon, wait_for_delivery

STUBS = {"stubs": [
    {"id": "reset-hook", "request": {"method": "POST", "path": "/f/reset"},
     "responses": [{"status": 200, "webhooks": [{"url": "{{request.json.callback_url}}", "json": {"type": "reset"},
                                                  "retry": [1]}]}]},
    {"id": "silent-hook", "request": {"method": "POST", "path": "/f/silent"},
     "responses": [{"status": 200, "webhooks": [{"url": "{{request.json.callback_url}}", "timeoutMs": 400,
                                                  "json": {"type": "silent"}}]}]},
    {"id": "plain", "request": {"path": "/f/plain"}, "responses": [{"body": "ok"}]},
]}


class RawReceiver:
    """Accepts connections on 127.0.0.1 and, for each, reads the request head, then either resets the
    connection (`reset`) or holds it open without a byte of answer until closed (`silent`)."""

    def __init__(self, behaviour):
        self.behaviour = behaviour
        self.heads = queue.Queue()
        self.held = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.closed = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while not self.closed.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.handle, args=(connection,), daemon=True).start()

    def handle(self, connection):
        head = b""
        connection.settimeout(10)
        try:
            while b"\r\n\r\n" not in head:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError:
            pass
        self.heads.put(head)
        if self.behaviour == "reset":
            # Linger on, zero seconds: close() sends RST instead of FIN.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
        else:
            self.held.append(connection)  # never answered; closed with the receiver

    def close(self):
        self.closed.set()
        self.listener.close()
        for connection in self.held:
            connection.close()


class WebhookFailureTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        start_daemon(cls, STUBS)

    def session(self):
        return open_session(self, self.daemon.port)

    def assert_serving(self, port, count=50):
        """`count` requests on fresh connections, each answered at once."""
        for _ in range(count):
            status, _, body = request(port, "GET", "/f/plain", timeout=2.0)
            self.assertEqual((status, body), (200, b"ok"))

    def outbound(self, port, stub):
        journal = admin_json(port, "GET", "/__admin/requests")[1]["requests"]
        return [entry for entry in journal if "outbound" in entry and entry.get("stub") == stub]

    def test_a_receiver_that_resets_fails_the_delivery_with_connection_reset_after_its_retry(self):
        receiver = RawReceiver("reset")
        self.addCleanup(receiver.close)
        port = self.session()
        status, _, _ = call(port, "POST", "/f/reset", {"callback_url": receiver.url + "/hook"})
        self.assertEqual(status, 200)
        self.assertIn(b"POST /hook HTTP/1.1", receiver.heads.get(timeout=10))
        delivery = wait_for_delivery(port, lambda d: d["state"] == "failed")
        self.assertEqual(delivery["attempts"], 2, "the first attempt and its one retry")
        self.assertEqual(delivery["lastAttempt"]["error"], "connection-reset", delivery)
        self.assertNotIn("status", delivery["lastAttempt"])
        attempts = self.outbound(port, "reset-hook")
        self.assertEqual([(e["outcome"], e["outbound"]["attempt"], e["outbound"]["error"]) for e in attempts],
                         [("failed", 1, "connection-reset"), ("failed", 2, "connection-reset")])
        self.assertEqual(len({e["outbound"]["eventId"] for e in attempts}), 1, "the same event on each attempt")
        self.assert_serving(port)

    def test_a_receiver_that_never_answers_fails_the_delivery_with_timeout_and_serving_goes_on(self):
        receiver = RawReceiver("silent")
        self.addCleanup(receiver.close)
        port = self.session()
        started = time.monotonic()
        status, _, _ = call(port, "POST", "/f/silent", {"callback_url": receiver.url + "/hook"})
        self.assertEqual(status, 200)
        self.assertIn(b"POST /hook HTTP/1.1", receiver.heads.get(timeout=10))
        # The receiver holds the connection: every other request is answered meanwhile.
        self.assert_serving(port, count=20)
        delivery = wait_for_delivery(port, lambda d: d["state"] == "failed")
        self.assertEqual(delivery["attempts"], 1)
        self.assertEqual(delivery["lastAttempt"]["error"], "timeout", delivery)
        self.assertGreaterEqual(delivery["lastAttempt"]["ms"], 350)
        self.assertGreaterEqual(time.monotonic() - started, 0.35, "not failed before its timeoutMs")
        [attempt] = self.outbound(port, "silent-hook")
        self.assertEqual((attempt["outcome"], attempt["outbound"]["error"]), ("failed", "timeout"))
        self.assert_serving(port)
        # The main port, whose world sent nothing, serves too.
        self.assertEqual(request(self.daemon.port, "GET", "/f/plain")[::2], (200, b"ok"))


if __name__ == "__main__":
    unittest.main()
