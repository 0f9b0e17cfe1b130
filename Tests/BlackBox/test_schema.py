"""schema/understudy-stubs.schema.json against the real loader: what one accepts the other accepts, and every
shape error `understudy check` refuses, the schema refuses too (validated with PyPI's `jsonschema`)."""
import json
import pathlib
import re
import tempfile
import unittest

import jsonschema

from Tests.BlackBox.blackbox import ROOT, run_cli
from Tests.BlackBox.blackbox import stub_directory

SCHEMA_PATH = ROOT / "schema" / "understudy-stubs.schema.json"
REFUSED = pathlib.Path(__file__).resolve().parent / "schema-refused"


def load_schema():
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def accepted_files():
    """Every example and fixture the loader accepts."""
    files = sorted(ROOT.glob("stubs/**/*.json"))
    files += sorted(ROOT.glob("Tests/**/Fixtures/valid/*.json"))
    files += sorted(ROOT.glob("scripts/hardening/stubs/*.json"))
    return files


class SchemaTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.validator = load_schema()

    def test_schema_is_draft_2020_12(self):
        schema = json.loads(SCHEMA_PATH.read_text())
        self.assertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")

    def test_every_example_and_fixture_validates(self):
        files = accepted_files()
        self.assertGreaterEqual(len(files), 15)
        for path in files:
            with self.subTest(file=str(path.relative_to(ROOT))):
                errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                          for e in self.validator.iter_errors(json.loads(path.read_text()))]
                self.assertEqual(errors, [])
        # The loader accepts them too (the hardening stubs need the body file their helper writes).
        with tempfile.TemporaryDirectory() as work:
            # One set at a time: ids are unique within a set, not across the examples and fixtures.
            sets = [str(ROOT / "stubs"), stub_directory(work)]
            sets += [str(f) for f in files if "Fixtures" in str(f)]
            for stub_set in sets:
                check = run_cli("check", stub_set)
                self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    def test_every_example_references_the_schema(self):
        examples = sorted(ROOT.glob("stubs/**/*.json"))
        self.assertGreater(len(examples), 0)
        for path in examples:
            with self.subTest(file=str(path.relative_to(ROOT))):
                reference = json.loads(path.read_text()).get("$schema")
                self.assertIsNotNone(reference, "no $schema")
                self.assertEqual((path.parent / reference).resolve(), SCHEMA_PATH.resolve())

    def test_check_refusals_are_schema_refusals(self):
        """Each file in the corpus has one shape error: both tools must refuse it."""
        corpus = sorted(REFUSED.glob("*.json"))
        corpus += sorted(ROOT.glob("Tests/**/Fixtures/invalid/*.json"))
        self.assertGreaterEqual(len(corpus), 60)
        for path in corpus:
            with self.subTest(file=path.name):
                check = run_cli("check", path)
                self.assertEqual(check.returncode, 1, f"understudy check accepted it:\n{check.stdout}")
                self.assertIn(": error: ", check.stdout)
                document = json.loads(path.read_text())
                self.assertFalse(self.validator.is_valid(document), "the schema accepted what `check` refuses")

    def test_schema_covers_every_key_the_loader_knows(self):
        """The key lists in the decoder's source are the truth; the schema must name each of them."""
        sources = "".join(p.read_text() for p in (ROOT / "Sources/UnderstudyCore/Loading").glob("StubDecoder*.swift"))

        def keys(name):
            """The strings of `static let NAME = [...] + OTHER + [...]`, following OTHER the same way."""
            match = re.search(r"static let " + name + r"\s*=\s*((?:\[[^\]]*\]|\w+)(?:\s*\+\s*(?:\[[^\]]*\]|\w+))*)", sources)
            self.assertIsNotNone(match, f"{name} not found in StubDecoder")
            found = set()
            for part in re.split(r"\s*\+\s*", match.group(1)):
                found |= set(re.findall(r'"([^"]+)"', part)) if part.startswith("[") else keys(part)
            return found

        schema = json.loads(SCHEMA_PATH.read_text())
        defs = schema["$defs"]
        value_matcher = defs["valueMatcher"]["oneOf"][1]["properties"]
        pairs = [
            ("documentKeys", schema["properties"]),
            ("stubKeys", defs["stub"]["properties"]),
            ("rateLimitKeys", defs["rateLimit"]["properties"]),
            ("requestKeys", defs["request"]["properties"]),
            ("valueMatcherKeys", value_matcher),
            ("bodyMatcherKeys", defs["bodyMatcher"]["properties"]),
            ("responseKeys", defs["response"]["properties"]),
        ]
        for name, properties in pairs:
            with self.subTest(keys=name):
                self.assertEqual(set(properties), keys(name))
                for key, definition in properties.items():
                    if key != "$schema":
                        described = "description" in definition or "$ref" in definition
                        self.assertTrue(described, f"{name}.{key} has no description")


if __name__ == "__main__":
    unittest.main()
