"""`understudy serve --openapi SPEC [--openapi-mode warn|fail]` from outside (issue 27): the built daemon
against the corpus's petstore document, driven with http.client. In `warn` mode every request and every
stub's answer (a template's rendered output included) is checked and a violation is journaled
(`openapiViolations`) and sent as an `Understudy-OpenAPI-Violation` header; in `fail` mode a request that
breaks the document is refused with a 400 that says why (journaled as refused, moving no sequence), and a
stub's answer that breaks it is replaced by a 500. A spec that cannot be used stops the start."""
import http.client
import json
import pathlib
import tempfile
import unittest

from Tests.BlackBox.blackbox import ROOT, Daemon, DaemonStartError, run_cli

SPEC = ROOT / "Tests" / "OpenAPICorpus" / "petstore" / "petstore.yaml"
HEADER = "Understudy-OpenAPI-Violation"
STUBS = {"stubs": [
    {"id": "list-pets", "request": {"method": "GET", "path": "/v1/pets"}, "responses": [
        {"status": 200, "json": [{"id": 1, "name": "Rex"}]},
        {"status": 200, "json": [{"id": 2, "name": "Tom"}]}]},
    {"id": "create-pet", "request": {"method": "POST", "path": "/v1/pets"}, "responses": [{"status": 201}]},
    # The template renders the path segment into a string: the spec says `id` is an integer.
    {"id": "show-pet", "request": {"method": "GET", "pathPattern": "/v1/pets/[0-9]+"}, "responses": [
        {"status": 200, "template": True, "json": {"id": "{{request.pathSegments.2}}", "name": "Rex"}}]},
    {"id": "teapot-on-purpose", "request": {"method": "GET", "path": "/v1/pets/teapot"},
     "openapi": {"skip": "the client's tests check how it handles an undeclared status"},
     "responses": [{"status": 418, "body": "tea"}]},
    {"id": "no-such-path", "request": {"method": "GET", "path": "/v1/owners"}, "responses": [{"status": 200, "body": "x"}]},
]}
PET_ID_TYPE = "petstore.yaml#/components/schemas/Pet/properties/id/type"


