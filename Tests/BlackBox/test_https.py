"""HTTPS (issue 14) against the built binary: the listener beside the plain one, the generated CA,
each deliberately bad certificate failing in curl and in Python's `ssl` for exactly its reason,
and keep-alive, pipelining, delays, faults, the journal and SIGTERM draining over TLS.

Real clients only: curl (with and without --cacert) and the stdlib's ssl/http.client.
"""
import http.client
import json
import os
import pathlib
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import unittest

from Tests.BlackBox.blackbox import Daemon, run_cli

STUBS = {
    "stubs": [
        {"id": "hello", "request": {"method": "GET", "path": "/hello"}, "responses": [{"status": 200, "body": "hi\n"}]},
        {"id": "slow", "request": {"method": "GET", "path": "/slow"},
         "responses": [{"status": 200, "body": "slow\n", "delayMs": 400}]},
        {"id": "reset", "request": {"method": "GET", "path": "/reset"}, "responses": [{"status": 200, "fault": "connection-reset"}]},
        {"id": "empty", "request": {"method": "GET", "path": "/empty"}, "responses": [{"status": 200, "fault": "empty-response"}]},
        {"id": "garbage", "request": {"method": "GET", "path": "/garbage"},
         "responses": [{"status": 200, "fault": "malformed-response"}]},
        {"id": "cut", "request": {"method": "GET", "path": "/cut"},
         "responses": [{"status": 200, "body": "abcdef", "fault": "close-after-headers"}]},
        {"id": "self", "request": {"method": "GET", "path": "/self"},
         "responses": [{"status": 200, "template": True, "body": "{{server.url}}",
                        "headers": {"Link": "<{{server.url}}/self?page=2>; rel=\"next\""}}]},
    ]
}

# What each bad mode must make a verifying client say: curl's exit code and message, and the
# OpenSSL verify code Python's ssl reports (X509_V_ERR_*).
BAD_MODES = {
    "expired": ("certificate has expired", 10),
    "not-yet-valid": ("certificate is not yet valid", 9),
    "wrong-host": ("no alternative certificate subject name matches target host name '127.0.0.1'", 64),
    "untrusted": ("unable to get local issuer certificate", 20),
}


def curl(*args):
    """Runs curl (silent, errors shown) speaking HTTP/1.1, which this suite is about (ALPN would pick
    h2: Tests/BlackBox/test_http2.py covers that); returns (exit code, stdout, stderr)."""
    done = subprocess.run(["curl", "-sS", "--http1.1", "--max-time", "20", *args], capture_output=True, text=True,
                          timeout=30)
    return done.returncode, done.stdout, done.stderr


def python_get(url, cafile=None):
    """GET with a default (verifying) ssl context; returns (status, body) or raises."""
    context = ssl.create_default_context(cafile=cafile)
    host, port = url.split("//")[1].rsplit(":", 1)
    connection = http.client.HTTPSConnection(host.strip("[]"), int(port), context=context, timeout=20)
    try:
        connection.request("GET", "/hello")
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class HTTPSDaemon:
    """A daemon with --https in its own temporary directory, with the CA and port files written."""

    def __init__(self, test, *extra):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="understudy-https-"))
        test.addCleanup(shutil.rmtree, self.work, True)
        (self.work / "stubs.json").write_text(json.dumps(STUBS))
        self.ca = self.work / "ca.pem"
        self.port_file = self.work / "https-port"
        self.journal = self.work / "journal.jsonl"
        self.daemon = Daemon([str(self.work / "stubs.json"), "--https", "--tls-ca-file", str(self.ca),
                              "--https-port-file", str(self.port_file), "--journal", str(self.journal), *extra],
                             str(self.work / "stderr.txt"))
        test.addCleanup(self.daemon.stop)
        self.url = f"https://127.0.0.1:{self.daemon.https_port}"
        self.plain = f"http://127.0.0.1:{self.daemon.port}"

    def journal_entries(self):
        return [json.loads(line) for line in self.journal.read_text().splitlines()]

    def tls_socket(self, context=None):
        context = context or ssl.create_default_context(cafile=str(self.ca))
        raw = socket.create_connection(("127.0.0.1", self.daemon.https_port), timeout=20)
        return context.wrap_socket(raw, server_hostname="127.0.0.1")


