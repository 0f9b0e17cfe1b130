"""`/__admin/ui` in a real browser: Debian's headless `chromium`, driven over the DevTools protocol, against the
built daemon started with an admin token. The page asks for the token, shows requests sent after it loaded
within a second without reloading, filters narrow the list, an unmatched entry shows the near-miss text, the
side panels show stub progress and scenario states, nothing is loaded from outside the daemon, and looking
adds nothing to the journal. Saves a screenshot to `.ci-artifacts/ui.png` (CI keeps it as an artifact)."""
import json
import os
import pathlib
import tempfile
import time
import unittest

from Tests.BlackBox.blackbox import ROOT, Daemon, request
from Tests.BlackBox.chromium_cdp import Chromium, chromium_binary

TOKEN = "ui-test-token"
ARTIFACTS = pathlib.Path(os.environ.get("UNDERSTUDY_ARTIFACTS", ROOT / ".ci-artifacts"))
STUBS = {"stubs": [
    {"id": "list-posts", "description": "The posts, after one 429.",
     "request": {"method": "GET", "path": "/posts", "headers": {"Authorization": {"matches": "^Bearer .+"}}},
     "responses": [{"status": 429, "retryAfter": 1}, {"status": 200, "json": [{"id": 1, "title": "hello"}]}]},
    {"id": "create-post", "request": {"method": "POST", "path": "/posts"}, "responses": [{"status": 201, "json": {"id": 2}}]},
    {"id": "login", "request": {"method": "POST", "path": "/login"}, "scenario": "auth", "setState": "LoggedIn",
     "responses": [{"status": 200, "json": {"token": "t"}}]},
    {"id": "profile", "request": {"method": "GET", "path": "/profile"}, "scenario": "auth", "whenState": "LoggedIn",
     "responses": [{"status": 200, "json": {"name": "Ada"}}], "afterLast": "exhaust"},
    {"id": "search", "request": {"path": "/search"}, "rateLimit": {"limit": 2, "window": 60},
     "responses": [{"json": {"hits": []}}]},
]}
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def journal(port):
    status, _, body = request(port, "GET", "/__admin/requests", headers=AUTH)
    assert status == 200, body
    return json.loads(body)["requests"]


