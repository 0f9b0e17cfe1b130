"""The WireMock differential suite (Tests/WireMockDifferential): the corpus against the real WireMock
2.35 jar and against Understudy must agree on every request, and so must Understudy serving the
native stubs `understudy convert-wiremock` writes from the same corpus."""
import json
import os
import pathlib
import shutil
import sys
import tempfile
import unittest

from Tests.WireMockDifferential import differential
from Tests.BlackBox.blackbox import Daemon, binary, run_cli

REQUIRED = os.environ.get("UNDERSTUDY_REQUIRE_WIREMOCK") == "1"
# Scripts the native stubs `convert-wiremock` writes answer differently by design, with the reason.
CONVERTED_DIFFERS = {
    "issue43-gzip": "Jetty's gzip handler is a WireMock root's default; converted stubs are native and compress "
                    "only where they say `compress`",
    "issue43-json-path-java-numbers": "a native `jsonPath` matches a number as the request wrote it, "
                                      "where WireMock writes it as Java does (`20.10` is `20.1`)",
    "issue43-reset-reloads-files": "converted stubs are native, and WireMock's admin API deletes mappings only",
}
AVAILABLE = differential.wiremock_jar() is not None and shutil.which("java") is not None


@unittest.skipUnless(AVAILABLE or REQUIRED, "needs java (default-jre-headless) and `pip install wiremock`; CI installs both")
class WireMockDifferentialTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.report = differential.run(binary())
        print("\n" + differential.summary(cls.report), file=sys.stderr)

    def test_corpus_is_large_enough(self):
        self.assertGreaterEqual(self.report["mappings"], 60)
        self.assertGreaterEqual(self.report["outcomes"]["matched"]["total"], 100)
        self.assertGreaterEqual(self.report["outcomes"]["unmatched"]["total"], 30)
        self.assertEqual(self.report["outcomes"]["fault"]["total"], 4)

    def test_every_request_agrees_with_wiremock(self):
        self.assertEqual(self.report["differences"], [], differential.summary(self.report))

    def test_converted_stubs_answer_the_same(self):
        with tempfile.TemporaryDirectory() as out:
            result = run_cli("convert-wiremock", differential.ROOT, out)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertTrue(list(pathlib.Path(out).rglob("*.json")), "convert-wiremock wrote no stub files")
            # The converted files are native: no WireMock mapping is left in them.
            for path in pathlib.Path(out).rglob("*.json"):
                self.assertIn('"stubs"', path.read_text(), path)
            converted = differential.run(binary(), understudy_paths=[out], wiremock_results=self.report["wiremock"],
                                         skip=CONVERTED_DIFFERS, converted=True)
            self.assertEqual(converted["differences"], [], differential.summary(converted))
            scripts = json.loads(differential.SCRIPTS.read_text())["scripts"]
            left_out = sum(len(s["requests"]) for s in scripts if s["name"] in CONVERTED_DIFFERS)
            self.assertEqual(len([s for s in scripts if s["name"] in CONVERTED_DIFFERS]), len(CONVERTED_DIFFERS))
            self.assertEqual(converted["requests"], self.report["requests"] - left_out)


@unittest.skipUnless(AVAILABLE or REQUIRED, "needs java (default-jre-headless) and `pip install wiremock`; CI installs both")
class WireMockTemplatingDifferentialTests(unittest.TestCase):
    """The templating corpus, both servers run with `--global-response-templating`: WireMock's Handlebars
    helpers, translated into native templates, must render what WireMock renders (or, for random values,
    the time and the port, a body of the same shape)."""

    @classmethod
    def setUpClass(cls):
        cls.report = differential.run(binary(), root=differential.TEMPLATING_ROOT,
                                      scripts_path=differential.TEMPLATING_SCRIPTS, flags=differential.TEMPLATING_FLAGS)
        print("\n" + differential.summary(cls.report), file=sys.stderr)

    def test_corpus_is_large_enough(self):
        self.assertGreaterEqual(self.report["mappings"], 10)
        self.assertGreaterEqual(self.report["outcomes"]["matched"]["total"], 13)

    def test_every_request_agrees_with_wiremock(self):
        self.assertEqual(self.report["differences"], [], differential.summary(self.report))

    def test_converted_templates_answer_the_same(self):
        # `convert-wiremock --global-response-templating` writes each translated template as a native
        # one with `"template": "html"` (Handlebars' escaping) and a templated `bodyFileName` as a
        # templated native `bodyFile` beside the files it picks; served natively, they answer the same.
        with tempfile.TemporaryDirectory() as out:
            result = run_cli("convert-wiremock", *differential.TEMPLATING_FLAGS, differential.TEMPLATING_ROOT, out)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertNotIn("template", result.stdout, "a template was not converted:\n" + result.stdout)
            stubs = json.loads((pathlib.Path(out) / "converted-from-wiremock.json").read_text())["stubs"]
            self.assertTrue(any(r.get("template") == "html" for s in stubs for r in s["responses"]), stubs)
            converted = differential.run(binary(), understudy_paths=[out], wiremock_results=self.report["wiremock"],
                                         root=differential.TEMPLATING_ROOT, scripts_path=differential.TEMPLATING_SCRIPTS,
                                         converted=True)
            self.assertEqual(converted["differences"], [], differential.summary(converted))
            self.assertEqual(converted["requests"], self.report["requests"])



