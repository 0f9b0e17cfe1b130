"""`rateLimit`'s header dialects and refusal statuses (issue 29) against the built binary, with the
stdlib's http.client over 127.0.0.1. Each dialect's headers are checked name by name and value by
value against the API documentation they imitate:

- `ietf`: RateLimit-Limit/Remaining/Reset (draft-ietf-httpapi-ratelimit-headers up to -06);
- `ietf-draft`: RateLimit-Policy `"name";q=..;w=..` and RateLimit `"name";r=..;t=..` (draft -10, §3-4);
- `github`: X-RateLimit-Limit/Remaining/Used/Reset/Resource, the reset a Unix epoch
  (docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api), checked against `Date`;
- `x-ratelimit`: X-RateLimit-Limit/Remaining/Reset with the reset in seconds;
- `none`: no rate-limit headers.
"""
import email.utils
import http.client
import json
import pathlib
import tempfile
import unittest

from Tests.BlackBox.blackbox import Daemon, run_cli

STUBS = {
    "stubs": [
        {"id": "ietf", "request": {"path": "/ietf"}, "rateLimit": {"limit": 2, "window": 60},
         "responses": [{"status": 200, "body": "ok"}]},
        {"id": "draft", "request": {"path": "/draft"}, "rateLimit": {"limit": 2, "window": 60, "headers": "ietf-draft"},
         "responses": [{"status": 200, "body": "ok"}]},
        {"id": "draft-named", "request": {"path": "/draft-named"},
         "rateLimit": {"limit": 3, "window": 0.5, "headers": "ietf-draft", "name": "burst \"b\""},
         "responses": [{"status": 200}]},
        {"id": "github", "request": {"path": "/github"},
         "rateLimit": {"limit": 2, "window": 60, "headers": "github", "status": 403,
                       "json": {"message": "API rate limit exceeded", "documentation_url": "https://docs.github.com/rest"}},
         "responses": [{"status": 200, "body": "ok"}]},
        {"id": "github-secondary", "request": {"path": "/github-secondary"},
         "rateLimit": {"limit": 1, "window": 60, "headers": "github", "status": 403, "retryAfter": "seconds", "name": "search"},
         "responses": [{"status": 200}]},
        {"id": "xrl", "request": {"path": "/xrl"}, "rateLimit": {"limit": 1, "window": 30, "headers": "x-ratelimit"},
         "responses": [{"status": 200}]},
        {"id": "gateway", "request": {"path": "/gateway"},
         "rateLimit": {"limit": 1, "window": 30, "headers": "none", "status": 503, "body": "busy, come back later\n"},
         "responses": [{"status": 200}]},
    ]
}

LIMIT_HEADERS = {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit", "ratelimit-policy",
                 "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset",
                 "x-ratelimit-resource"}


