"""`understudy check --openapi` over the corpus of real public OpenAPI documents (Tests/OpenAPICorpus):
every planted drift is reported at the right file:line:col with the right spec pointer, no valid stub
is flagged, `generate`'s output passes `check`, and a spec that cannot be used is a located error with
exit code 1 and nothing reported as checked."""
import json
import pathlib
import re
import tempfile
import unittest

from Tests.BlackBox.blackbox import run_cli
from Tests.BlackBox.openapi_corpus import documents, position

FINDING = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): (?P<rest>.*)$", re.M)


def errors(output):
    return [m for m in FINDING.finditer(output) if m["severity"] == "error"]


class CorpusTests(unittest.TestCase):
    maxDiff = None

    def test_the_corpus_has_five_documents_one_large(self):
        found = documents()
        self.assertGreaterEqual(len(found), 5, [name for name, _, _ in found])
        self.assertTrue(any(spec.stat().st_size >= 1_000_000 for _, spec, _ in found), "one document of at least 1 MB")

    def test_valid_stubs_are_not_flagged(self):
        for name, spec, directory in documents():
            with self.subTest(name):
                result = run_cli("check", "--openapi", spec.name, "stubs/valid", cwd=directory, timeout=120)
                self.assertEqual(errors(result.stdout), [], result.stdout)
                self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
                self.assertRegex(result.stdout, r"understudy check: [1-9]\d* stubs \(\d+ responses\) checked against .*: 0 errors")

    def test_every_planted_drift_is_reported_at_its_place_and_nothing_else(self):
        for name, spec, directory in documents():
            with self.subTest(name):
                expected = json.loads((directory / "drifts.json").read_text())
                self.assertGreaterEqual(len(expected), 3, f"{name}: at least three planted drifts")
                result = run_cli("check", "--openapi", spec.name, "stubs/drift", cwd=directory, timeout=120)
                self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
                found = errors(result.stdout)
                for drift in expected:
                    line, column = position((directory / drift["file"]).read_text(), drift["at"])
                    matching = [m for m in found if (m["file"], int(m["line"]), int(m["column"])) == (drift["file"], line, column)]
                    self.assertTrue(matching, f"{name}: no error at {drift['file']}:{line}:{column} ({drift['at']}):\n{result.stdout}")
                    self.assertTrue(any(f"spec {drift['pointer']})" in m["rest"] and drift["message"] in m["rest"] for m in matching),
                                    f"{name}: {drift['file']}:{line}:{column} lacks pointer {drift['pointer']} / "
                                    f"'{drift['message']}':\n" + "\n".join(m[0] for m in matching))
                self.assertEqual(len(found), len(expected), f"{name}: only the planted drifts are errors:\n{result.stdout}")

    def test_generated_stubs_pass_check(self):
        for name, spec, directory in documents():
            with self.subTest(name), tempfile.TemporaryDirectory() as out:
                generated = run_cli("generate", "--openapi", spec, "--out", out, timeout=120)
                self.assertEqual(generated.returncode, 0, generated.stdout + generated.stderr)
                count = int(re.search(r"(\d+) stubs", generated.stdout)[1])
                self.assertGreater(count, 0)
                result = run_cli("check", "--openapi", spec, out, timeout=120)
                self.assertEqual(errors(result.stdout), [], result.stdout[:5000])
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn(f"{count} stubs", result.stdout)

    def test_skipped_stubs_are_listed_with_their_reason(self):
        directory = next(d for name, _, d in documents() if name == "petstore")
        result = run_cli("check", "--openapi", "petstore.yaml", "stubs/valid", cwd=directory)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("skipped: stub `teapot-on-purpose`: the client's tests check how it handles", result.stdout)
        self.assertIn("1 skipped", result.stdout)