@unittest.skipUnless(AVAILABLE or REQUIRED, "needs java (default-jre-headless) and `pip install wiremock`; CI installs both")
class WireMockProxyDifferentialTests(unittest.TestCase):
    maxDiff = None

    """`proxyBaseUrl` against the jar: the same root, its base URL pointing at an Understudy daemon
    playing the upstream (one per server, so each upstream journal holds only what that server
    forwarded); status, body, the headers a mapping adds beside `proxyBaseUrl`, and what reached the
    upstream (method, path, query, body, the client's header and those `additionalProxyRequestHeaders`
    set) must be the same. The corpus under root/ has fixed URLs, so this root is written here, with
    the upstream's port. (`removeProxyRequestHeaders` is WireMock 3's: the 2.35.1 jar refuses to load
    a mapping with it, so it has no case here.)"""

    UPSTREAM = {"stubs": [
        {"request": {"method": "GET", "path": "/base/items"}, "responses": [{"json": {"items": [1, 2]}}]},
        {"request": {"method": "POST", "path": "/base/items"},
         "responses": [{"status": 201, "template": True, "body": "made {{request.body}}"}]},
        {"request": {"path": "/base/teapot"}, "responses": [{"status": 418, "body": "short and stout"}]},
        {"request": {"path": "/base/headed"},
         "responses": [{"headers": {"X-Up": "upstream", "X-Both": "upstream"}, "body": "headed"}]},
    ]}
    REQUESTS = [
        {"method": "GET", "target": "/wm/items?page=2&sort=a", "headers": {"X-Custom": "kept"}},
        {"method": "POST", "target": "/wm/items", "headers": {"Content-Type": "text/plain"}, "body": "widget"},
        {"method": "GET", "target": "/wm/teapot"},
        {"method": "GET", "target": "/wm/nothing-there"},
        {"method": "GET", "target": "/wmh/headed", "headers": {"X-Custom": "client", "X-Added": "client"}},
        {"method": "GET", "target": "/wmh/headed", "headers": {"X-Other": "client"}},
    ]
    # Response headers compared (WireMock's own `Vary`, `Date` and framing differ by server).
    COMPARED = ("x-up", "x-both", "x-extra")

    def serve_upstream(self, directory):
        # One stub file for both upstreams: a 404's body names it, and must be the same.
        stubs = pathlib.Path(directory, "upstream.json")
        stubs.write_text(json.dumps(self.UPSTREAM))
        daemon = Daemon([str(stubs), "--quiet"])
        self.addCleanup(daemon.stop)
        return daemon

    def root(self, directory, name, upstream):
        root = pathlib.Path(directory, name)
        (root / "mappings").mkdir(parents=True)
        (root / "mappings" / "proxy.json").write_text(json.dumps({
            "request": {"method": "ANY", "urlPathPattern": "/wm/.*"},
            "response": {"proxyBaseUrl": f"http://127.0.0.1:{upstream.port}/base", "proxyUrlPrefixToRemove": "/wm"}}))
        (root / "mappings" / "headed.json").write_text(json.dumps({
            "request": {"method": "GET", "urlPathPattern": "/wmh/.*"},
            "response": {"proxyBaseUrl": f"http://127.0.0.1:{upstream.port}/base", "proxyUrlPrefixToRemove": "/wmh",
                         "additionalProxyRequestHeaders": {"X-Custom": "set-by-mapping", "X-Added": "mapping"},
                         "headers": {"X-Extra": "from-mapping", "X-Both": "mapping"}}}))
        return root

    @staticmethod
    def seen(upstream):
        entries = differential.send(upstream.port, {"method": "GET", "target": "/__admin/requests"})
        return sorted(((e["method"], e["path"], e["query"], e.get("body"), e["headers"].get("x-custom"),
                        e["headers"].get("x-added"), e["headers"].get("x-other"))
                      for e in json.loads(entries["body"])["requests"]), key=repr)

    def test_proxy_base_url_answers_as_wiremock_answers(self):
        with tempfile.TemporaryDirectory() as directory:
            answers = {}
            for name in ("wiremock", "understudy"):
                upstream = self.serve_upstream(directory)
                root = self.root(directory, name, upstream)
                if name == "wiremock":
                    server = differential.WireMockProcess(root)
                else:
                    server = Daemon([str(root), "--quiet"])
                self.addCleanup(server.stop)
                replies = [differential.send(server.port, request) for request in self.REQUESTS]
                # By name, values of one name in the order sent (Jetty groups the fields of one name).
                answers[name] = ([(r.get("status"), r.get("body"),
                                   sorted([(n.lower(), v) for n, v in r.get("headers", []) if n.lower() in self.COMPARED],
                                          key=lambda field: field[0]))
                                  for r in replies], self.seen(upstream))
                server.stop()
            self.assertEqual(answers["understudy"], answers["wiremock"])
            statuses = [status for status, _, _ in answers["understudy"][0]]
            self.assertEqual(statuses, [200, 201, 418, 404, 200, 200], "the upstream's answers, passed through")
            self.assertEqual(len(answers["understudy"][1]), 6, "every request reached the upstream")
            # What both agree on, spelled out: the mapping's headers go beside the upstream's, and
            # additionalProxyRequestHeaders replace the client's fields of their names.
            self.assertEqual(answers["understudy"][0][4][2], [("x-both", "upstream"), ("x-both", "mapping"),
                                                              ("x-extra", "from-mapping"), ("x-up", "upstream")])
            self.assertIn(("GET", "/base/headed", None, "", ["set-by-mapping"], ["mapping"], None),
                          answers["understudy"][1])


if __name__ == "__main__":
    unittest.main()
