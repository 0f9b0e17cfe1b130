"""Proxying stubs (issue 26) against the built binary, with a second Understudy daemon playing the
upstream: GET and POST with bodies, a 30 KB body, a 301 passed through unfollowed, a server-sent
event stream relayed as it comes, hop-by-hop headers dropped and `Host` rewritten, headers set, removed
and added by the stub (`setHeaders`, `removeHeaders`, `addResponseHeaders`), a catch-all
proxy behind local stubs, the 502s (connection refused, timeout, DNS failure) with their reasons
in the body, a header and the journal, and 50 concurrent proxied requests to a 200 ms upstream
answered together while a local stub keeps answering. HTTPS upstreams: nginx with a throwaway CA
trusted through `--proxy-ca` only, and a certificate outside it refused with a 502."""
import http.client
import json
import pathlib
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest

from Tests.BlackBox.blackbox import Daemon, binary

BIG = "".join(chr(ord("a") + i % 26) for i in range(30 * 1024))

UPSTREAM_STUBS = {"stubs": [
    {"id": "items", "request": {"method": "GET", "path": "/api/items"},
     "responses": [{"headers": {"X-Upstream": "yes"}, "json": {"items": [1, 2, 3]}}]},
    {"id": "create", "request": {"method": "POST", "path": "/api/items"},
     "responses": [{"status": 201, "template": True, "headers": {"Content-Type": "application/json"},
                    "body": "{\"got\": {{request.body}}}"}]},
    {"id": "big", "request": {"path": "/api/big"}, "responses": [{"body": BIG}]},
    {"id": "moved", "request": {"path": "/api/old"},
     "responses": [{"status": 301, "headers": {"Location": "/api/new"}, "body": "moved"}]},
    {"id": "new", "request": {"path": "/api/new"}, "responses": [{"body": "new place"}]},
    {"id": "events", "request": {"path": "/api/events"}, "responses": [{"events": [
        {"event": "first", "data": "one", "id": "1"},
        {"data": "two", "id": "2", "delayMs": 300},
        {"data": "three", "id": "3", "delayMs": 300}]}]},
    {"id": "slow", "request": {"path": "/api/slow"}, "responses": [{"body": "slow", "delayMs": 200}]},
    {"id": "stall", "request": {"path": "/api/stall"}, "responses": [{"body": "late", "delayMs": 5000}]},
    {"id": "root", "request": {"path": "/elsewhere"}, "responses": [{"body": "forwarded by the catch-all"}]},
]}


def call(port, method, path, body=None, headers=None, timeout=15):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def journal(port, **filters):
    query = "&".join(f"{k}={v}" for k, v in filters.items())
    return json.loads(call(port, "GET", "/__admin/requests" + (f"?{query}" if query else ""))[2])["requests"]


def refusing_socket():
    """A socket bound to a loopback port and not listening: connecting to it is refused, and no
    other process can take the port while it is held."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


def start_daemon(cls, directory, name, stubs, *args):
    """A daemon serving `stubs`, stopped when the class's tests are done."""
    path = pathlib.Path(directory, f"{name}.json")
    path.write_text(json.dumps(stubs))
    daemon = Daemon([str(path), "--quiet", *args], str(pathlib.Path(directory, f"{name}.stderr")))
    cls.addClassCleanup(daemon.stop)
    return daemon


class ProxyTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.directory.cleanup)  # cleanups run last-first: after the daemons stop
        cls.upstream = start_daemon(cls, cls.directory.name, "upstream", UPSTREAM_STUBS)
        cls.refused = refusing_socket()
        cls.addClassCleanup(cls.refused.close)
        upstream = f"http://127.0.0.1:{cls.upstream.port}"
        cls.upstream_url = upstream
        cls.proxy = start_daemon(cls, cls.directory.name, "proxy", {"stubs": [
            {"id": "local", "request": {"path": "/local"}, "responses": [{"body": "local answer"}]},
            {"id": "v1", "request": {"pathPattern": "/v1/.*"},
             "responses": [{"proxy": {"to": upstream + "/api", "stripPrefix": "/v1"}}]},
            {"id": "headed", "request": {"pathPattern": "/h/.*"},
             "responses": [{"proxy": {"to": upstream + "/api", "stripPrefix": "/h",
                                      "setHeaders": {"X-Api-Key": "stub-key", "X-Custom": "replaced"},
                                      "removeHeaders": ["cookie"],
                                      "addResponseHeaders": {"X-Upstream": "from-stub", "X-Proxied-By": "understudy"}}}]},
            {"id": "short", "request": {"path": "/short/stall"},
             "responses": [{"proxy": {"to": upstream + "/api", "stripPrefix": "/short", "timeoutMs": 400}}]},
            {"id": "refused", "request": {"path": "/refused"},
             "responses": [{"proxy": {"to": f"http://127.0.0.1:{cls.refused.getsockname()[1]}"}}]},
            {"id": "dns", "request": {"path": "/dns"},
             "responses": [{"proxy": {"to": "http://understudy-proxy-test.invalid", "timeoutMs": 10000}}]},
            {"id": "rest", "priority": 9, "request": {}, "responses": [{"proxy": {"to": upstream}}]},
        ]})

    def upstream_entry(self, path):
        entries = journal(self.upstream.port, path=path)
        self.assertTrue(entries, f"the upstream never saw {path}")
        return entries[-1]

    def test_get_is_forwarded_and_answered_as_the_upstream_answered(self):
        status, headers, body = call(self.proxy.port, "GET", "/v1/items?page=2", headers={
            "X-Custom": "kept", "Connection": "keep-alive, X-Hop", "X-Hop": "dropped", "Keep-Alive": "timeout=5"})
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body), {"items": [1, 2, 3]})
        self.assertEqual(headers.get("x-upstream"), "yes")
        self.assertEqual(headers.get("content-type"), "application/json")
        seen = self.upstream_entry("/api/items")
        self.assertEqual(seen["method"], "GET")
        self.assertEqual(seen["query"], "page=2")
        self.assertEqual(seen["headers"].get("x-custom"), ["kept"])
        self.assertEqual(seen["headers"].get("host"), [f"127.0.0.1:{self.upstream.port}"], "Host is the upstream's")
        for hop in ("x-hop", "keep-alive", "connection"):
            self.assertNotIn(hop, seen["headers"], f"hop-by-hop {hop} was forwarded")
        self.assertNotIn("accept", seen["headers"], "curl added an Accept the client did not send")
        entry = journal(self.proxy.port, path="/v1/items")[-1]
        self.assertEqual(entry["stub"], "v1")
        self.assertEqual(entry["status"], 200)
        self.assertEqual(entry["response"]["body"], body.decode())
        proxied = entry["proxied"]
        self.assertEqual(proxied["upstream"], f"{self.upstream_url}/api/items?page=2")
        self.assertEqual(proxied["status"], 200)
        self.assertGreater(proxied["ms"], 0)
        self.assertNotIn("error", proxied)

    def test_the_stub_sets_removes_and_adds_headers(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.proxy.port, timeout=15)
        try:
            connection.request("GET", "/h/items", headers={"X-Custom": "client", "Cookie": "session=1", "X-Other": "kept"})
            response = connection.getresponse()
            body, fields = response.read(), response.getheaders()
        finally:
            connection.close()
        self.assertEqual((response.status, json.loads(body)), (200, {"items": [1, 2, 3]}))
        # Added beside the upstream's own field of that name, not instead of it (as WireMock does).
        self.assertEqual([value for name, value in fields if name.lower() == "x-upstream"], ["yes", "from-stub"])
        self.assertEqual([value for name, value in fields if name.lower() == "x-proxied-by"], ["understudy"])
        seen = self.upstream_entry("/api/items")["headers"]
        self.assertEqual(seen.get("x-custom"), ["replaced"], "setHeaders replaces the client's field")
        self.assertEqual(seen.get("x-api-key"), ["stub-key"])
        self.assertEqual(seen.get("x-other"), ["kept"])
        self.assertNotIn("cookie", seen, "removeHeaders takes the field off, whatever its case")
        entry = journal(self.proxy.port, path="/h/items")[-1]
        self.assertEqual(entry["response"]["headers"].get("x-proxied-by"), ["understudy"])
        # A relayed answer (no Content-Length) gets them on its head too.
        status, headers, body = call(self.proxy.port, "GET", "/h/events", headers={"Accept": "text/event-stream"})
        self.assertEqual((status, headers.get("x-proxied-by")), (200, "understudy"))
        self.assertIn(b"data: three", body)

    def test_post_body_goes_up_and_the_answer_comes_back(self):
        payload = json.dumps({"name": "widget", "n": 7}).encode()
        status, _, body = call(self.proxy.port, "POST", "/v1/items", body=payload,
                               headers={"Content-Type": "application/json"})
        self.assertEqual(status, 201)
        self.assertEqual(json.loads(body), {"got": {"name": "widget", "n": 7}})
        seen = journal(self.upstream.port, path="/api/items", method="POST")[-1]
        self.assertEqual(seen["body"], payload.decode())
        self.assertEqual(seen["headers"].get("content-type"), ["application/json"])
        self.assertEqual(seen["headers"].get("content-length"), [str(len(payload))])
        self.assertNotIn("expect", seen["headers"])

    def test_a_30_kb_body_arrives_whole(self):
        status, headers, body = call(self.proxy.port, "GET", "/v1/big")
        self.assertEqual(status, 200)
        self.assertEqual(body.decode(), BIG)
        self.assertEqual(headers.get("content-length"), str(len(BIG)))
        entry = journal(self.proxy.port, path="/v1/big")[-1]
        self.assertEqual(entry["response"]["bodySize"], len(BIG))

    def test_a_redirect_is_passed_through_not_followed(self):
        before = len(journal(self.upstream.port, path="/api/new"))
        status, headers, body = call(self.proxy.port, "GET", "/v1/old")
        self.assertEqual(status, 301)
        self.assertEqual(headers.get("location"), "/api/new")
        self.assertEqual(body, b"moved")
        self.assertEqual(len(journal(self.upstream.port, path="/api/new")), before, "the proxy followed the redirect")
        self.assertEqual(journal(self.proxy.port, path="/v1/old")[-1]["proxied"]["status"], 301)

    def test_an_event_stream_is_relayed_as_it_comes(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.proxy.port, timeout=15)
        connection.request("GET", "/v1/events")
        response = connection.getresponse()
        self.assertEqual(response.status, 200)
        self.assertEqual(response.getheader("Content-Type"), "text/event-stream")
        arrivals = []
        while True:
            line = response.readline()  # de-chunked by http.client, read as the pieces arrive
            if not line:
                break
            if line.startswith(b"data:"):
                arrivals.append((time.monotonic(), line.strip()))
        connection.close()
        self.assertEqual([data for _, data in arrivals], [b"data: one", b"data: two", b"data: three"])
        # The upstream sends them 300 ms apart: relayed as they come, not gathered to the end.
        self.assertGreaterEqual(arrivals[2][0] - arrivals[0][0], 0.5)
        entry = self.wait_for_entry("/v1/events")
        self.assertEqual(entry["proxied"]["status"], 200)
        self.assertIn("data: three", entry["response"]["body"])
        self.assertEqual(entry["outcome"], "answered")

    def wait_for_entry(self, path, deadline_s=5.0):
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            entries = journal(self.proxy.port, path=path)
            if entries:
                return entries[-1]
            time.sleep(0.02)  # polling the journal with a deadline
        self.fail(f"{path} never journaled")

    def test_local_stubs_answer_and_the_catch_all_forwards_the_rest(self):
        self.assertEqual(call(self.proxy.port, "GET", "/local")[2], b"local answer")
        status, _, body = call(self.proxy.port, "GET", "/elsewhere")
        self.assertEqual((status, body), (200, b"forwarded by the catch-all"))
        self.assertEqual(journal(self.proxy.port, path="/elsewhere")[-1]["stub"], "rest")
        self.assertFalse("proxied" in journal(self.proxy.port, path="/local")[-1], "a local answer is not proxied")

    def test_a_wiremock_root_with_proxy_base_url_forwards(self):
        # A WireMock root: `proxyBaseUrl` + `proxyUrlPrefixToRemove` load as the native `proxy`; the
        # request's path (less the prefix) and query go to the upstream daemon, and the answer comes back.
        root = pathlib.Path(self.directory.name, "wiremock-root")
        (root / "mappings").mkdir(parents=True)
        (root / "mappings" / "proxy.json").write_text(json.dumps({"mappings": [
            {"request": {"method": "ANY", "urlPathPattern": "/wm/.*"},
             "response": {"proxyBaseUrl": self.upstream_url + "/api", "proxyUrlPrefixToRemove": "/wm"}},
            {"request": {"url": "/wm/local"}, "response": {"status": 200, "body": "from the mapping"}},
        ]}))
        daemon = Daemon([str(root), "--quiet"], str(pathlib.Path(self.directory.name, "wiremock-root.stderr")))
        self.addCleanup(daemon.stop)
        status, headers, body = call(daemon.port, "GET", "/wm/items?page=3", headers={"X-Custom": "kept"})
        self.assertEqual((status, json.loads(body)), (200, {"items": [1, 2, 3]}))
        self.assertEqual(headers.get("x-upstream"), "yes")
        seen = self.upstream_entry("/api/items")
        self.assertEqual((seen["query"], seen["headers"].get("x-custom")), ("page=3", ["kept"]))
        status, _, body = call(daemon.port, "POST", "/wm/items", body=b'{"n": 1}',
                               headers={"Content-Type": "application/json"})
        self.assertEqual((status, json.loads(body)), (201, {"got": {"n": 1}}))
        entry = next(e for e in journal(daemon.port, path="/wm/items") if e["method"] == "GET")
        self.assertEqual(entry["proxied"]["upstream"], f"{self.upstream_url}/api/items?page=3")
        self.assertEqual(entry["proxied"]["status"], 200)
        self.assertEqual(call(daemon.port, "GET", "/wm/local")[2], b"from the mapping")
        self.assertNotIn("proxied", journal(daemon.port, path="/wm/local")[-1])

    def assert_502(self, path, error):
        status, headers, body = call(self.proxy.port, "GET", path)
        self.assertEqual(status, 502, body)
        self.assertEqual(headers.get("x-understudy-proxy-error"), error, body)
        self.assertIn(error, body.decode())
        entry = journal(self.proxy.port, path=path)[-1]
        self.assertEqual(entry["status"], 502)
        self.assertEqual(entry["proxied"]["error"], error)
        self.assertIsNone(entry["proxied"]["status"])
        self.assertTrue(entry["proxied"]["reason"])
        return entry

    def test_connection_refused_is_a_502(self):
        self.assert_502("/refused", "connection-refused")

    def test_a_timeout_is_a_502_after_the_timeout(self):
        started = time.monotonic()
        entry = self.assert_502("/short/stall", "timeout")
        self.assertGreaterEqual(time.monotonic() - started, 0.4)
        self.assertGreaterEqual(entry["proxied"]["ms"], 400)

    def test_a_name_that_does_not_resolve_is_a_502(self):
        self.assert_502("/dns", "dns-failure")

    def test_fifty_concurrent_proxied_requests_do_not_block_the_loop(self):
        count, delay = 50, 0.2
        results = [None] * count
        barrier = threading.Barrier(count + 1)

        def one(index):
            barrier.wait()
            started = time.monotonic()
            status, _, body = call(self.proxy.port, "GET", "/v1/slow", timeout=30)
            results[index] = (status, body, started, time.monotonic())

        threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        barrier.wait()
        batch_started = time.monotonic()
        local = []
        while any(thread.is_alive() for thread in threads):
            asked = time.monotonic()
            status, _, body = call(self.proxy.port, "GET", "/local")
            local.append((status, body, asked, time.monotonic()))
        for thread in threads:
            thread.join()
        batch_ended = max(result[3] for result in results)
        for status, body, started, ended in results:
            self.assertEqual((status, body), (200, b"slow"))
            self.assertGreaterEqual(ended - started, delay, "answered before the upstream's delay")
        # One at a time they would take 50 x 200 ms = 10 s; together, about 200 ms.
        self.assertLess(batch_ended - batch_started, count * delay / 5)
        # A local stub answered while the proxied requests were waiting on the upstream.
        self.assertTrue(local and all(s == 200 and b == b"local answer" for s, b, _, _ in local))
        self.assertLess(local[0][3], batch_ended, "the local stub waited for the proxied batch")
        entries = journal(self.proxy.port, path="/v1/slow")
        self.assertEqual(len(entries), count)
        self.assertTrue(all(e["proxied"]["ms"] >= delay * 1000 for e in entries))