class CrossFileTests(unittest.TestCase):
    """`$ref`s into files next to the spec are followed, and findings name the file they point into."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.root = pathlib.Path(self.directory.name)
        (self.root / "schemas").mkdir()
        (self.root / "api.yaml").write_text(
            "openapi: 3.1.0\ninfo: {title: split, version: '1'}\npaths:\n  /things/{id}:\n    get:\n"
            "      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n"
            "      responses:\n        '200':\n          description: ok\n"
            "          content: {application/json: {schema: {$ref: 'schemas/thing.yaml#/Thing'}}}\n")
        (self.root / "schemas" / "thing.yaml").write_text(
            "Thing:\n  type: object\n  required: [id, size]\n  properties:\n    id: {type: string}\n    size: {$ref: '#/Size'}\n"
            "Size:\n  type: integer\n  minimum: 1\n")
        (self.root / "stubs.json").write_text(json.dumps({"stubs": [
            {"id": "ok", "request": {"method": "GET", "path": "/things/a"}, "responses": [{"status": 200, "json": {"id": "a", "size": 2}}]},
            {"id": "small", "request": {"method": "GET", "path": "/things/b"}, "responses": [{"status": 200, "json": {"id": "b", "size": 0}}]},
        ]}, indent=2))

    def test_a_drift_inside_another_file_names_that_file(self):
        result = run_cli("check", "--openapi", "api.yaml", "stubs.json", cwd=self.root)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        found = errors(result.stdout)
        self.assertEqual(len(found), 1, result.stdout)
        line, column = position((self.root / "stubs.json").read_text(), "stubs[1].responses[0].json.size")
        self.assertEqual((found[0]["file"], int(found[0]["line"]), int(found[0]["column"])), ("stubs.json", line, column))
        self.assertIn("$.size: expected a number >= 1, found 0", found[0]["rest"])
        self.assertIn("spec schemas/thing.yaml#/Size/minimum", found[0]["rest"])


EVENTS_SPEC = """\
openapi: 3.1.0
info: {title: events, version: '1'}
servers: [{url: 'https://api.example.com/v1'}]
paths:
  /events:
    get:
      responses:
        '200': {description: all, content: {application/json: {schema: {type: array}}}}
  /events/{eventId}:
    get:
      parameters: [{name: eventId, in: path, required: true, schema: {type: string, pattern: '^ev_[a-z0-9]+$'}}]
      responses:
        '200':
          description: an event
          headers:
            Date: {required: true, schema: {type: string}}
            Content-Length: {required: true, schema: {type: string}}
            RateLimit-Limit: {required: true, schema: {type: integer}}
            RateLimit-Remaining: {required: true, schema: {type: integer}}
            RateLimit-Reset: {required: true, schema: {type: integer}}
          content:
            application/json:
              schema: {type: object, required: [id], properties: {id: {type: string}}}
        '429':
          description: slow down
          headers:
            Retry-After: {required: true, schema: {type: integer}}
            RateLimit-Limit: {required: true, schema: {type: integer}}
          content:
            application/json:
              schema: {type: object, required: [error], properties: {error: {type: string}}}
  /accounts/{accountId}/events/{eventId}:
    get:
      parameters:
        - {name: accountId, in: path, required: true, schema: {type: string}}
        - {name: eventId, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: ok}