class HTTPSListenerTests(unittest.TestCase):
    def setUp(self):
        self.server = HTTPSDaemon(self)

    def test_readiness_line_has_plain_then_https_url_and_files_are_written(self):
        self.assertIsNotNone(self.server.daemon.https_port)
        self.assertNotEqual(self.server.daemon.port, self.server.daemon.https_port)
        self.assertEqual(int(self.server.port_file.read_text()), self.server.daemon.https_port)
        pem = self.server.ca.read_text()
        self.assertTrue(pem.startswith("-----BEGIN CERTIFICATE-----"), pem[:40])
        # The admin API serves the same CA, on the plain port and over HTTPS.
        code, body, _ = curl(f"{self.server.plain}/__admin/tls/ca.pem")
        self.assertEqual((code, body), (0, pem))
        code, body, _ = curl("--cacert", str(self.server.ca), f"{self.server.url}/__admin/tls/ca.pem")
        self.assertEqual((code, body), (0, pem))

    def test_curl_with_the_ca_gets_200_and_without_it_fails_verification(self):
        for host in ("127.0.0.1", "localhost"):
            code, body, err = curl("--cacert", str(self.server.ca), "-w", "%{http_code}",
                                   f"https://{host}:{self.server.daemon.https_port}/hello")
            self.assertEqual(code, 0, err)
            self.assertEqual(body, "hi\n200")
        code, _, err = curl(f"{self.server.url}/hello")
        self.assertEqual(code, 60, err)  # CURLE_PEER_FAILED_VERIFICATION
        self.assertIn("unable to get local issuer certificate", err)

    def test_python_ssl_agrees_with_curl(self):
        self.assertEqual(python_get(self.server.url, cafile=str(self.server.ca)), (200, b"hi\n"))
        with self.assertRaises(ssl.SSLCertVerificationError) as caught:
            python_get(self.server.url)  # the system's trust store only
        self.assertEqual(caught.exception.verify_code, 20)

    def test_journal_records_https_scheme_once_per_request_and_plain_requests_have_none(self):
        self.assertEqual(curl("--cacert", str(self.server.ca), f"{self.server.url}/hello")[0], 0)
        self.assertEqual(curl(f"{self.server.plain}/hello")[0], 0)
        entries = [e for e in self.server.journal_entries() if e["path"] == "/hello"]
        self.assertEqual([e.get("scheme") for e in entries], ["https", None])
        code, body, _ = curl(f"{self.server.plain}/__admin/requests")
        listed = [e for e in json.loads(body)["requests"] if e["path"] == "/hello"]
        self.assertEqual(sorted(str(e.get("scheme")) for e in listed), ["None", "https"])

    def test_server_url_template_names_the_scheme_and_port_the_request_arrived_on(self):
        code, body, err = curl("--cacert", str(self.server.ca), "-D", "-", f"{self.server.url}/self")
        self.assertEqual(code, 0, err)
        self.assertTrue(body.endswith(self.server.url), body)
        self.assertIn(f"Link: <{self.server.url}/self?page=2>", body)
        code, body, err = curl(f"{self.server.plain}/self")
        self.assertEqual((code, body), (0, self.server.plain), err)

    def test_keep_alive_and_pipelining_over_tls(self):
        with self.server.tls_socket() as tls:
            request = b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            tls.sendall(request * 3)  # pipelined: three requests in one write
            data = b""
            deadline = time.monotonic() + 20
            while data.count(b"hi\n") < 3 and time.monotonic() < deadline:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                data += chunk
            self.assertEqual(data.count(b"HTTP/1.1 200"), 3, data)
            # And the same connection serves one more afterwards (kept alive).
            tls.sendall(request)
            more = tls.recv(65536)
            self.assertTrue(more.startswith(b"HTTP/1.1 200"), more)
        self.assertEqual(len([e for e in self.server.journal_entries() if e["path"] == "/hello"]), 4)

    def test_delay_over_tls_is_no_shorter_than_the_stub_says(self):
        with self.server.tls_socket() as tls:
            start = time.monotonic()
            tls.sendall(b"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                data += chunk
            elapsed = time.monotonic() - start
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data)
        self.assertGreaterEqual(elapsed, 0.4)

    def test_faults_look_the_same_over_tls_as_over_plain_http(self):
        # curl's exit codes: 56 reset, 52 empty reply, 1 not HTTP (HTTP/0.9), 18 truncated body.
        expected = {"reset": 56, "empty": 52, "garbage": 1, "cut": 18}
        for path, code in expected.items():
            plain = curl(f"{self.server.plain}/{path}", "-o", os.devnull)[0]
            secure = curl("--cacert", str(self.server.ca), f"{self.server.url}/{path}", "-o", os.devnull)
            self.assertEqual((plain, secure[0]), (code, code), f"{path}: {secure[2]}")
        faults = [e["fault"] for e in self.server.journal_entries() if e.get("scheme") == "https"]
        self.assertEqual(faults, ["connection-reset", "empty-response", "malformed-response", "close-after-headers"])

    def test_garbage_and_truncated_handshakes_leave_the_daemon_serving(self):
        port = self.server.daemon.https_port
        for payload in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", os.urandom(4096), b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
                        b"\x16\x03\x01", b""):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                try:  # the daemon may drop a garbage handshake (even with a reset) before we finish
                    raw.sendall(payload)
                    raw.shutdown(socket.SHUT_WR)
                    while raw.recv(4096):
                        pass
                except OSError:
                    pass
        # A handshake abandoned half-way, left open, does not block others.
        with socket.create_connection(("127.0.0.1", port), timeout=10) as stalled:
            stalled.sendall(b"\x16\x03\x01\x00\x10")
            self.assertEqual(python_get(self.server.url, cafile=str(self.server.ca)), (200, b"hi\n"))
        self.assertTrue(self.server.daemon.alive())

    def test_sigterm_lets_an_in_flight_tls_response_finish(self):
        tls = self.server.tls_socket()
        self.addCleanup(tls.close)
        tls.sendall(b"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        # Wait until the daemon has the request (journaled on arrival), then stop it.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.server.journal.exists() and "/slow" in self.server.journal.read_text():
                break
            time.sleep(0.01)
        self.server.daemon.process.send_signal(signal.SIGTERM)
        data = b""
        while True:
            chunk = tls.recv(65536)
            if not chunk:
                break
            data += chunk
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data)
        self.assertIn(b"slow\n", data)
        self.assertEqual(self.server.daemon.process.wait(15), 0)
        self.assertFalse(self.server.port_file.exists())