def call(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def date_epoch(headers):
    return int(email.utils.parsedate_to_datetime(headers["date"]).timestamp())


class RateLimitDialectTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        work = pathlib.Path(cls.dir.name)
        (work / "stubs.json").write_text(json.dumps(STUBS))
        cls.daemon = Daemon([str(work / "stubs.json")], work / "stderr.log")
        cls.port = cls.daemon.port

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.dir.cleanup()

    def limit_headers(self, headers):
        return {name for name in headers if name in LIMIT_HEADERS}

    def journal(self, path):
        _, _, body = call(self.port, f"/__admin/requests?path={path}")
        return json.loads(body)["requests"]

    def test_ietf_is_the_default_and_unchanged(self):
        statuses = []
        for remaining in ["1", "0"]:
            status, headers, _ = call(self.port, "/ietf")
            statuses.append(status)
            self.assertEqual(self.limit_headers(headers), {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"})
            self.assertEqual(headers["ratelimit-limit"], "2")
            self.assertEqual(headers["ratelimit-remaining"], remaining)
            self.assertIn(int(headers["ratelimit-reset"]), range(59, 61))
        status, headers, body = call(self.port, "/ietf")
        self.assertEqual(status, 429)
        self.assertEqual(headers["ratelimit-remaining"], "0")
        self.assertIn(int(headers["retry-after"]), range(59, 61))
        self.assertTrue(body.startswith(b"Rate limit exceeded for stub ietf"), body)

    def test_ietf_draft_sends_the_structured_fields(self):
        expected_r = ["1", "0"]
        for r in expected_r:
            status, headers, _ = call(self.port, "/draft")
            self.assertEqual(status, 200)
            self.assertEqual(self.limit_headers(headers), {"ratelimit", "ratelimit-policy"})
            self.assertEqual(headers["ratelimit-policy"], '"default";q=2;w=60')
            prefix = f'"default";r={r};t='
            self.assertTrue(headers["ratelimit"].startswith(prefix), headers["ratelimit"])
            self.assertIn(int(headers["ratelimit"][len(prefix):]), range(59, 61))
        status, headers, _ = call(self.port, "/draft")
        self.assertEqual(status, 429)
        self.assertRegex(headers["ratelimit"], r'^"default";r=0;t=(59|60)$')
        self.assertEqual(headers["retry-after"], headers["ratelimit"].rsplit("=", 1)[1],
                         "Retry-After and t name the same moment (the draft: Retry-After not earlier than t)")

    def test_ietf_draft_quotes_the_name_and_leaves_out_a_fractional_window(self):
        _, headers, _ = call(self.port, "/draft-named")
        # `w` is whole seconds in the draft (§3.1.3), so a 0.5 s window is not announced.
        self.assertEqual(headers["ratelimit-policy"], '"burst \\"b\\"";q=3')
        self.assertRegex(headers["ratelimit"], r'^"burst \\"b\\"";r=2;t=1$')

    def test_github_sends_its_five_headers_with_the_reset_as_an_epoch_and_refuses_with_403(self):
        answers = [call(self.port, "/github") for _ in range(3)]
        resets = []
        for index, (status, headers, _) in enumerate(answers):
            self.assertEqual(self.limit_headers(headers),
                             {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset",
                              "x-ratelimit-resource"}, headers)
            self.assertEqual(headers["x-ratelimit-limit"], "2")
            self.assertEqual(headers["x-ratelimit-remaining"], str(max(0, 1 - index)))
            self.assertEqual(headers["x-ratelimit-used"], str(min(2, index + 1)))
            self.assertEqual(headers["x-ratelimit-resource"], "core")
            reset = int(headers["x-ratelimit-reset"])
            # The first request opened a 60 s window: its epoch, rounded up, is 60 or 61 s after
            # `Date` (whole seconds, rounded down), whichever side of a second boundary they fell.
            self.assertIn(reset - date_epoch(headers), range(58, 62), (reset, headers["date"]))
            resets.append(reset)
        self.assertEqual(len(set(resets)), 1, f"one window, one reset epoch: {resets}")
        self.assertEqual([a[0] for a in answers], [200, 200, 403])
        status, headers, body = answers[2]
        self.assertNotIn("retry-after", headers, "GitHub's primary limit sends no Retry-After")
        self.assertEqual(headers["content-type"], "application/json")
        self.assertEqual(json.loads(body)["message"], "API rate limit exceeded")
        journal = self.journal("/github")
        self.assertEqual([(e["status"], e["rateLimited"]) for e in journal], [(200, False), (200, False), (403, True)])

    def test_github_secondary_style_adds_retry_after_to_the_403_and_names_the_resource(self):
        call(self.port, "/github-secondary")
        status, headers, _ = call(self.port, "/github-secondary")
        self.assertEqual(status, 403)
        self.assertEqual(headers["x-ratelimit-resource"], "search")
        self.assertEqual(headers["x-ratelimit-remaining"], "0")
        retry_after = int(headers["retry-after"])
        self.assertIn(retry_after, range(59, 61))
        self.assertIn(int(headers["x-ratelimit-reset"]) - date_epoch(headers), range(retry_after - 1, retry_after + 2))

    def test_x_ratelimit_sends_the_reset_in_seconds(self):
        status, headers, _ = call(self.port, "/xrl")
        self.assertEqual(status, 200)
        self.assertEqual(self.limit_headers(headers), {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"})
        self.assertEqual((headers["x-ratelimit-limit"], headers["x-ratelimit-remaining"], headers["x-ratelimit-reset"]),
                         ("1", "0", "30"))
        status, headers, _ = call(self.port, "/xrl")
        self.assertEqual(status, 429)
        self.assertIn(int(headers["x-ratelimit-reset"]), range(29, 31))
        self.assertEqual(headers["retry-after"], headers["x-ratelimit-reset"])

    def test_none_with_503_sends_only_retry_after_and_the_given_body(self):
        status, headers, _ = call(self.port, "/gateway")
        self.assertEqual((status, self.limit_headers(headers)), (200, set()))
        status, headers, body = call(self.port, "/gateway")
        self.assertEqual(status, 503)
        self.assertEqual(self.limit_headers(headers), set())
        self.assertIn(int(headers["retry-after"]), range(29, 31))
        self.assertEqual(body, b"busy, come back later\n")
        self.assertEqual(headers["content-type"], "text/plain; charset=utf-8")
        self.assertEqual([e["rateLimited"] for e in self.journal("/gateway")], [False, True])

    def test_the_listing_shows_each_rules_dialect_and_status(self):
        _, _, body = call(self.port, "/__admin/stubs")
        rules = {s["id"]: s["rateLimit"] for s in json.loads(body)["stubs"]}
        self.assertEqual((rules["github"]["headers"], rules["github"]["status"], rules["github"]["retryAfter"]),
                         ("github", 403, "none"))
        self.assertEqual((rules["ietf"]["headers"], rules["ietf"]["status"], rules["ietf"]["retryAfter"]),
                         ("ietf", 429, "seconds"))


class RateLimitDialectValidationTests(unittest.TestCase):
    def check(self, rate_limit, needle):
        """`understudy check` on a stub with `rate_limit`; returns its output and the 1-based line and
        column where `needle` (a piece of the file's text) starts, to compare with the error's location."""
        with tempfile.TemporaryDirectory() as work:
            path = pathlib.Path(work) / "bad.json"
            document = {"stubs": [{"id": "s", "request": {"path": "/x"}, "responses": [{"status": 200}],
                                   "rateLimit": dict({"limit": 1, "window": 1}, **rate_limit)}]}
            text = json.dumps(document, indent=2)
            path.write_text(text)
            result = run_cli("check", path)
            self.assertEqual(result.returncode, 1, result.stdout)
            line = next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)
            column = text.splitlines()[line - 1].index(needle) + 1
            return result.stdout, f"bad.json:{line}:{column}: error: "

    def test_a_misspelt_dialect_is_located_with_a_suggestion(self):
        out, at = self.check({"headers": "gihtub"}, '"gihtub"')
        self.assertIn(at + "unknown value `gihtub`; did you mean `github`? (expected one of `ietf`, `ietf-draft`, `github`, "
                      "`x-ratelimit`, `none`) (at stubs[0].rateLimit.headers)", out)

    def test_a_refusal_status_outside_429_403_503_is_refused(self):
        out, at = self.check({"status": 492}, "492")
        self.assertIn(at + "a refusal's `status` must be one of 429, 403, 503; did you mean 429? (at stubs[0].rateLimit.status)", out)
        out, at = self.check({"status": 100}, "100")
        self.assertIn(at + "a refusal's `status` must be one of 429, 403, 503", out)

    def test_a_misspelt_key_suggests_the_right_one(self):
        out, at = self.check({"header": "github"}, '"header"')
        self.assertIn(at + "unknown key `header`; did you mean `headers`? (at stubs[0].rateLimit.header)", out)

    def test_body_and_json_together_are_refused(self):
        out, at = self.check({"body": "x", "json": {"a": 1}}, '"json"')
        self.assertIn(at + "more than one refusal body (`body` and `json`); give at most one (at stubs[0].rateLimit.json)", out)

    def test_a_name_that_cannot_go_into_a_header_is_refused(self):
        out, at = self.check({"headers": "github", "name": "c\u0153ur"}, '"c')
        self.assertIn(at + "the limit's `name` goes into a header: use printable ASCII only (at stubs[0].rateLimit.name)", out)