"""


class StubKeyHeaderAndPathPatternTests(unittest.TestCase):
    """Issue 48, items 2 and 3: a stub's own keys (`retryAfter`, `rateLimit`, `json`) are credited with
    the headers the daemon sends from them, the rate limit's refusal is checked as the answer it is,
    and a `pathPattern`/`urlPattern` maps to the template its segments fall inside."""

    def setUp(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.root = pathlib.Path(directory.name)
        (self.root / "events.yaml").write_text(EVENTS_SPEC)

    def check(self, *stubs):
        (self.root / "stubs.json").write_text(json.dumps({"stubs": list(stubs)}, indent=2))
        return run_cli("check", "--openapi", "events.yaml", "stubs.json", cwd=self.root)

    RATE_LIMITED = {
        "id": "limited", "request": {"method": "GET", "pathPattern": "/v1/events/ev_[a-z0-9]+"},
        "rateLimit": {"limit": 2, "window": 60, "json": {"error": "slow down"}},
        "responses": [{"status": 200, "json": {"id": "ev_1"}}]}
    RETRY_AFTER = {
        "id": "retry-then-event", "request": {"method": "GET", "urlPattern": "/v1/events/ev_[0-9]{3}(\\?.*)?"},
        "responses": [{"status": 429, "retryAfter": 2, "headers": {"RateLimit-Limit": "10"}, "json": {"error": "wait"}},
                      {"status": 200, "json": {"id": "ev_123"}, "headers": {"RateLimit-Limit": "10",
                       "RateLimit-Remaining": "9", "RateLimit-Reset": "60"}}]}

    def test_stubs_using_retry_after_rate_limit_and_path_patterns_conform(self):
        result = self.check(self.RATE_LIMITED, self.RETRY_AFTER)
        self.assertEqual(errors(result.stdout), [], result.stdout)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        # The two responses, the second stub's two, and the first stub's refusal.
        self.assertIn("2 stubs (4 responses) checked against events.yaml", result.stdout)
        self.assertIn("0 warnings", result.stdout)

    def test_retry_after_and_the_transport_s_date_are_credited_on_an_exact_path(self):
        # Item 2 alone: no pattern, no rate limit; `Date` and `Content-Length` come from the transport.
        stub = {"id": "exact", "request": {"method": "GET", "path": "/v1/events/ev_1"}, "responses": [
            {"status": 429, "retryAfter": 2, "headers": {"RateLimit-Limit": "10"}, "json": {"error": "wait"}},
            {"status": 200, "json": {"id": "ev_1"},
             "headers": {"RateLimit-Limit": "10", "RateLimit-Remaining": "9", "RateLimit-Reset": "60"}}]}
        result = self.check(stub)
        self.assertEqual(errors(result.stdout), [], result.stdout)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        without = dict(stub, responses=[{"status": 429, "headers": {"RateLimit-Limit": "10"}, "json": {"error": "wait"}}])
        found = errors(self.check(without).stdout)
        self.assertEqual([m["rest"].split(" (at ")[0] for m in found], ["required response header `Retry-After` is missing"])

    def test_the_refusal_is_checked_with_the_headers_of_its_dialect(self):
        github = dict(self.RATE_LIMITED, rateLimit={"limit": 2, "window": 60, "headers": "github", "status": 429,
                                                    "json": {"error": "slow down"}})
        result = self.check(github)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        found = errors(result.stdout)
        # The github dialect sends X-RateLimit-* and, by default, no Retry-After: on the 200 and on the 429.
        messages = sorted(m["rest"].split(" (at ")[0] for m in found)
        self.assertEqual(messages, sorted([
            "required response header `RateLimit-Limit` is missing", "required response header `RateLimit-Remaining` is missing",
            "required response header `RateLimit-Reset` is missing", "required response header `Retry-After` is missing",
            "required response header `RateLimit-Limit` is missing"]), result.stdout)
        # The refusal's findings point into the `rateLimit` object (at its `headers` dialect when given).
        self.assertEqual(sum("(at stubs[0].rateLimit.headers;" in m["rest"] for m in found), 2, result.stdout)
        plain = dict(self.RATE_LIMITED, rateLimit={"limit": 2, "window": 60})
        found = errors(self.check(plain).stdout)
        self.assertEqual(len(found), 1, found)
        self.assertIn("media type text/plain is not declared for status 429", found[0]["rest"])

    def test_a_pattern_whose_segments_fit_no_template_is_still_an_error(self):
        stub = {"id": "nowhere", "request": {"method": "GET", "pathPattern": "/v1/evnts/ev_[a-z0-9]+"},
                "responses": [{"status": 200, "json": {"id": "x"}}]}
        result = self.check(stub)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("no path of the spec matches /", result.stdout)

    def test_patterns_segments_map_through_literals_parameters_and_the_base_path(self):
        deep = {"id": "deep", "request": {"method": "GET",
                                          "pathPattern": "^/v1/accounts/acct_[0-9]+/events/(ev|evt)_[a-z]{4}$"},
                "responses": [{"status": 200}]}
        result = self.check(deep)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("0 errors, 0 warnings", result.stdout)

    def test_a_pattern_that_can_span_segments_is_a_warning_that_says_why_not_a_false_alarm(self):
        stub = {"id": "any", "request": {"method": "GET", "pathPattern": "/v1/events/ev_.*"},
                "responses": [{"status": 200, "json": {"id": "x"}}]}
        result = self.check(stub)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(errors(result.stdout), [], result.stdout)
        self.assertIn("warning: cannot tell which path of the spec //v1/events/ev_.*/ reaches "
                      "(its segment `ev_.*` can match a `/` or more than one segment)", result.stdout)


class SinceTests(unittest.TestCase):
    """`check --openapi NEW --since OLD` lists the stubs the new version breaks and the old one accepted."""

    def test_a_renamed_required_field_breaks_the_stubs_that_lack_it(self):
        directory = next(d for name, _, d in documents() if name == "petstore")
        with tempfile.TemporaryDirectory() as temporary:
            old = (directory / "petstore.yaml").read_text()
            self.assertIn("        - name\n      properties:", old)
            new = old.replace("        - name\n      properties:", "        - name\n        - species\n      properties:", 1)
            pathlib.Path(temporary, "petstore-v2.yaml").write_text(new)
            result = run_cli("check", "--openapi", pathlib.Path(temporary, "petstore-v2.yaml"), "--since", "petstore.yaml",
                             "stubs/valid", cwd=directory)
            self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
            self.assertIn("3 stubs accepted by petstore.yaml are broken by", result.stderr)
            self.assertIn("list-pets, list-pets-from-file, show-pet", result.stderr)
            self.assertIn("required property `species` is missing", result.stdout)
            self.assertNotIn("create-pet", result.stderr)
            same = run_cli("check", "--openapi", "petstore.yaml", "--since", "petstore.yaml", "stubs/valid", cwd=directory)
            self.assertEqual(same.returncode, 0, same.stdout + same.stderr)
            self.assertIn("0 stubs accepted by petstore.yaml are broken", same.stdout)


class BadSpecTests(unittest.TestCase):
    """A spec that cannot be used: a located error, exit 1, and no stub reported as checked."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        self.root = pathlib.Path(self.directory.name)
        (self.root / "stubs.json").write_text(json.dumps(
            {"stubs": [{"request": {"method": "GET", "path": "/x"}, "responses": [{"status": 200}]}]}))

    def check(self, name, text):
        (self.root / name).write_text(text)
        result = run_cli("check", "--openapi", name, "stubs.json", cwd=self.root)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertNotIn("checked against", result.stdout + result.stderr)
        self.assertIn("no stub was checked", result.stderr)
        found = errors(result.stdout)
        self.assertTrue(found, result.stdout)
        return found

    def test_yaml_that_does_not_parse(self):
        found = self.check("broken.yaml", "openapi: 3.0.0\ninfo:\n  title: [unclosed\n  version: 1\npaths: {}\n")
        self.assertEqual(found[0]["file"], "broken.yaml")
        self.assertIn("not valid YAML", found[0]["rest"])
        self.assertGreaterEqual(int(found[0]["line"]), 3)

    def test_json_that_does_not_parse(self):
        found = self.check("broken.json", '{"openapi": "3.1.0",\n "info": {"title": "x" "version": "1"}}')
        self.assertEqual((found[0]["file"], found[0]["line"]), ("broken.json", "2"))
        self.assertIn("not valid JSON", found[0]["rest"])

    def test_a_broken_ref(self):
        found = self.check("ref.yaml",
                           "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n"
                           "        '200':\n          description: ok\n          content:\n            application/json:\n"
                           "              schema:\n                $ref: '#/components/schemas/Missing'\n")
        self.assertEqual((found[0]["file"], found[0]["line"], found[0]["column"]), ("ref.yaml", "12", "23"))
        self.assertIn("broken $ref `#/components/schemas/Missing`", found[0]["rest"])

    def test_a_ref_to_a_missing_file(self):
        found = self.check("ref-file.yaml",
                           "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n"
                           "        '200': {$ref: 'responses.yaml#/Ok'}\n")
        self.assertEqual((found[0]["file"], found[0]["line"]), ("ref-file.yaml", "7"))
        self.assertIn("no such file", found[0]["rest"])

    def test_swagger_2_and_other_documents_are_not_openapi(self):
        found = self.check("swagger.json", json.dumps({"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}))
        self.assertIn("Swagger 2.0 is not supported", found[0]["rest"])
        found = self.check("other.yaml", "name: not an api\nitems: [1, 2]\n")
        self.assertIn("not an OpenAPI document", found[0]["rest"])
        found = self.check("version.yaml", "openapi: 4.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n")
        self.assertEqual(found[0]["line"], "1")
        self.assertIn("unsupported OpenAPI version", found[0]["rest"])

    def test_a_document_openapikit_refuses(self):
        found = self.check("invalid.yaml", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /x:\n    get:\n"
                                           "      responses:\n        '200': 17\n")
        self.assertIn("not a valid OpenAPI 3.1.0 document", found[0]["rest"])
        self.assertEqual(found[0]["line"], "7")

    def test_an_unknown_field_is_refused_at_its_key_with_a_suggestion(self):
        # Every misspelt field of an OpenAPI object, each at its own key, in 3.0 and 3.1.
        for version in ("3.0.3", "3.1.0"):
            found = self.check(f"typo-{version}.yaml",
                               f"openapi: {version}\ninfo: {{title: x, version: '1', contcat: {{}}}}\npaths:\n  /x:\n"
                               "    get:\n      respones:\n        '200': {description: ok}\n"
                               "components:\n  responses:\n    Ok: {description: ok, header: {}}\n")
            self.assertEqual([(f["line"], f["column"]) for f in found], [("2", "32"), ("6", "7"), ("10", "27")],
                             found)
            self.assertIn("`contcat` is not a field of an Info Object; did you mean `contact`?", found[0]["rest"])
            self.assertIn("`respones` is not a field of an Operation Object; did you mean `responses`?",
                          found[1]["rest"])
            self.assertIn(f"typo-{version}.yaml#/paths/~1x/get/respones", found[1]["rest"])
            self.assertIn("`header` is not a field of a", found[2]["rest"])

    def test_fields_of_a_later_version_are_refused_in_an_earlier_one(self):
        found = self.check("webhooks.yaml", "openapi: 3.0.3\ninfo: {title: x, version: '1', summary: s}\n"
                                            "paths: {}\nwebhooks: {}\n")
        self.assertEqual([f["line"] for f in found], ["2", "4"], found)
        self.assertIn("`summary` is not a field of an Info Object", found[0]["rest"])

    def test_extensions_and_schema_keywords_are_not_fields_to_refuse(self):
        (self.root / "fine.yaml").write_text(
            "openapi: 3.1.0\ninfo: {title: x, version: '1', summary: s, x-logo: {url: l}}\nwebhooks: {}\n"
            "paths:\n  /x:\n    x-owner: me\n    get:\n      x-rate: 1\n      responses:\n"
            "        '200':\n          description: ok\n          content:\n"
            "            application/json:\n              schema: {type: object, x-kind: k, unknownKeyword: 1}\n")
        (self.root / "ok.json").write_text(json.dumps(
            {"stubs": [{"request": {"method": "GET", "path": "/x"}, "responses": [{"status": 200, "json": {}}]}]}))
        result = run_cli("check", "--openapi", "fine.yaml", "ok.json", cwd=self.root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("0 errors", result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main()
