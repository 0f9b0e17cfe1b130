"""What curl and Python's HTTP clients do when a `connection-reset` fault hits a request, on a fresh connection and
on a reused keep-alive one, for a GET and for a POST with a body: whether the request is sent again behind the
caller's back, how many times the daemon journals it, and what the caller sees. docs/cli.md ("A reset on a reused
connection") holds these results in a table; this file measures its rows for curl, http.client and requests, as
Tests/RESTNetworkingTests/Integration/ConnectionResetRetryIntegrationTests.swift does for URLSession and
AsyncHTTPClient.

curl (libcurl 7.88) sends a request again, once, on a new connection when a reused connection dies before any answer
byte, GET and POST alike (it can rewind a `-d` body), so the daemon journals it twice; a fresh connection is not
retried. http.client and requests never send a request again on their own."""
import http.client
import re
import subprocess
import unittest

from Tests.BlackBox.blackbox import ROOT, StubFileDaemonTestCase

STUBS = {"stubs": [
    {"id": "warm-up", "request": {"path": "/warm-up"}, "responses": [{"body": "ok"}]},
    {"id": "reset", "request": {"path": "/reset"}, "responses": [{"fault": "connection-reset"}]},
]}
BODY = b'{"amount":500}'
CURL_RECV_ERROR = 56  # "Recv failure: Connection reset by peer"


def documented(client, method, reused):
    """(times journaled, the cell's text) that docs/cli.md's retry table says for `client` (the start of its first
    cell) sending `method` on a fresh or a reused connection."""
    for line in (ROOT / "docs" / "cli.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith(client) and cells[1].startswith(method):
            cell = cells[3 if reused else 2]
            count = re.match(r"journaled (\d)×", cell)
            if not count:
                raise AssertionError(f"docs/cli.md: {client} {method}: no `journaled N×` in {cell!r}")
            return int(count.group(1)), cell
    raise AssertionError(f"docs/cli.md has no retry-table row for {client} {method}")


class FaultRetryTests(StubFileDaemonTestCase):
    STUBS = STUBS

    def resets(self, method):
        """The journal's entries for the reset stub with `method`: each a fault carried out, with the whole body."""
        entries = [entry for entry in self.journal_entries() if entry["path"] == "/reset"]
        for entry in entries:
            self.assertEqual((entry["method"], entry["outcome"], entry.get("fault")),
                             (method, "fault", "connection-reset"))
            if method == "POST":
                self.assertEqual(entry.get("body"), BODY.decode(), "the attempt reached the daemon whole")
        return len(entries)

    def clear_journal(self):
        """Each case starts from an empty journal (setUp clears it once per test)."""
        self.setUp()

    def url(self, path):
        return f"http://127.0.0.1:{self.daemon.port}{path}"

    def curl(self, method, reused):
        """curl's exit code and stderr; with `reused`, a GET /warm-up first on the same connection (`--next` keeps
        it)."""
        command = ["curl", "-sS", "--max-time", "10"]
        if reused:
            command += ["-o", "/dev/null", self.url("/warm-up"), "--next", "--max-time", "10"]
        if method == "POST":
            command += ["-H", "Content-Type: application/json", "--data-binary", BODY.decode()]
        command += ["-o", "/dev/null", self.url("/reset")]
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        return result.returncode, result.stderr

    def test_curl_sends_a_reset_request_again_once_on_a_reused_connection_only(self):
        for method in ("GET", "POST"):
            for reused in (False, True):
                with self.subTest(method=method, reused=reused):
                    self.clear_journal()
                    code, stderr = self.curl(method, reused)
                    self.assertEqual(code, CURL_RECV_ERROR, stderr)
                    self.assertIn("Connection reset by peer", stderr)
                    times, cell = documented("curl", method, reused)
                    self.assertIn(f"exit {CURL_RECV_ERROR}", cell)
                    self.assertEqual(self.resets(method), times,
                                     f"{method} on a {'reused' if reused else 'fresh'} connection: docs/cli.md says "
                                     f"{cell!r}")

    def http_client_call(self, method, reused):
        connection = http.client.HTTPConnection("127.0.0.1", self.daemon.port, timeout=10)
        try:
            if reused:
                connection.request("GET", "/warm-up")
                self.assertEqual(connection.getresponse().read(), b"ok")
            with self.assertRaises(ConnectionResetError):
                connection.request(method, "/reset", body=BODY if method == "POST" else None)
                connection.getresponse().read()
        finally:
            connection.close()

    def test_http_client_never_sends_a_reset_request_again(self):
        for method in ("GET", "POST"):
            for reused in (False, True):
                with self.subTest(method=method, reused=reused):
                    self.clear_journal()
                    self.http_client_call(method, reused)
                    times, _ = documented("Python", method, reused)
                    self.assertIn("ConnectionResetError", documented("Python", method, False)[1])
                    self.assertEqual(self.resets(method), times)

    def test_requests_never_sends_a_reset_request_again(self):
        try:
            import requests
        except ImportError:  # scripts/test installs it; by hand it may be missing
            self.skipTest("the requests package is not installed")
        for method in ("GET", "POST"):
            for reused in (False, True):
                with self.subTest(method=method, reused=reused):
                    self.clear_journal()
                    with requests.Session() as session:
                        if reused:
                            self.assertEqual(session.get(self.url("/warm-up"), timeout=10).text, "ok")
                        with self.assertRaises(requests.ConnectionError) as raised:
                            session.request(method, self.url("/reset"), data=BODY if method == "POST" else None,
                                            timeout=10)
                    self.assertIn("Connection reset by peer", str(raised.exception))
                    times, _ = documented("Python", method, reused)
                    self.assertIn("ConnectionError", documented("Python", method, False)[1])
                    self.assertEqual(self.resets(method), times)


if __name__ == "__main__":
    unittest.main()
