"""The journal page's Retries view (issue 47: "a timeline per client and stub of each attempt, the wait each
answer asked for, and early retries marked"), in Debian's headless `chromium` over the DevTools protocol, on a
session's own page with a frozen clock moved by `advance` (no sleeps). One row per client (`User-Agent`) and
stub with more than one attempt after an answer that asked for a wait; each attempt a mark on one shared time
axis, the wait each answer asked for a band after it, early and refused attempts marked apart, the status
beside each mark and the idempotency key on hover. Saves `.ci-artifacts/ui-retries.png`."""
import json
import os
import pathlib
import tempfile
import unittest

from Tests.BlackBox.blackbox import ROOT, Daemon, request
from Tests.BlackBox.chromium_cdp import Chromium, chromium_binary

ARTIFACTS = pathlib.Path(os.environ.get("UNDERSTUDY_ARTIFACTS", ROOT / ".ci-artifacts"))
FROZEN = "2030-01-01T09:00:00Z"
STUBS = {"stubs": [
    {"id": "create-charge", "request": {"method": "POST", "path": "/v1/charges"}, "idempotency": {},
     "responses": [{"status": 429, "retryAfter": 2}, {"status": 429, "retryAfter": 2},
                   {"status": 201, "json": {"id": "ch_1"}}]},
    {"id": "strict", "request": {"method": "GET", "path": "/v1/balance"}, "earlyRetries": "refuse",
     "responses": [{"status": 429, "headers": {"Retry-After": "3"}}, {"status": 200, "json": {"available": 0}}]},
    {"id": "busy", "request": {"method": "POST", "path": "/v1/refunds"}, "responses": [{"status": 503, "retryAfter": 1}]},
    {"id": "plain", "request": {"method": "GET", "path": "/v1/ping"}, "responses": [{"status": 200}]},
]}
CHARGE = {"User-Agent": "payments/1", "Idempotency-Key": "order-7", "Content-Type": "application/json"}


def admin(port, method, path, body=None):
    status, _, payload = request(port, method, path, json.dumps(body).encode() if body is not None else b"")
    return status, json.loads(payload) if payload else None


ROWS = """[...document.querySelectorAll('#timeline .tl-row')].map(row => ({
  stub: row.dataset.stub, client: row.dataset.client,
  attempts: [...row.querySelectorAll('g.attempt')].map(g => ({
    seq: Number(g.dataset.seq), verdict: g.dataset.verdict, status: g.querySelector('text.status').textContent,
    title: g.querySelector('title').textContent,
    x: (b => b.left + b.width / 2)(g.querySelector('.shape').getBoundingClientRect()) })),
  waits: [...row.querySelectorAll('g.wait')].map(g => ({
    askedMs: Number(g.dataset.askedMs), after: Number(g.dataset.afterSeq),
    left: g.querySelector('rect').getBoundingClientRect().left, right: g.querySelector('rect').getBoundingClientRect().right })),
  text: row.textContent }))"""