class BadCertificateTests(unittest.TestCase):
    def test_each_bad_mode_fails_in_curl_and_python_for_its_own_reason(self):
        for mode, (curl_message, verify_code) in BAD_MODES.items():
            with self.subTest(mode=mode):
                server = HTTPSDaemon(self, "--tls-mode", mode)
                code, _, err = curl("--cacert", str(server.ca), f"{server.url}/hello")
                self.assertEqual(code, 60, err)
                self.assertIn(curl_message, err)
                with self.assertRaises(ssl.SSLCertVerificationError) as caught:
                    python_get(server.url, cafile=str(server.ca))
                self.assertEqual(caught.exception.verify_code, verify_code, caught.exception)
                # Verification off, the same daemon serves: only the certificate is wrong.
                code, body, err = curl("--insecure", f"{server.url}/hello")
                self.assertEqual((code, body), (0, "hi\n"), err)
                server.daemon.stop()

    def test_wrong_host_is_valid_for_its_own_name(self):
        server = HTTPSDaemon(self, "--tls-mode", "wrong-host")
        code, body, err = curl("--cacert", str(server.ca), "--resolve", f"wrong-host.invalid:{server.daemon.https_port}:127.0.0.1",
                               f"https://wrong-host.invalid:{server.daemon.https_port}/hello")
        self.assertEqual((code, body), (0, "hi\n"), err)


