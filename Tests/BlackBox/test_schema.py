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
        """The stub format's key lists (UnderstudyStubFormat's StubFormat, which the loader validates
        against) are the truth; the schema must name each of them, with a description."""
        source = (ROOT / "Sources/UnderstudyStubFormat/StubFormat.swift").read_text()

        def keys(name):
            """The strings of `case .NAME: return [...]` in StubFormat.Object.keys (the list may wrap)."""
            match = re.search(r"case \." + name + r":\s*return\s*(\[[^\]]*\])", source)
            self.assertIsNotNone(match, f"{name} not found in StubFormat")
            return set(re.findall(r'"([^"]+)"', match.group(1)))

        schema = json.loads(SCHEMA_PATH.read_text())
        defs = schema["$defs"]
        value_matcher = defs["valueMatcher"]["oneOf"][1]["properties"]
        pairs = [
            ("document", schema["properties"]),
            ("stub", defs["stub"]["properties"]),
            ("rateLimit", defs["rateLimit"]["properties"]),
            ("request", defs["request"]["properties"]),
            ("valueMatcher", value_matcher),
            ("bodyMatcher", defs["bodyMatcher"]["properties"]),
            ("response", defs["response"]["properties"]),
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
