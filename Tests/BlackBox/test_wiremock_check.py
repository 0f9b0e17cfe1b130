"""`understudy check` and `convert-wiremock` on a WireMock root: errors in WireMock files carry
file:line:col and the JSON path, unsupported features are named, and nothing is converted then."""
import json
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

    def test_valid_root_with_native_file_beside_it(self):
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("2 stubs OK", result.stdout)

    maxDiff = None

    def test_errors_in_wiremock_files_have_positions_and_names(self):
        (self.root / "mappings" / "api" / "bad.json").write_text(
            '{\n  "request": {"urlPath": "/x", "headers": {"X": {"equalTo": 1}}},\n'
            '  "response": {"status": 200, "transformers": ["response-templat"], "proxyBaseUrl": "http://x"}\n}\n')
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 1)
        bad = str(self.root / "mappings" / "api" / "bad.json")
        self.assertEqual(result.stdout.splitlines(), [
            f"{bad}:2:61: error: expected a string, found a number (at request.headers.X.equalTo)",
            f"{bad}:3:47: error: unsupported WireMock transformer `response-templat`: only `response-template` is supported (at response.transformers)",
            f"{bad}:3:69: error: unsupported WireMock feature `proxyBaseUrl`: proxying is not supported (at response.proxyBaseUrl)",
        ])
        out = pathlib.Path(self.directory.name, "out")
        converted = run_cli("convert-wiremock", self.root, out)
        self.assertEqual(converted.returncode, 1)
        self.assertFalse(out.exists(), "nothing is written when the mappings do not load")

    def test_convert_reports_what_it_drops(self):
        (self.root / "mappings" / "meta.json").write_text(json.dumps(
            {"id": "8c5db8b0-2db4-4d1c-8b5c-2d1e0f6b8d11", "request": {"url": "/m"}, "response": {"status": 200}, "metadata": {"team": "a"}}))
        out = pathlib.Path(self.directory.name, "out")
        result = run_cli("convert-wiremock", self.root, out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("not converted: 8c5db8b0-2db4-4d1c-8b5c-2d1e0f6b8d11: `metadata`", result.stdout)
        self.assertEqual(run_cli("check", out).returncode, 0)
        stubs = json.loads((out / "converted-from-wiremock.json").read_text())["stubs"]
        self.assertEqual(len(stubs), 3)
        self.assertEqual([s["responses"][0].get("body") for s in stubs if s["request"].get("url") == "/ok"], ['{"just": "a body"}'])


if __name__ == "__main__":
    unittest.main()