@unittest.skipIf(chromium_binary() is None and not os.environ.get("CI"), "chromium is not installed")
class RetryTimelineTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        work = pathlib.Path(cls.work.name)
        (work / "stubs.json").write_text(json.dumps(STUBS))
        cls.daemon = Daemon([str(work / "stubs.json"), "--quiet"], str(work / "stderr"))
        status, session = admin(cls.daemon.port, "POST", "/__admin/sessions", {"clock": {"frozenAt": FROZEN}})
        assert status == 201, session
        cls.session = session
        cls.port = session["port"]
        try:
            cls.drive()
            cls.browser = Chromium()
        except BaseException:
            cls.daemon.stop()
            cls.work.cleanup()
            raise
        cls.browser.navigate(session["url"] + "/__admin/ui")
        cls.browser.wait_for(f"document.querySelectorAll('#rows tr').length === {len(cls.seqs())}", timeout=20)
        cls.browser.evaluate("document.getElementById('view-retries').click()")
        cls.browser.wait_for("document.querySelectorAll('#timeline .tl-row').length === 2", timeout=10)

    @classmethod
    def drive(cls):
        """A payments client that retries once early and once on time, a client that comes back early to a stub
        that refuses early retries, a second client with one attempt and a poller of a stub that asks no wait."""
        def send(method, path, headers, body=b""):
            status, _, _ = request(cls.port, method, path, body, headers)
            return status

        def advance(duration):
            status, _ = admin(cls.port, "POST", "/__admin/clock", {"advance": duration})
            assert status == 200

        body = b'{"amount": 2000}'
        assert send("POST", "/v1/charges", CHARGE, body) == 429   # asks for 2 s
        advance("PT0.5S")
        assert send("POST", "/v1/charges", CHARGE, body) == 429   # early by 1.5 s, served anyway; asks 2 s again
        advance("PT2S")
        assert send("POST", "/v1/charges", CHARGE, body) == 201   # on time
        assert send("POST", "/v1/charges", {"User-Agent": "other/1"}, body) == 201  # another client: one attempt
        impatient = {"User-Agent": "impatient/1"}
        assert send("GET", "/v1/balance", impatient) == 429   # asks for 3 s
        advance("PT1S")
        assert send("GET", "/v1/balance", impatient) == 429   # early: refused again
        advance("PT2S")
        assert send("GET", "/v1/balance", impatient) == 200   # on time
        for _ in range(3):
            assert send("GET", "/v1/ping", {"User-Agent": "poller/1"}) == 200

    @classmethod
    def seqs(cls):
        status, journal = admin(cls.port, "GET", "/__admin/requests")
        assert status == 200, journal
        return sorted(journal["requests"], key=lambda e: e["seq"])

    @classmethod
    def tearDownClass(cls):
        try:
            # The screenshot: the Retries view, the early attempt opened in the detail panel.
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            cls.browser.evaluate("document.querySelector('#timeline .tl-row g.attempt.early').dispatchEvent(new MouseEvent('click'))")
            cls.browser.wait_for("document.getElementById('panel-detail').textContent.includes('early by')")
            cls.browser.screenshot(str(ARTIFACTS / "ui-retries.png"))
        finally:
            cls.browser.close()
            cls.daemon.stop()
            cls.work.cleanup()

    def rows(self):
        return self.browser.evaluate(ROWS)

    def row(self, stub):
        return next(r for r in self.rows() if r["stub"] == stub)

    def test_1_one_row_per_client_and_stub_that_retried_after_a_wait(self):
        rows = self.rows()
        self.assertEqual([(r["stub"], r["client"]) for r in rows],
                         [("create-charge", "payments/1"), ("strict", "impatient/1")],
                         "other/1 made one attempt and poller/1's stub never asked for a wait")
        self.assertIn("2 clients and stubs with retries", self.browser.evaluate(
            "document.getElementById('timeline-caption').textContent"))
        self.assertIn("09:00:00.000", self.browser.evaluate("document.getElementById('timeline-caption').textContent"))

    def test_2_each_attempt_is_a_mark_and_only_the_early_one_is_marked_early(self):
        journal = [e for e in self.seqs() if e["stub"] == "create-charge" and e["headers"]["user-agent"] == ["payments/1"]]
        row = self.row("create-charge")
        self.assertEqual([a["seq"] for a in row["attempts"]], [e["seq"] for e in journal])
        self.assertEqual([a["status"] for a in row["attempts"]], ["429", "429", "201"])
        self.assertEqual([a["verdict"] for a in row["attempts"]], ["none", "early", "on-time"])
        self.assertEqual(self.browser.evaluate(
            "[...document.querySelectorAll('#timeline .tl-row g.attempt.early')].map(g => Number(g.dataset.seq))"),
            [journal[1]["seq"]], "exactly the early attempt carries the early marker, in every row")
        self.assertIn("early 1.5 s", row["text"])
        self.assertIn("1 early", row["text"])
        xs = [a["x"] for a in row["attempts"]]
        self.assertLess(xs[0], xs[1])
        self.assertLess(xs[1], xs[2])

    def test_3_the_wait_each_answer_asked_for_is_drawn_after_it(self):
        row = self.row("create-charge")
        attempts = row["attempts"]
        self.assertEqual([(w["askedMs"], w["after"]) for w in row["waits"]],
                         [(2000, attempts[0]["seq"]), (2000, attempts[1]["seq"])])
        first, second = row["waits"]
        self.assertAlmostEqual(first["left"], attempts[0]["x"], delta=1)
        self.assertTrue(first["left"] < attempts[1]["x"] < first["right"], "the early attempt came inside the wait")
        self.assertAlmostEqual(second["left"], attempts[1]["x"], delta=1)
        self.assertGreaterEqual(attempts[2]["x"] + 1, second["right"], "the on-time attempt came after it")
        # The shared axis: 500 ms in one row is as wide as 500 ms in another.
        self.assertAlmostEqual((first["right"] - first["left"]) / 2000, (attempts[1]["x"] - attempts[0]["x"]) / 500, places=2)

    def test_4_a_refused_retry_is_marked_apart_and_judged_against_the_same_wait(self):
        row = self.row("strict")
        self.assertEqual([a["verdict"] for a in row["attempts"]], ["none", "refused", "on-time"])
        self.assertEqual([a["status"] for a in row["attempts"]], ["429", "429", "200"])
        self.assertEqual([(w["askedMs"], w["after"]) for w in row["waits"]], [(3000, row["attempts"][0]["seq"])])
        self.assertIn("1 refused", row["text"])
        self.assertIn("early by 2 s, refused again", row["attempts"][1]["title"])

    def test_5_status_and_idempotency_key_show_on_hover(self):
        row = self.row("create-charge")
        self.assertTrue(all("key order-7: first" in a["title"] for a in row["attempts"]), row["attempts"])
        self.assertIn("POST /v1/charges → 429", row["attempts"][0]["title"])
        self.assertIn("early by 1.5 s: waited 500 ms of the 2 s asked", row["attempts"][1]["title"])
        self.assertIn("key order-7 on every attempt", row["text"])

    def test_6_clicking_a_mark_opens_its_request(self):
        seq = self.row("create-charge")["attempts"][1]["seq"]
        self.browser.evaluate(f"document.querySelector('#timeline .tl-row g.attempt[data-seq=\"{seq}\"]').dispatchEvent(new MouseEvent('click'))")
        detail, _ = self.browser.wait_for(
            f"(t => t.startsWith('#{seq} ') && t)(document.getElementById('panel-detail').textContent)")
        self.assertIn("early by 1500 ms", detail)

    def test_7_new_retries_appear_without_reload_and_r_switches_views(self):
        for _ in range(2):  # the second comes at once: early by the whole second asked
            request(self.port, "POST", "/v1/refunds", b"", {"User-Agent": "storm/1"})
        self.browser.wait_for("document.querySelectorAll('#timeline .tl-row').length === 3", timeout=10)
        row = self.row("busy")
        self.assertEqual(row["client"], "storm/1")
        self.assertEqual([a["verdict"] for a in row["attempts"]], ["none", "early"])
        self.assertEqual(len(row["waits"]), 2, "the wait asked of the first and, not yet retried, of the second")
        self.browser.evaluate("document.body.focus()")
        self.browser.key("r", code="KeyR", text="r")
        self.assertEqual(self.browser.evaluate("[document.getElementById('timeline').hidden, document.getElementById('list-view').hidden]"),
                         [True, False])
        self.browser.key("r", code="KeyR", text="r")
        self.assertEqual(self.browser.evaluate("document.getElementById('view-retries').getAttribute('aria-pressed')"), "true")

    def test_8_the_page_threw_no_error_and_its_policy_refused_nothing(self):
        errors = [e["params"]["exceptionDetails"] for e in self.browser.all_events if e.get("method") == "Runtime.exceptionThrown"]
        self.assertEqual(errors, [])
        logged = [e["params"]["entry"]["text"] for e in self.browser.all_events if e.get("method") == "Log.entryAdded"]
        self.assertEqual([t for t in logged if "Content Security Policy" in t], [])


if __name__ == "__main__":
    unittest.main()