@unittest.skipIf(chromium_binary() is None and not os.environ.get("CI"), "chromium is not installed")
class UITests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        work = pathlib.Path(cls.work.name)
        (work / "stubs.json").write_text(json.dumps(STUBS))
        cls.daemon = Daemon([str(work / "stubs.json"), "--quiet", "--admin-token", TOKEN], str(work / "stderr"))
        cls.port = cls.daemon.port
        cls.base = f"http://127.0.0.1:{cls.port}"
        cls.sent = []
        for method, path, headers in [("GET", "/posts", {"Authorization": "Bearer a"}), ("POST", "/login", {}),
                                      ("GET", "/profile", {}), ("GET", "/search?q=1", {}), ("GET", "/postz", {})]:
            request(cls.port, method, path, headers=headers)
            cls.sent.append((method, path))
        started = time.monotonic()
        cls.browser = Chromium()
        cls.browser_start_seconds = time.monotonic() - started
        cls.browser.navigate(cls.base + "/__admin/ui")
        cls.browser.evaluate("window.__sameDocument = 'marker'")
        cls.browser.wait_for("document.getElementById('token-dialog').open", timeout=20)
        cls.browser.type_text(TOKEN)
        cls.browser.key("Enter", key_code=13, text="\r")
        cls.browser.wait_for("document.querySelectorAll('#rows tr').length === 5", timeout=20)

    @classmethod
    def tearDownClass(cls):
        try:
            # The screenshot shows an unmatched request opened on its near-miss explanation.
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            cls.browser.evaluate("document.getElementById('filters').reset()")
            cls.browser.wait_for("[...document.querySelectorAll('#rows td.path')].some(td => td.textContent === '/postz')")
            cls.browser.evaluate("[...document.querySelectorAll('#rows tr')].find(r => r.cells[3].textContent === '/postz').click()")
            cls.browser.wait_for("!!document.getElementById('near-miss')")
            cls.browser.screenshot(str(ARTIFACTS / "ui.png"))
        finally:
            cls.browser.close()
            cls.daemon.stop()
            cls.work.cleanup()

    def send(self, method, path, headers=None):
        request(self.port, method, path, headers=headers or {})
        self.sent.append((method, path))

    def rows(self):
        return self.browser.evaluate(
            "[...document.querySelectorAll('#rows tr')].map(r => [...r.cells].map(c => c.textContent))")

    def set_filter(self, element_id, value):
        """Types into a filter the way a user would: focus, select all, type."""
        self.browser.evaluate(f"(() => {{ const e = document.getElementById('{element_id}'); e.focus();"
                              f" if (e.select) e.select(); }})()")
        if value:
            self.browser.type_text(value)
        else:
            self.browser.key("Backspace", key_code=8)

    def test_1_the_api_still_refuses_calls_without_the_token(self):
        status, headers, _ = request(self.port, "GET", "/__admin/requests")
        self.assertEqual(status, 401)
        self.assertIn("Bearer", headers.get("www-authenticate", ""))
        status, _, _ = request(self.port, "GET", "/__admin/requests.har")
        self.assertEqual(status, 401)
        status, headers, body = request(self.port, "GET", "/__admin/ui")
        self.assertEqual(status, 200)
        self.assertIn(b"<title>Understudy</title>", body)
        self.assertIn("default-src 'none'", headers["content-security-policy"])

    def test_2_the_journal_is_newest_first(self):
        rows = self.rows()
        self.assertEqual([r[0] for r in rows], ["5", "4", "3", "2", "1"])
        self.assertEqual(rows[0][3], "/postz")
        self.assertIn("unmatched", rows[0][6])
        self.assertEqual(rows[4][4], "429")

    def test_3_requests_sent_after_load_appear_within_a_second_without_reload(self):
        for path in ["/posts", "/search?q=2", "/nothing/here"]:
            before = time.monotonic()
            self.send("GET", path, {"Authorization": "Bearer a"})
            sent = time.monotonic()
            target = json.dumps(path)
            _, waited = self.browser.wait_for(
                f"[...document.querySelectorAll('#rows tr td.path')].some(td => td.textContent === {target})", timeout=5)
            appeared = time.monotonic()
            self.assertLess(appeared - sent, 1.0, f"{path} took {appeared - before:.3f} s to show")
            print(f"    {path} showed {1000 * (appeared - sent):.0f} ms after its response", flush=True)
        self.assertEqual(self.browser.evaluate("window.__sameDocument"), "marker")
        navigations = [e for e in self.browser.all_events if e.get("method") == "Page.frameNavigated"
                       and "parentId" not in e["params"]["frame"]]
        self.assertEqual(len(navigations), 1, "the page was reloaded")

    def test_4_filters_narrow_the_list(self):
        total = len(self.rows())
        self.assertGreaterEqual(total, 5)
        self.browser.evaluate("document.body.focus()")
        self.browser.key("/", code="Slash", text="/")  # the keyboard shortcut focuses the path filter
        self.assertEqual(self.browser.evaluate("document.activeElement.id"), "f-path")
        self.browser.type_text("/posts")
        rows = self.rows()
        self.assertTrue(0 < len(rows) < total)
        self.assertTrue(all("/posts" in r[3] for r in rows), rows)
        self.set_filter("f-path", "")
        self.set_filter("f-status", "4xx")
        rows = self.rows()
        self.assertTrue(rows and len(rows) < total)
        self.assertTrue(all(r[4].startswith("4") for r in rows), rows)
        self.set_filter("f-status", "")
        self.set_filter("f-method", "post")
        self.assertEqual({r[2] for r in self.rows()}, {"POST"})
        self.set_filter("f-method", "")
        self.set_filter("f-stub", "search")
        self.assertEqual({r[5] for r in self.rows()}, {"search"})
        self.set_filter("f-stub", "")
        self.browser.evaluate("(() => { const s = document.getElementById('f-matched'); s.focus(); s.value = 'false';"
                              " s.dispatchEvent(new Event('input', {bubbles: true})); })()")
        rows = self.rows()
        self.assertTrue(rows and len(rows) < total)
        self.assertTrue(all("unmatched" in r[6] for r in rows), rows)
        self.assertIn("match", self.browser.evaluate("document.getElementById('count').textContent"))

    def test_5_opening_an_unmatched_entry_shows_the_near_miss(self):
        self.browser.evaluate("(() => { const s = document.getElementById('f-matched'); s.value = 'false';"
                              " s.dispatchEvent(new Event('input', {bubbles: true})); })()")
        self.browser.key("Escape", key_code=27)  # back to the list
        self.browser.evaluate("document.querySelector('#rows tr').focus()")
        self.browser.key("Enter", key_code=13, text="\r")
        text, _ = self.browser.wait_for("document.getElementById('near-miss')?.textContent", timeout=10)
        self.assertIn("No stub matched GET", text)
        self.assertIn("Closest stubs:", text)
        self.assertRegex(text, r"path /\S+ ≠ /")
        self.assertEqual(self.browser.evaluate("document.activeElement.id"), "panel-detail")
        detail = self.browser.evaluate("document.getElementById('panel-detail').textContent")
        self.assertIn("none: unmatched", detail)
        self.assertIn(f"host127.0.0.1:{self.port}", detail)  # the request's headers, name and value

    def test_6_a_matched_entry_shows_its_place_in_the_sequence_and_scenario_move(self):
        self.browser.evaluate("document.getElementById('filters').reset()")
        self.browser.wait_for("document.querySelectorAll('#rows tr').length >= 5")
        self.browser.evaluate("[...document.querySelectorAll('#rows tr')].find(r => r.cells[5].textContent === 'login').click()")
        detail, _ = self.browser.wait_for("document.getElementById('panel-detail').textContent")
        self.assertIn("auth: Started → LoggedIn", detail)
        self.assertIn("response 1 of 1", detail)

    def test_6b_the_response_as_sent_is_shown(self):
        if "response" not in journal(self.port)[0]:
            self.skipTest("this journal records no responses (the journal-truth work is not merged in this build)")
        self.browser.evaluate("[...document.querySelectorAll('#rows tr')].find(r => r.cells[5].textContent === 'login').click()")
        detail, _ = self.browser.wait_for(
            "(t => t.includes('Status 200') && t)(document.getElementById('panel-detail').textContent)")
        self.assertIn('"token": "t"', detail)  # the body, pretty-printed
        self.assertIn("content-typeapplication/json", detail)
        self.assertIn("answered after", detail)

    def test_6c_the_keyboard_moves_through_the_list(self):
        self.browser.evaluate("document.getElementById('filters').reset()")
        self.browser.wait_for("document.querySelectorAll('#rows tr').length >= 5")
        self.browser.evaluate("document.querySelector('#rows tr').focus()")
        first = self.browser.evaluate("document.activeElement.dataset.seq")
        self.browser.key("j", code="KeyJ", text="j")
        self.browser.key("ArrowDown", key_code=40)
        second = self.browser.evaluate("document.activeElement.dataset.seq")
        self.assertEqual(int(second), int(first) - 2, "two rows down the newest-first list")
        heading = self.browser.evaluate("document.querySelector('#panel-detail h2').textContent")
        self.assertTrue(heading.startswith(f"#{second} "), heading)
        self.browser.key("k", code="KeyK", text="k")
        self.assertEqual(int(self.browser.evaluate("document.activeElement.dataset.seq")), int(first) - 1)
        self.browser.key("Enter", key_code=13, text="\r")
        self.assertEqual(self.browser.evaluate("document.activeElement.id"), "panel-detail")

    def test_6d_download_har_asks_the_daemon_with_the_token(self):
        self.browser.call("Browser.setDownloadBehavior", {"behavior": "deny"}, session=None)
        self.browser.evaluate("document.getElementById('har').click()")
        self.browser.wait_for("performance.getEntriesByType('resource').some(e => e.name.includes('/__admin/requests.har'))")
        answered = [e["params"]["response"]["status"] for e in self.browser.all_events
                    if e.get("method") == "Network.responseReceived" and "/__admin/requests.har" in e["params"]["response"]["url"]]
        self.assertEqual(answered, [200])

    def test_6e_an_early_retry_is_marked_in_the_list_and_explained_in_the_detail(self):
        # Use up /search's rate limit (2 a minute) until it refuses with Retry-After, then retry at once.
        self.browser.evaluate("document.getElementById('filters').reset()")
        for _ in range(3):
            self.send("GET", "/search?q=retry")
            if max(journal(self.port), key=lambda e: e["seq"])["status"] == 429:
                break
        self.send("GET", "/search?q=retry")
        retry = max(journal(self.port), key=lambda e: e["seq"])["retry"]
        self.assertEqual(retry["verdict"], "early")
        self.assertGreater(retry["askedMs"], 50_000)
        self.browser.wait_for("[...document.querySelectorAll('#rows tr')].some(r => r.cells[6].textContent.includes('early by'))",
                              timeout=10)
        self.browser.evaluate("[...document.querySelectorAll('#rows tr')].find(r => r.cells[6].textContent.includes('early by')).click()")
        detail, _ = self.browser.wait_for(
            "(t => t.includes('ms after an answer that asked for') && t)(document.getElementById('panel-detail').textContent)")
        self.assertIn("early by " + str(retry["earlyByMs"]) + " ms", detail)

    def test_6f_the_retries_view_draws_the_main_ports_journal_too(self):
        # After 6e: /search's refusal asked for the rest of its window and the retry came at once. Every request
        # here has no User-Agent, so each stub's attempts are one client's (test_ui_timeline.py covers the rest).
        self.browser.evaluate("document.getElementById('view-retries').click()")
        stubs, _ = self.browser.wait_for(
            "(s => s.includes('search') && s)([...document.querySelectorAll('#timeline .tl-row')].map(r => r.dataset.stub))")
        self.assertEqual(sorted(stubs), ["list-posts", "search"], "the stubs that asked for a wait and were asked again")
        search = "document.querySelector('#timeline .tl-row[data-stub=\"search\"]')"
        self.assertIn("no User-Agent", self.browser.evaluate(search + ".querySelector('h3').textContent"))
        verdicts = self.browser.evaluate(f"[...{search}.querySelectorAll('g.attempt')].map(g => g.dataset.verdict)")
        self.assertEqual(verdicts.count("early"), 1, verdicts)
        self.assertEqual(verdicts[-1], "early")
        self.browser.evaluate("document.getElementById('view-list').click()")
        self.assertFalse(self.browser.evaluate("document.getElementById('list-view').hidden"))

    def test_7_side_panels_show_stub_progress_scenarios_and_rate_limits(self):
        self.browser.evaluate("document.body.focus()")
        self.browser.key("2", code="Digit2", text="2")
        stubs, _ = self.browser.wait_for(
            "!document.getElementById('panel-stubs').hidden && document.getElementById('panel-stubs').textContent")
        for stub in STUBS["stubs"]:
            self.assertIn(stub["id"], stubs)
        self.assertIn("exhausted", stubs)  # profile: afterLast exhaust, served once
        self.browser.key("3", code="Digit3", text="3")
        scenarios = self.browser.evaluate("document.getElementById('panel-scenarios').textContent")
        self.assertIn("auth", scenarios)
        self.assertIn("LoggedIn", scenarios)
        self.browser.key("4", code="Digit4", text="4")
        limits = self.browser.evaluate("document.getElementById('panel-limits').textContent")
        self.assertIn("search", limits)
        self.assertIn("2 per 60 s", limits)
        self.browser.key("1", code="Digit1", text="1")

    def test_7b_the_sessions_panel_lists_sessions_whose_ports_serve_the_page_too(self):
        body = json.dumps({"name": "ui-session", "stubs": [{"request": {"path": "/s"}, "responses": [{}]}]}).encode()
        status, _, answer = request(self.port, "POST", "/__admin/sessions", body=body, headers=AUTH)
        self.assertEqual(status, 201, answer)
        session = json.loads(answer)
        try:
            self.browser.evaluate("document.body.focus()")
            self.browser.key("5", code="Digit5", text="5")
            panel, _ = self.browser.wait_for(
                "(t => t.includes('ui-session') && t)(document.getElementById('panel-sessions').textContent)", timeout=10)
            self.assertIn(session["url"], panel)
            link = self.browser.evaluate("document.querySelector('#panel-sessions a').getAttribute('href')")
            self.assertEqual(link, session["url"] + "/__admin/ui")
            status, _, page = request(session["port"], "GET", "/__admin/ui")
            self.assertEqual(status, 200)
            self.assertIn(b"<title>Understudy</title>", page)
            self.browser.key("1", code="Digit1", text="1")
        finally:
            request(self.port, "DELETE", "/__admin/sessions/" + session["id"], headers=AUTH)

    def test_7c_updates_come_by_long_poll(self):
        status = self.browser.evaluate("document.getElementById('status').textContent")
        self.assertEqual(status, "live (long poll)")

    def test_8_nothing_is_loaded_from_outside_the_daemon(self):
        urls = self.browser.requested_urls()
        self.assertGreater(len(urls), 3)
        outside = [u for u in urls if not (u.startswith(self.base + "/") or u.startswith(("data:", "blob:")))]
        self.assertEqual(outside, [])
        self.assertIn(self.base + "/__admin/ui/app.js", urls)
        resources = self.browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        self.assertTrue(all(u.startswith(self.base + "/") for u in resources), resources)

    def test_8b_the_page_threw_no_error(self):
        errors = [e["params"]["exceptionDetails"] for e in self.browser.all_events if e.get("method") == "Runtime.exceptionThrown"]
        self.assertEqual(errors, [])
        logged = [e["params"]["entry"]["text"] for e in self.browser.all_events if e.get("method") == "Log.entryAdded"]
        self.assertEqual([t for t in logged if "Content Security Policy" in t], [])  # nothing the page's CSP refused

    def test_9_looking_does_not_change_the_journal(self):
        entries = journal(self.port)
        self.assertEqual([(e["method"], e["path"] + ("?" + e["query"] if e["query"] else "")) for e in entries],
                         self.sent)
        self.assertFalse(any(e["path"].startswith("/__admin") or e["path"] == "/favicon.ico" for e in entries))
        # What a browser asks for by itself: answered, and still not journaled.
        status, headers, body = request(self.port, "GET", "/favicon.ico")
        self.assertEqual(status, 200)
        self.assertEqual(headers["content-type"], "image/x-icon")
        self.assertEqual(len(journal(self.port)), len(entries))


