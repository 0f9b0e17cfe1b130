"""`understudy generate --openapi` from outside (issue 48, items 4 and 5): one stub for every operation
and every documented status (`default` and `5XX` ranges included), the non-primary ones selected by a
`Prefer: code=STATUS` request header; example values that satisfy `pattern`, `format`, lengths,
`enum`, numeric bounds and `minItems`; a warning naming the spec pointer of a constraint it cannot
satisfy; and output that passes `check --openapi` and answers every pair when served."""
import datetime
import http.client
import ipaddress
import json
import pathlib
import re
import tempfile
import unittest
import uuid

from Tests.BlackBox.blackbox import Daemon, run_cli

# A petstore-like document: GET /pets answers 200, 401 and default; POST /pets 201, 400, 5XX and
# default; items carry a `sku` with a pattern and properties of every constrained kind.
SPEC = """\
openapi: 3.0.3
info: {title: Shop, version: '1'}
servers:
  - url: http://shop.example.com/v1
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: pets
          headers:
            X-Total-Count: {required: true, schema: {type: integer, minimum: 1}}
          content:
            application/json:
              schema: {type: array, minItems: 2, items: {$ref: '#/components/schemas/Pet'}}
        '401':
          description: unauthorised
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        default:
          description: error
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '400':
          description: bad
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        5XX:
          description: server
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        default:
          description: other
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /pets/{petId}:
    get:
      operationId: showPet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string, pattern: '^pet_[a-z0-9]{6}$'}}
      responses:
        '200':
          description: a pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '404':
          description: none
  /items/{sku}:
    get:
      operationId: getItem
      parameters:
        - {name: sku, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: an item
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Item'}
        4XX:
          description: client error
          content:
            text/plain:
              schema: {type: string}
components:
  schemas:
    Pet:
      type: object
      required: [id, name, tags]
      properties:
        id: {type: integer, format: int64, minimum: 1}
        name: {type: string, minLength: 3, maxLength: 12}
        tags: {type: array, minItems: 2, uniqueItems: true, items: {type: string, enum: [cat, dog, fish]}}
    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: string, enum: [unauthorised, invalid, internal]}
        message: {type: string, minLength: 1}
    Item:
      type: object
      required: [sku, id, created, day, email, homepage, ip, ip6, price, quantity, ratio, label, status, code]
      properties:
        sku: {type: string, pattern: '^[A-Z]{3}-[0-9]{4}$'}
        id: {type: string, format: uuid}
        created: {type: string, format: date-time}
        day: {type: string, format: date}
        email: {type: string, format: email}
        homepage: {type: string, format: uri}
        ip: {type: string, format: ipv4}
        ip6: {type: string, format: ipv6}
        price: {type: number, minimum: 10, exclusiveMinimum: true, multipleOf: 5}
        quantity: {type: integer, minimum: -20, maximum: -3}
        ratio: {type: number, maximum: 1, exclusiveMaximum: true, minimum: 0.25, multipleOf: 0.25}
        label: {type: string, minLength: 6, pattern: '^[a-z]+-[0-9]+$'}
        status: {type: string, enum: [active, retired]}
        code: {type: string, pattern: '^(ab|cd)[0-9]{2,3}x?$', maxLength: 6}
"""

# Every operation/status pair of SPEC, with the status its stub answers (`5XX` → 500; `default`
# → the first 5xx, then 4xx, that nothing else declares).
PAIRS = {
    ("GET", "/pets", "200"): 200, ("GET", "/pets", "401"): 401, ("GET", "/pets", "default"): 500,
    ("POST", "/pets", "201"): 201, ("POST", "/pets", "400"): 400, ("POST", "/pets", "5XX"): 500,
    ("POST", "/pets", "default"): 401,
    ("GET", "/pets/{petId}", "200"): 200, ("GET", "/pets/{petId}", "404"): 404,
    ("GET", "/items/{sku}", "200"): 200, ("GET", "/items/{sku}", "4XX"): 400,
}
PRIMARY = {("GET", "/pets"): 200, ("POST", "/pets"): 201, ("GET", "/pets/{petId}"): 200, ("GET", "/items/{sku}"): 200}


class GenerateTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        work = tempfile.TemporaryDirectory()
        self.addCleanup(work.cleanup)
        self.root = pathlib.Path(work.name)
        self.spec = self.root / "shop.yaml"
        self.spec.write_text(SPEC)
        self.out = self.root / "stubs"
        self.generated = run_cli("generate", "--openapi", str(self.spec), "--out", str(self.out), timeout=120)
        self.assertEqual(self.generated.returncode, 0, self.generated.stdout + self.generated.stderr)
        self.stubs = [stub for path in sorted(self.out.glob("*.json")) for stub in json.loads(path.read_text())["stubs"]]

    def stub(self, stub_id):
        return next(s for s in self.stubs if s["id"] == stub_id)

    def test_every_operation_and_status_gets_a_stub_and_the_output_passes_check(self):
        self.assertNotIn("warning", self.generated.stderr, "every value of this spec can be generated")
        ids = {s["id"] for s in self.stubs}
        expected = {f"{op}-{status}" for op, status in [
            ("listPets", 200), ("listPets", 401), ("listPets", 500), ("createPet", 201), ("createPet", 400),
            ("createPet", 500), ("createPet", 401), ("showPet", 200), ("showPet", 404), ("getItem", 200),
            ("getItem", 400)]}
        self.assertEqual(ids, expected)
        self.assertEqual(len(self.stubs), len(PAIRS))
        self.assertIn(f"{len(PAIRS)} stubs", self.generated.stdout)
        checked = run_cli("check", "--openapi", str(self.spec), str(self.out), timeout=120)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        self.assertRegex(checked.stdout, rf"{len(PAIRS)} stubs \({len(PAIRS)} responses\) checked .*: 0 errors, 0 warnings, 0 skipped")

    def test_the_primary_status_answers_the_plain_request_and_prefer_selects_each_other_one(self):
        # Served under `serve --openapi` (warn): every answer is also checked against the spec by the daemon.
        daemon = Daemon([str(self.out), "--openapi", str(self.spec)], cwd=self.root)
        self.addCleanup(daemon.stop)
        operations = {("GET", "/pets"): "listPets", ("POST", "/pets"): "createPet",
                      ("GET", "/pets/{petId}"): "showPet", ("GET", "/items/{sku}"): "getItem"}
        paths = {template: self.stub(f"{operation}-{PRIMARY[(method, template)]}")["request"]["path"]
                 for (method, template), operation in operations.items()}
        body = json.dumps({"id": 1, "name": "Rex", "tags": ["cat", "dog"]})
        for (method, template, key), status in PAIRS.items():
            with self.subTest(method=method, path=template, response=key):
                primary = PRIMARY[(method, template)] == status and key[0] in "2"
                headers = {"Content-Type": "application/json"} if method == "POST" else {}
                if not primary:
                    # Among other preferences, as RFC 7240 allows.
                    headers["Prefer"] = f"respond-async, code={status}; wait=1"
                connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
                self.addCleanup(connection.close)
                connection.request(method, paths[template], body=body if method == "POST" else None, headers=headers)
                response = connection.getresponse()
                response.read()
                self.assertEqual(response.status, status)
                entry = daemon.get_json("/__admin/requests")["requests"][-1]
                self.assertEqual(entry.get("stub"), f"{operations[(method, template)]}-{status}", entry)
                answer_violations = [v for v in entry.get("openapiViolations", []) if v["where"].startswith("response")]
                self.assertEqual(answer_violations, [], "the daemon's own check accepts the answer")
        # A status the operation does not declare: the primary answer.
        connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
        self.addCleanup(connection.close)
        connection.request("GET", paths["/pets"], headers={"Prefer": "code=418"})
        response = connection.getresponse()
        response.read()
        self.assertEqual(response.status, 200)

    def test_the_other_statuses_are_selected_by_a_prefer_header_at_priority_4(self):
        stub = self.stub("listPets-401")
        self.assertEqual(stub["priority"], 4)
        self.assertEqual(stub["request"]["headers"], {"Prefer": {"matches": "(.*[ ,;])?code=401([ ,;].*)?"}})
        self.assertNotIn("headers", self.stub("listPets-200")["request"], "the primary stub needs no header")

    def test_generated_values_satisfy_their_constraints(self):
        item = self.stub("getItem-200")["responses"][0]["json"]
        self.assertRegex(item["sku"], r"^[A-Z]{3}-[0-9]{4}$")
        self.assertEqual(str(uuid.UUID(item["id"])), item["id"])
        datetime.datetime.fromisoformat(item["created"].replace("Z", "+00:00"))
        datetime.date.fromisoformat(item["day"])
        self.assertRegex(item["email"], r"^[^@\s]+@[^@\s]+\.[a-z]+$")
        self.assertRegex(item["homepage"], r"^https?://")
        ipaddress.IPv4Address(item["ip"])
        ipaddress.IPv6Address(item["ip6"])
        self.assertTrue(item["price"] > 10 and item["price"] % 5 == 0, item["price"])
        self.assertTrue(-20 <= item["quantity"] <= -3, item["quantity"])
        self.assertTrue(0.25 <= item["ratio"] < 1 and item["ratio"] % 0.25 == 0, item["ratio"])
        self.assertRegex(item["label"], r"^[a-z]+-[0-9]+$")
        self.assertGreaterEqual(len(item["label"]), 6)
        self.assertIn(item["status"], ["active", "retired"])
        self.assertRegex(item["code"], r"^(ab|cd)[0-9]{2,3}x?$")
        pets = self.stub("listPets-200")["responses"][0]
        self.assertGreaterEqual(len(pets["json"]), 2)
        for pet in pets["json"]:
            self.assertTrue(3 <= len(pet["name"]) <= 12 and pet["id"] >= 1, pet)
            self.assertEqual(len(set(pet["tags"])), len(pet["tags"]), "uniqueItems")
            self.assertGreaterEqual(len(pet["tags"]), 2)
        self.assertGreaterEqual(int(pets["headers"]["X-Total-Count"]), 1)
        self.assertRegex(self.stub("showPet-200")["request"]["path"], r"^/v1/pets/pet_[a-z0-9]{6}$",
                         "a path parameter's value satisfies its pattern too")
        self.assertEqual(self.stub("getItem-400")["responses"][0]["headers"], {"Content-Type": "text/plain"})

    def test_a_constraint_it_cannot_satisfy_is_named_and_the_stub_is_marked_skipped(self):
        # `minLength` beyond what the pattern allows: no string satisfies both.
        self.spec.write_text(SPEC.replace("sku: {type: string, pattern: '^[A-Z]{3}-[0-9]{4}$'}",
                                          "sku: {type: string, pattern: '^[A-Z]{3}-[0-9]{4}$', minLength: 20}"))
        out = self.root / "impossible"
        generated = run_cli("generate", "--openapi", str(self.spec), "--out", str(out), timeout=120)
        self.assertEqual(generated.returncode, 0, generated.stdout + generated.stderr)
        self.assertIn("warning: stub `getItem-200`: cannot generate a valid body: $.sku:", generated.stderr)
        self.assertIn("(spec " + str(self.spec) + "#/components/schemas/Item/properties/sku/minLength)", generated.stderr)
        self.assertIn("(1 warnings)", generated.stdout)
        item = next(s for p in out.glob("*.json") for s in json.loads(p.read_text())["stubs"] if s["id"] == "getItem-200")
        self.assertIn("sku/minLength", item["openapi"]["skip"])
        checked = run_cli("check", "--openapi", str(self.spec), str(out), timeout=120)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        self.assertIn("1 skipped", checked.stdout)


if __name__ == "__main__":
    unittest.main()