def make_certificates(work):
    """A throwaway CA and a leaf for 127.0.0.1 it signs, and a self-signed leaf outside it."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=Proxy Test CA", "-keyout", f"{work}/ca.key", "-out", f"{work}/ca.pem")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", f"{work}/leaf.key", "-out", f"{work}/leaf.csr")
    with open(f"{work}/ext.cnf", "w") as ext:
        ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", f"{work}/leaf.csr", "-CA", f"{work}/ca.pem", "-CAkey", f"{work}/ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", f"{work}/ext.cnf", "-out", f"{work}/leaf.pem")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", f"{work}/self.key", "-out", f"{work}/self.pem")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@unittest.skipUnless(shutil.which("nginx") and shutil.which("openssl"), "needs nginx and openssl")
class HTTPSUpstreamTests(unittest.TestCase):
    """nginx with a throwaway CA: trusted through `--proxy-ca` for proxied upstreams only."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.directory.cleanup)
        work = cls.directory.name
        make_certificates(work)
        cls.good_port, cls.bad_port = free_port(), free_port()
        nginx = pathlib.Path(work, "nginx")
        nginx.mkdir()
        temp = " ".join(f"{kind}_temp_path {nginx}/{kind};" for kind in
                        ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (nginx / "nginx.conf").write_text(f"""
daemon off;
master_process off;
worker_processes 1;
error_log {nginx}/error.log warn;
pid {nginx}/nginx.pid;
events {{ worker_connections 64; }}
http {{
    access_log off;
    {temp}
    server {{
        listen 127.0.0.1:{cls.good_port} ssl;
        ssl_certificate {work}/leaf.pem;
        ssl_certificate_key {work}/leaf.key;
        location = /secure {{ default_type text/plain; add_header X-Served-By nginx; return 200 "over tls"; }}
    }}
    server {{
        listen 127.0.0.1:{cls.bad_port} ssl;
        ssl_certificate {work}/self.pem;
        ssl_certificate_key {work}/self.key;
        location / {{ return 200 "should not be reached"; }}
    }}
}}
""")
        cls.nginx = subprocess.Popen(["nginx", "-p", str(nginx), "-c", str(nginx / "nginx.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        cls.addClassCleanup(cls.stop_nginx)
        deadline = time.monotonic() + 20
        for port in (cls.good_port, cls.bad_port):
            while True:
                if cls.nginx.poll() is not None:
                    raise RuntimeError(f"nginx exited: {(nginx / 'error.log').read_text()}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)  # nginx has no readiness line: poll its port with a deadline
        cls.proxy = start_daemon(cls, work, "proxy", {"stubs": [
            {"id": "tls", "request": {"path": "/tls/secure"},
             "responses": [{"proxy": {"to": f"https://127.0.0.1:{cls.good_port}", "stripPrefix": "/tls"}}]},
            {"id": "untrusted", "request": {"path": "/untrusted"},
             "responses": [{"proxy": {"to": f"https://127.0.0.1:{cls.bad_port}"}}]},
        ]}, "--proxy-ca", f"{work}/ca.pem")

    @classmethod
    def stop_nginx(cls):
        cls.nginx.terminate()
        cls.nginx.wait(10)

    def test_an_https_upstream_signed_by_the_given_ca_answers(self):
        status, headers, body = call(self.proxy.port, "GET", "/tls/secure")
        self.assertEqual((status, body), (200, b"over tls"))
        self.assertEqual(headers.get("x-served-by"), "nginx")
        entry = journal(self.proxy.port, path="/tls/secure")[-1]
        self.assertEqual(entry["proxied"]["upstream"], f"https://127.0.0.1:{self.good_port}/secure")
        self.assertEqual(entry["proxied"]["status"], 200)

    def test_a_certificate_outside_the_ca_is_a_502(self):
        status, headers, body = call(self.proxy.port, "GET", "/untrusted")
        self.assertEqual(status, 502, body)
        self.assertEqual(headers.get("x-understudy-proxy-error"), "bad-certificate", body)
        entry = journal(self.proxy.port, path="/untrusted")[-1]
        self.assertEqual(entry["proxied"]["error"], "bad-certificate")
        self.assertIn("certificate", entry["proxied"]["reason"].lower())

    def test_record_trusts_the_given_ca_for_an_https_upstream(self):
        out = pathlib.Path(self.directory.name, "recorded")
        work = self.directory.name
        recorder = Daemon(command=[binary(), "record", "--to", f"https://127.0.0.1:{self.good_port}", "--out",
                                   str(out), "--port", "0", "--quiet", "--proxy-ca", f"{work}/ca.pem"], name="record")
        with recorder:
            self.assertEqual(call(recorder.port, "GET", "/secure")[2], b"over tls")
            self.assertEqual(recorder.stop(), 0)
        (stub,) = json.loads((out / "recorded.json").read_text())["stubs"]
        self.assertEqual(stub["request"]["path"], "/secure")
        self.assertEqual(stub["responses"][0]["body"], "over tls")
        missing = subprocess.run([binary(), "record", "--to", "https://127.0.0.1:1", "--out", str(out),
                                  "--proxy-ca", f"{work}/no-such-ca.pem"], capture_output=True, text=True, timeout=30)
        self.assertEqual(missing.returncode, 1)
        self.assertIn("--proxy-ca", missing.stderr)
        self.assertIn("No such file", missing.stderr)


if __name__ == "__main__":
    unittest.main()
