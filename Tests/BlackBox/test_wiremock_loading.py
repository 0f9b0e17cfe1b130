"""A WireMock root loads as WireMock loads it (issue 30), from the outside: `understudy serve` on a root
with a mapping it cannot serve, WireMock's leniencies, files beside `mappings/`, and `__files/`. The
unservable mapping is skipped with a warning on stderr, listed by GET /__admin/health and named in the
404 of a request it might have answered; `--strict` refuses the root; every mapping is listed with an id,
the same on every start; a mapping's `Transfer-Encoding: chunked` is honoured."""
import json
import pathlib
import socket
import tempfile
import unittest

from Tests.BlackBox.blackbox import Daemon, DaemonStartError, read_until_close, request

MAPPINGS = {"mappings": [
    {"request": {"method": "GET", "url": "/proxied"}, "response": {"proxyBaseUrl": "http://127.0.0.1:9",
                                                                  "chunkedDribbleDelay": {"numberOfChunks": 2,
                                                                                          "totalDuration": 10}}},
    {"request": {"method": "GET", "url": "/sibling"}, "response": {"status": "201", "body": "served"}},
    {"request": {"method": "GET", "url": "/missing"}, "response": {"bodyFileName": "no-such.json"}},
    {"request": {"method": "GET", "url": "/chunked"},
     "response": {"status": 200, "body": "in chunks", "headers": {"Transfer-Encoding": "chunked"}}},
    {"request": {"method": "GET", "url": "/transformed"},
     "response": {"status": 200, "body": "plain", "transformers": ["absent-extension"]}},
]}


class WireMockLoadingTests(unittest.TestCase):
    def setUp(self):
        work = tempfile.TemporaryDirectory(prefix="understudy-wm-loading-")
        self.addCleanup(work.cleanup)
        self.root = pathlib.Path(work.name, "root")
        (self.root / "mappings").mkdir(parents=True)
        (self.root / "mappings" / "api.json").write_text(json.dumps(MAPPINGS, indent=1))
        (self.root / "mappings" / "dup.json").write_text(
            '{"request": {"url": "/dup"}, "response": {"body": "first", "body": "last"}}')
        (self.root / "elsewhere").mkdir()
        (self.root / "elsewhere" / "broken.json").write_text("not JSON: WireMock never reads it")
        (self.root / "__files" / "site").mkdir(parents=True)
        (self.root / "__files" / "site" / "app.css").write_text("p { color: teal }\n")

    def serve(self, *args):
        daemon = Daemon([*args, str(self.root)])
        self.addCleanup(daemon.stop)
        return daemon

    def test_the_rest_of_the_root_serves_and_the_skip_is_reported(self):
        daemon = self.serve()
        api = str(self.root / "mappings" / "api.json")
        warnings = [line for line in daemon.stderr().splitlines() if ": warning: " in line]
        # The skip is placed where the unsupported key is (as the JSON path after it says), not at the
        # mapping's opening brace: that is the line to change.
        text = (self.root / "mappings" / "api.json").read_text().splitlines()
        key = '"chunkedDribbleDelay"'
        at = next(f"{n}:{t.index(key) + 1}" for n, t in enumerate(text, 1) if key in t)
        self.assertTrue(any(w.startswith(f"{api}:{at}:") and "skipped WireMock mapping 0: unsupported WireMock feature "
                            "`chunkedDribbleDelay`" in w for w in warnings), warnings)
        for text in ("`status` is the string \"201\"", "`bodyFileName` `no-such.json`", "`absent-extension` ignored",
                     "key `body` appears more than once"):
            self.assertTrue(any(text in line for line in warnings), f"{text!r} not in {warnings}")
        self.assertEqual(request(daemon.port, "GET", "/sibling")[::2], (201, b"served"))
        self.assertEqual(request(daemon.port, "GET", "/transformed")[::2], (200, b"plain"))
        self.assertEqual(request(daemon.port, "GET", "/dup")[::2], (200, b"last"))
        status, headers, body = request(daemon.port, "GET", "/missing")
        self.assertEqual(status, 500)
        self.assertIn(b"java.io.FileNotFoundException", body)
        status, headers, body = request(daemon.port, "GET", "/site/app.css?v=3")
        self.assertEqual((status, headers["content-type"], body), (200, "text/css", b"p { color: teal }\n"))

        health = daemon.get_json("/__admin/health")
        self.assertEqual(len(health["skipped"]), 1)
        self.assertEqual({k: health["skipped"][0][k] for k in ("file", "index", "line", "column")},
                         {"file": api, "index": 0, "line": int(at.split(":")[0]), "column": int(at.split(":")[1])})
        self.assertIn("chunkedDribbleDelay", health["skipped"][0]["reason"])

        status, _, body = request(daemon.port, "GET", "/proxied")
        self.assertEqual(status, 404)
        self.assertIn(f"{api} mapping 0: unsupported WireMock feature `chunkedDribbleDelay`".encode(), body)
        self.assertNotIn(b"Skipped WireMock mappings", request(daemon.port, "GET", "/nowhere")[2])

    def test_strict_refuses_the_root(self):
        with self.assertRaises(DaemonStartError) as refused:
            self.serve("--strict")
        self.assertIn("error: unsupported WireMock feature `chunkedDribbleDelay`", str(refused.exception))

    def test_every_mapping_is_listed_with_the_same_id_on_every_start(self):
        first = self.serve()
        listed = first.get_json("/__admin/mappings")["mappings"]
        ids = sorted(m["id"] for m in listed)
        self.assertEqual(len(ids), 5, listed)  # 6 mappings, one skipped
        first.stop()
        again = sorted(m["id"] for m in self.serve().get_json("/__admin/mappings")["mappings"])
        self.assertEqual(ids, again)
        for mapping_id in ids:
            self.assertRegex(mapping_id, r"^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")

    def test_a_mappings_chunked_transfer_encoding_is_honoured(self):
        daemon = self.serve()
        with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as sock:
            sock.sendall(b"GET /chunked HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = read_until_close(sock, 10)
        head, _, body = data.partition(b"\r\n\r\n")
        fields = [line.lower() for line in head.split(b"\r\n")[1:]]
        self.assertIn(b"transfer-encoding: chunked", fields)
        self.assertFalse(any(f.startswith(b"content-length") for f in fields), fields)
        self.assertEqual(body, b"9\r\nin chunks\r\n0\r\n\r\n")


if __name__ == "__main__":
    unittest.main()