class SessionTLSTests(unittest.TestCase):
    def post_session(self, server, body):
        code, out, err = curl("-X", "POST", "-d", json.dumps(body), "-w", "\n%{http_code}", f"{server.plain}/__admin/sessions")
        text, _, status = out.rpartition("\n")
        return int(status), json.loads(text)

    def test_a_session_presents_the_certificate_it_asked_for(self):
        server = HTTPSDaemon(self)
        stubs = [{"id": "s", "request": {"method": "GET", "path": "/mine"}, "responses": [{"status": 200, "body": "session\n"}]}]
        status, good = self.post_session(server, {"tls": "valid", "stubs": stubs})
        self.assertEqual(status, 201, good)
        self.assertEqual(good["httpsUrl"], f"https://127.0.0.1:{good['httpsPort']}")
        code, body, err = curl("--cacert", str(server.ca), f"{good['httpsUrl']}/mine")
        self.assertEqual((code, body), (0, "session\n"), err)
        self.assertEqual(python_get(good["httpsUrl"], cafile=str(server.ca)), (200, b"hi\n"))  # file stubs too
        # `{{server.url}}` is the session's own URL, for the scheme the request used.
        self.assertEqual(curl("--cacert", str(server.ca), f"{good['httpsUrl']}/self")[1], good["httpsUrl"])
        self.assertEqual(curl(f"{good['url']}/self")[1], good["url"])
        # Journaled in the session, with the scheme; the main journal file holds the line too.
        code, out, _ = curl(f"{good['url']}/__admin/requests")
        journaled = [(e.get("scheme"), e["session"]) for e in json.loads(out)["requests"]]
        self.assertEqual(journaled, [("https", good["id"])] * 3 + [(None, good["id"])])
        for mode, (curl_message, verify_code) in BAD_MODES.items():
            with self.subTest(mode=mode):
                status, session = self.post_session(server, {"tls": mode})
                self.assertEqual(status, 201, session)
                code, _, err = curl("--cacert", str(server.ca), f"{session['httpsUrl']}/hello")
                self.assertEqual(code, 60, err)
                self.assertIn(curl_message, err)
                with self.assertRaises(ssl.SSLCertVerificationError) as caught:
                    python_get(session["httpsUrl"], cafile=str(server.ca))
                self.assertEqual(caught.exception.verify_code, verify_code)
        # Deleting the session closes its HTTPS port too.
        curl("-X", "DELETE", f"{server.plain}/__admin/sessions/{good['id']}")
        self.assertEqual(curl("--cacert", str(server.ca), f"{good['httpsUrl']}/hello")[0], 7)  # couldn't connect

    def test_tls_needs_https_and_a_known_mode(self):
        server = HTTPSDaemon(self)
        status, answer = self.post_session(server, {"tls": "stale"})
        self.assertEqual(status, 400)
        self.assertIn("`tls` must be one of", answer["error"])
        work = pathlib.Path(tempfile.mkdtemp(prefix="understudy-plain-"))
        self.addCleanup(shutil.rmtree, work, True)
        (work / "stubs.json").write_text(json.dumps(STUBS))
        plain = Daemon([str(work / "stubs.json")], str(work / "stderr.txt"))
        self.addCleanup(plain.stop)
        code, out, _ = curl("-X", "POST", "-d", '{"tls": "valid"}', f"http://127.0.0.1:{plain.port}/__admin/sessions")
        self.assertIn("start the daemon with --https", json.loads(out)["error"])
        code, out, _ = curl(f"http://127.0.0.1:{plain.port}/__admin/sessions")
        self.assertEqual(json.loads(out)["sessions"], [])


@unittest.skipUnless(shutil.which("openssl"), "needs the openssl tool to make the user's own pair")
class OwnCertificateTests(unittest.TestCase):
    def test_tls_cert_and_key_serve_the_users_pair(self):
        work = pathlib.Path(tempfile.mkdtemp(prefix="understudy-own-"))
        self.addCleanup(shutil.rmtree, work, True)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", str(work / "key.pem"), "-out", str(work / "cert.pem"), "-days", "2",
                        "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                       check=True, capture_output=True)
        (work / "stubs.json").write_text(json.dumps(STUBS))
        daemon = Daemon([str(work / "stubs.json"), "--https", "--tls-cert", str(work / "cert.pem"),
                         "--tls-key", str(work / "key.pem")], str(work / "stderr.txt"))
        self.addCleanup(daemon.stop)
        url = f"https://127.0.0.1:{daemon.https_port}"
        code, body, err = curl("--cacert", str(work / "cert.pem"), f"{url}/hello")
        self.assertEqual((code, body), (0, "hi\n"), err)
        self.assertEqual(python_get(url, cafile=str(work / "cert.pem")), (200, b"hi\n"))
        code, body, _ = curl("-w", "%{http_code}", f"http://127.0.0.1:{daemon.port}/__admin/tls/ca.pem")
        self.assertTrue(body.endswith("404"), body)

    def test_a_key_that_does_not_exist_is_a_clear_error(self):
        result = run_cli("serve", "--https", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem")
        self.assertEqual(result.returncode, 1)
        self.assertIn("/nonexistent/cert.pem", result.stderr)
        self.assertEqual(result.stdout, "")


class HTTPSValidationTests(unittest.TestCase):
    def test_bad_flags_are_refused_before_anything_starts(self):
        cases = [
            (["--https", "--tls-mode", "stale"], "--tls-mode stale is not a mode"),
            (["--https-port", "8443"], "--https-port needs --https"),
            (["--tls-mode", "expired"], "--tls-mode needs --https"),
            (["--https", "--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
            (["--https", "--https-port", "70000"], "--https-port must be between 0 and 65535"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                result = run_cli("serve", *args)
                self.assertNotEqual(result.returncode, 0)
                self.assertIn(message, result.stderr)


if __name__ == "__main__":
    unittest.main()
