"""`understudy check` and `convert-wiremock` on a WireMock root: errors in WireMock files carry
file:line:col and the JSON path, unsupported features are named, and nothing is converted then."""
import json
import os
import pathlib
import tempfile
import unittest

from Tests.BlackBox.blackbox import run_cli


class WireMockCheckTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.root = pathlib.Path(self.directory.name, "wm")
        (self.root / "mappings" / "api").mkdir(parents=True)
        (self.root / "__files").mkdir()
        (self.root / "__files" / "not-a-mapping.json").write_text('{"just": "a body"}')
        (self.root / "mappings" / "ok.json").write_text(json.dumps(
            {"request": {"url": "/ok"}, "response": {"status": 200, "bodyFileName": "not-a-mapping.json"}}))
        (self.root / "native.json").write_text(json.dumps({"stubs": [{"request": {"path": "/native"}, "responses": [{"status": 204}]}]}))

    def test_files_beside_mappings_are_not_read(self):
        # WireMock reads mappings/ only: native.json beside it is never loaded (even when broken), and
        # __files/ serves its one file as a static web root: the mapping and the file are the 2 stubs.
        (self.root / "broken.json").write_text("not JSON")
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("2 stubs OK", result.stdout)

    maxDiff = None

    def test_errors_in_wiremock_files_have_positions_and_names(self):
        (self.root / "mappings" / "api" / "bad.json").write_text(
            '{\n  "request": {"urlPath": "/x", "headers": {"X": {"equalTo": 1}}},\n'
            '  "response": {"status": 200, "transformers": ["response-templat"], "proxyBaseUrl": "ftp://x"}\n}\n')
        bad = str(self.root / "mappings" / "api" / "bad.json")
        # --strict: all or nothing, every error with its position (the absent transformer is only a warning).
        result = run_cli("check", "--strict", self.root)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout.splitlines(), [
            f"{bad}:2:61: error: expected a string, found a number (at request.headers.X.equalTo)",
            f"{bad}:3:85: error: `proxyBaseUrl` must be an http:// or https:// URL, found `ftp://x` (at response.proxyBaseUrl)",
        ])
        # By default the mapping is skipped with a warning, and the rest of the root is fine.
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout.splitlines(), [
            f"{bad}:3:47: warning: WireMock extension transformer `response-templat` ignored: only `response-template` is supported, "
            "and WireMock ignores a transformer it has no extension for (at response.transformers)",
            f"{bad}:3:16: warning: `status` ignored: a `proxyBaseUrl` response answers with the upstream's status, "
            "headers and body, as in WireMock (at response.status)",
            f"{bad}:2:61: warning: skipped WireMock mapping 0: expected a string, found a number (and 1 more problem) (at request.headers.X.equalTo)",
            f"understudy check: 2 stubs OK in {self.root}; 1 WireMock mapping skipped (--strict refuses them)",
        ])
        out = pathlib.Path(self.directory.name, "out")
        converted = run_cli("convert-wiremock", self.root, out)
        self.assertEqual(converted.returncode, 0, converted.stdout + converted.stderr)
        self.assertIn(f"not converted: {bad} mapping 0: skipped, not converted: expected a string", converted.stdout)

    def test_convert_reports_what_it_drops(self):
        (self.root / "mappings" / "meta.json").write_text(json.dumps(
            {"id": "8c5db8b0-2db4-4d1c-8b5c-2d1e0f6b8d11", "request": {"url": "/m"}, "response": {"status": 200}, "metadata": {"team": "a"}}))
        out = pathlib.Path(self.directory.name, "out")
        result = run_cli("convert-wiremock", self.root, out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("not converted: 8c5db8b0-2db4-4d1c-8b5c-2d1e0f6b8d11: `metadata`", result.stdout)
        self.assertEqual(run_cli("check", out).returncode, 0)
        stubs = json.loads((out / "converted-from-wiremock.json").read_text())["stubs"]
        # The two mappings (the one loaded last first, as WireMock tries them: files are loaded in the order
        # the directory lists them, as Java's File.listFiles does), then the file __files/ serves.
        listed = [name for name in os.listdir(self.root / "mappings") if name.endswith(".json")]
        urls = {"ok.json": "/ok", "meta.json": "/m"}
        self.assertEqual([s["request"].get("url") or s["request"].get("path") for s in stubs],
                         [urls[name] for name in reversed(listed)] + ["/not-a-mapping.json"])
        self.assertEqual([s["responses"][0].get("body") for s in stubs if s["request"].get("url") == "/ok"], ['{"just": "a body"}'])


    def test_convert_writes_proxy_base_url_as_the_native_proxy(self):
        (self.root / "mappings" / "proxy.json").write_text(json.dumps(
            {"request": {"urlPathPattern": "/api/.*"},
             "response": {"proxyBaseUrl": "http://127.0.0.1:9/base", "proxyUrlPrefixToRemove": "/api",
                          "fixedDelayMilliseconds": 20}}))
        out = pathlib.Path(self.directory.name, "out")
        result = run_cli("convert-wiremock", self.root, out)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(run_cli("check", "--strict", out).returncode, 0)
        stubs = json.loads((out / "converted-from-wiremock.json").read_text())["stubs"]
        proxied = [s for s in stubs if s["request"].get("pathPattern") == "/api/.*"]
        self.assertEqual([s["responses"] for s in proxied],
                         [[{"proxy": {"to": "http://127.0.0.1:9/base", "stripPrefix": "/api"}, "delayMs": 20}]])


if __name__ == "__main__":
    unittest.main()