class ServeOpenAPITests(unittest.TestCase):
    maxDiff = None

    def start(self, *mode):
        work = tempfile.TemporaryDirectory()
        self.addCleanup(work.cleanup)
        stubs = pathlib.Path(work.name) / "stubs.json"
        stubs.write_text(json.dumps(STUBS))
        # From the spec's directory, so spec pointers read `petstore.yaml#/…` as in the docs.
        daemon = Daemon([str(stubs), "--openapi", SPEC.name, *mode], cwd=SPEC.parent)
        self.addCleanup(daemon.stop)
        return daemon

    def call(self, daemon, method, target, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
        self.addCleanup(connection.close)
        connection.request(method, target, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader(HEADER), response.read().decode()

    def last_entry(self, daemon):
        return daemon.get_json("/__admin/requests")["requests"][-1]

    def test_warn_journals_and_reports_violations_and_answers_as_the_stub_says(self):
        daemon = self.start()  # warn is the default
        self.assertIn("checking requests and stub answers against", daemon.stderr())

        status, header, _ = self.call(daemon, "GET", "/v1/pets")
        self.assertEqual((status, header), (200, None), "a request and an answer that keep the spec")
        self.assertNotIn("openapiViolations", self.last_entry(daemon))

        status, header, body = self.call(daemon, "GET", "/v1/pets?limit=abc")
        self.assertEqual(status, 200, "warn answers as the stub says")
        self.assertIn("Tom", body)
        self.assertIn("request.query.limit", header)
        self.assertEqual(self.last_entry(daemon)["openapiViolations"], [{
            "where": "request.query.limit",
            "pointer": "petstore.yaml#/paths/~1pets/get/parameters/0/schema/type",
            "message": "`abc`: expected integer, found string"}])

        status, header, _ = self.call(daemon, "GET", "/v1/pets?limit=500")
        violations = self.last_entry(daemon)["openapiViolations"]
        self.assertEqual([v["pointer"] for v in violations], ["petstore.yaml#/paths/~1pets/get/parameters/0/schema/maximum"])

        status, header, _ = self.call(daemon, "POST", "/v1/pets", body=json.dumps({"id": 1}),
                                      headers={"Content-Type": "application/json"})
        self.assertEqual(status, 201)
        self.assertEqual(self.last_entry(daemon)["openapiViolations"], [{
            "where": "request.body", "pointer": "petstore.yaml#/components/schemas/Pet/required",
            "message": "$: required property `name` is missing"}])

        status, header, _ = self.call(daemon, "POST", "/v1/pets", body=b"")
        self.assertEqual(self.last_entry(daemon)["openapiViolations"], [{
            "where": "request.body", "pointer": "petstore.yaml#/paths/~1pets/post/requestBody/required",
            "message": "a request body is required"}])

        status, header, body = self.call(daemon, "GET", "/v1/pets/7")
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body), {"id": "7", "name": "Rex"}, "the rendered template, sent as it is")
        self.assertIn("response.body: $.id: expected integer, found string", header)
        entry = self.last_entry(daemon)
        self.assertEqual(entry["stub"], "show-pet")
        self.assertEqual(entry["openapiViolations"], [{
            "where": "response.body", "pointer": PET_ID_TYPE, "message": "$.id: expected integer, found string"}])
        self.assertIn(HEADER.lower(), entry["response"]["headers"], "the journal shows the header as sent")

        status, header, _ = self.call(daemon, "GET", "/v1/owners")
        self.assertEqual(status, 200)
        self.assertEqual(self.last_entry(daemon)["openapiViolations"], [{
            "where": "request.path", "pointer": "petstore.yaml#/paths",
            "message": "no path of the spec matches /v1/owners"}])

        status, header, _ = self.call(daemon, "DELETE", "/v1/pets")
        self.assertEqual(status, 404, "no stub: the unmatched answer, not held to the spec")
        violations = self.last_entry(daemon)["openapiViolations"]
        self.assertEqual([v["where"] for v in violations], ["request.method"])
        self.assertIn("/pets has no DELETE operation (it declares GET, POST)", violations[0]["message"])

    def test_fail_refuses_requests_with_a_400_and_stub_answers_with_a_500(self):
        daemon = self.start("--openapi-mode", "fail")

        status, header, body = self.call(daemon, "GET", "/v1/pets?limit=abc")
        self.assertEqual(status, 400)
        self.assertIn("the request does not match the OpenAPI document", body)
        self.assertIn("request.query.limit: `abc`: expected integer, found string "
                      "(spec petstore.yaml#/paths/~1pets/get/parameters/0/schema/type)", body)
        entry = self.last_entry(daemon)
        self.assertEqual((entry["status"], entry["outcome"], entry["matched"]), (400, "refused", False))
        self.assertIn("request.query.limit", entry["reason"])
        self.assertEqual(len(entry["openapiViolations"]), 1)

        status, _, body = self.call(daemon, "GET", "/v1/pets")
        self.assertEqual(status, 200)
        self.assertIn("Rex", body, "the refused request moved no sequence: the stub's first answer")

        status, _, body = self.call(daemon, "POST", "/v1/pets", body=json.dumps({"name": 5}),
                                    headers={"Content-Type": "application/json"})
        self.assertEqual(status, 400)
        self.assertIn("request.body: $: required property `id` is missing", body)
        self.assertIn("request.body: $.name: expected string, found integer", body)

        status, _, body = self.call(daemon, "GET", "/v1/pets/7")
        self.assertEqual(status, 500, "a stub's answer that breaks the spec is refused")
        self.assertIn("stub `show-pet`'s answer does not match the OpenAPI document", body)
        self.assertIn(f"response.body: $.id: expected integer, found string (spec {PET_ID_TYPE})", body)
        entry = self.last_entry(daemon)
        self.assertEqual((entry["status"], entry["outcome"], entry["stub"]), (500, "refused", "show-pet"))

        status, _, body = self.call(daemon, "GET", "/v1/pets/teapot")
        self.assertEqual((status, body), (418, "tea"), "a stub marked openapi.skip answers off the spec as it says")
        entry = self.last_entry(daemon)
        self.assertEqual((entry["outcome"], entry["stub"]), ("answered", "teapot-on-purpose"))
        self.assertNotIn("openapiViolations", entry)

        status, _, _ = self.call(daemon, "POST", "/v1/pets", body=json.dumps({"id": 3, "name": "Kit"}),
                                 headers={"Content-Type": "application/json"})
        self.assertEqual(status, 201, "a request and an answer that keep the spec pass in fail mode")
        self.assertNotIn("openapiViolations", self.last_entry(daemon))

    def test_a_spec_that_cannot_be_used_stops_the_start(self):
        with tempfile.TemporaryDirectory() as work:
            bad = pathlib.Path(work) / "bad.yaml"
            bad.write_text("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n"
                           "      responses:\n        '200':\n          description: ok\n          content:\n"
                           "            application/json:\n              schema: {$ref: '#/components/schemas/Missing'}\n")
            with self.assertRaises(DaemonStartError) as raised:
                Daemon(["--openapi", str(bad), str(ROOT / "stubs")], timeout=60)
            self.assertIn("exited with status 1", str(raised.exception))
            self.assertIn("broken $ref `#/components/schemas/Missing`", str(raised.exception))
            self.assertIn("not serving: the OpenAPI document", str(raised.exception))

    def test_mode_without_a_spec_is_refused(self):
        result = run_cli("serve", "--openapi-mode", "fail", "--port", "0")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--openapi-mode needs --openapi SPEC", result.stderr)


if __name__ == "__main__":
    unittest.main()
