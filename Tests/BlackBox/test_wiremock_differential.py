"""The WireMock differential suite (Tests/WireMockDifferential): the corpus against the real WireMock
2.35 jar and against Understudy must agree on every request, and so must Understudy serving the
native stubs `understudy convert-wiremock` writes from the same corpus."""
import os
import pathlib
import shutil
import sys
import tempfile
import unittest

from Tests.WireMockDifferential import differential
from Tests.BlackBox.blackbox import binary, run_cli

REQUIRED = os.environ.get("UNDERSTUDY_REQUIRE_WIREMOCK") == "1"
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
            converted = differential.run(binary(), understudy_paths=[out], wiremock_results=self.report["wiremock"])
            self.assertEqual(converted["differences"], [], differential.summary(converted))
            self.assertEqual(converted["requests"], self.report["requests"])


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


if __name__ == "__main__":
    unittest.main()
