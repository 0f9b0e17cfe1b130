"""Native header-value rules (issue 43) against the built daemon, with real clients (curl and Python's
http.client): media types (`Content-Type`, `Accept`) and `Connection` options compared ignoring case as
RFC 9110 says, other headers exactly; negative matchers (`not`, `doesNotContain`) accepting a request that
does not send the header, as WireMock 3 does; and a JSON path's empty selection and `absent` matcher."""
import http.client
import shutil
import subprocess
import unittest

from Tests.BlackBox.blackbox import StubFileDaemonTestCase

STUBS = {"stubs": [
    {"id": "json-in", "request": {"method": "POST", "path": "/orders", "headers": {"Content-Type": "application/json"}},
     "responses": [{"status": 201, "body": "json"}]},
    {"id": "problem-out", "request": {"path": "/problem", "headers": {"Accept": {"contains": "application/problem+json"}}},
     "responses": [{"body": "problem"}]},
    {"id": "custom", "request": {"path": "/custom", "headers": {"X-Kind": "json"}}, "responses": [{"body": "custom"}]},
    {"id": "any-key-but", "request": {"path": "/pay", "headers": {"X-Api-Key": {"not": {"equals": "revoked"}}}},
     "responses": [{"body": "paid"}]},
    {"id": "not-debug", "request": {"path": "/quiet", "query": {"mode": {"doesNotContain": "debug"}}},
     "responses": [{"body": "quiet"}]},
    {"id": "items", "request": {"method": "POST", "path": "/items", "body": {"jsonPath": "$.items"}},
     "responses": [{"body": "has items"}]},
    {"id": "unsigned", "request": {"method": "POST", "path": "/unsigned",
                                   "body": {"jsonPath": {"expression": "$.signature", "matcher": {"absent": True}}}},
     "responses": [{"body": "unsigned"}]},
]}


class HeaderValueTests(StubFileDaemonTestCase):
    STUBS = STUBS

    def send(self, method, path, headers=None, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.daemon.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()

    def test_media_types_ignore_case_and_other_values_do_not(self):
        self.assertEqual(self.send("POST", "/orders", {"Content-Type": "APPLICATION/JSON"}, "{}"), (201, "json"))
        self.assertEqual(self.send("POST", "/orders", {"Content-Type": "Application/Json"}, "{}"), (201, "json"))
        self.assertEqual(self.send("POST", "/orders", {"Content-Type": "text/plain"}, "{}")[0], 404)
        self.assertEqual(self.send("GET", "/problem", {"Accept": "Application/Problem+JSON, */*;q=0.1"}),
                         (200, "problem"))
        self.assertEqual(self.send("GET", "/custom", {"X-Kind": "json"}), (200, "custom"))
        self.assertEqual(self.send("GET", "/custom", {"X-Kind": "JSON"})[0], 404, "a custom header compares exactly")

    @unittest.skipUnless(shutil.which("curl"), "needs curl")
    def test_curl_with_an_upper_case_content_type(self):
        result = subprocess.run(["curl", "-s", "-w", " %{http_code}", "-H", "Content-Type: APPLICATION/JSON",
                                 "--data", "{}", f"http://127.0.0.1:{self.daemon.port}/orders"],
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(result.stdout, "json 201", result.stderr)

    def test_not_and_does_not_contain_accept_a_missing_name(self):
        self.assertEqual(self.send("GET", "/pay"), (200, "paid"), "no key at all is not the revoked key")
        self.assertEqual(self.send("GET", "/pay", {"X-Api-Key": "k1"}), (200, "paid"))
        self.assertEqual(self.send("GET", "/pay", {"X-Api-Key": "revoked"})[0], 404)
        self.assertEqual(self.send("GET", "/quiet"), (200, "quiet"))
        self.assertEqual(self.send("GET", "/quiet?mode=debug-all")[0], 404)
        # Each request journaled once, matched or not.
        self.assertEqual([entry["matched"] for entry in self.journal_entries()], [True, True, False, True, False])

    def test_json_path_empty_selection_and_absent(self):
        json_type = {"Content-Type": "application/json"}
        self.assertEqual(self.send("POST", "/items", json_type, '{"items": [1]}'), (200, "has items"))
        self.assertEqual(self.send("POST", "/items", json_type, '{"items": []}')[0], 404)
        self.assertEqual(self.send("POST", "/unsigned", json_type, '{"amount": 1}'), (200, "unsigned"))
        self.assertEqual(self.send("POST", "/unsigned", json_type, '{"signature": "s"}')[0], 404)


if __name__ == "__main__":
    unittest.main()