class FaviconTests(unittest.TestCase):
    """A user's stub for /favicon.ico still wins; the built-in answer is only for requests no stub is about."""

    def test_a_user_stub_for_the_favicon_wins_and_is_journaled(self):
        with tempfile.TemporaryDirectory() as work:
            stubs = pathlib.Path(work) / "stubs.json"
            stubs.write_text(json.dumps({"stubs": [
                {"id": "icon", "request": {"path": "/favicon.ico"}, "responses": [{"status": 200, "body": "mine"}],
                 "afterLast": "exhaust"}]}))
            daemon = Daemon([str(stubs), "--quiet"], str(pathlib.Path(work) / "stderr"))
            try:
                status, _, body = request(daemon.port, "GET", "/favicon.ico")
                self.assertEqual((status, body), (200, b"mine"))
                # Exhausted now: the stub is still about this request, so the miss is the user's, journaled.
                status, _, _ = request(daemon.port, "GET", "/favicon.ico")
                self.assertEqual(status, 404)
                _, _, body = request(daemon.port, "GET", "/__admin/requests")
                entries = json.loads(body)["requests"]
                self.assertEqual([(e["stub"], e["matched"]) for e in entries], [("icon", True), (None, False)])
            finally:
                daemon.stop()

    def test_without_a_stub_the_favicon_is_answered_but_not_journaled(self):
        with tempfile.TemporaryDirectory() as work:
            stubs = pathlib.Path(work) / "stubs.json"
            stubs.write_text(json.dumps({"stubs": [{"request": {"path": "/x"}, "responses": [{}]}]}))
            daemon = Daemon([str(stubs), "--quiet"], str(pathlib.Path(work) / "stderr"))
            try:
                status, headers, body = request(daemon.port, "GET", "/favicon.ico")
                self.assertEqual(status, 200)
                self.assertEqual(body[:4], b"\x00\x00\x01\x00")  # an ICO header
                status, _, _ = request(daemon.port, "POST", "/favicon.ico")  # not a browser's fetch: journaled
                self.assertEqual(status, 404)
                _, _, body = request(daemon.port, "GET", "/__admin/requests")
                self.assertEqual([e["method"] for e in json.loads(body)["requests"]], ["POST"])
            finally:
                daemon.stop()


if __name__ == "__main__":
    unittest.main()
