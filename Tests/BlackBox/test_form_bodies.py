"""Form bodies (issue 47) against the built daemon: the `form` body matcher for
application/x-www-form-urlencoded (field order free, value matchers per field, repeated fields and
Stripe-style bracketed names as written), `{{request.form.NAME}}` in templates, typed template values
inside `json` (`{{number now.epoch}}`), and WireMock's `formParameters` loaded from a mapping."""
import json
import pathlib
import subprocess
import tempfile
import unittest

import urllib3

from Tests.BlackBox.blackbox import Daemon, StubFileDaemonTestCase, request

STUBS = {"stubs": [
    {"id": "charge", "request": {"method": "POST", "path": "/v1/charges",
                                 "body": {"form": {"amount": {"matches": "[0-9]+"}, "currency": "eur",
                                                   "metadata[order]": {"present": True}, "capture": {"absent": True}}}},
     "responses": [{"status": 201, "template": True,
                    "json": {"amount": "{{number request.form.amount}}", "currency": "{{request.form.currency}}",
                             "order": "{{request.form.metadata.order}}", "created": "{{number now.epoch}}",
                             "livemode": "{{boolean request.form.live}}", "note": "{{json request.form.note}}",
                             "tags": "{{request.form.tag}}"}}]},
    {"id": "tagged", "request": {"method": "POST", "path": "/v1/tags", "body": {"form": {"tag": "b"}}},
     "responses": [{"status": 200, "body": "has b"}]},
]}

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class FormBodyTests(StubFileDaemonTestCase):
    STUBS = STUBS

    def post(self, path, body):
        return request(self.daemon.port, "POST", path, body.encode(), FORM)

    def test_fields_match_in_any_order_and_are_echoed_typed(self):
        status, _, body = self.post("/v1/charges", "metadata%5Border%5D=7&currency=eur&tag=x&amount=2000&tag=y")
        self.assertEqual(status, 201, body)
        answer = json.loads(body)
        self.assertEqual(answer["amount"], 2000, "a number, not a string")
        self.assertIsInstance(answer["created"], int)
        self.assertGreater(answer["created"], 1_700_000_000)
        self.assertEqual(answer["currency"], "eur")
        self.assertEqual(answer["order"], "7", "the bracketed name as written")
        self.assertEqual(answer["tags"], "x", "a repeated field's first value")
        self.assertIsNone(answer["livemode"], "an absent field is null when typed")
        self.assertIsNone(answer["note"])
        status, _, body = self.post("/v1/charges", "amount=5&currency=eur&metadata[order]=1&live=true&note=%7B%22a%22%3A1%7D")
        answer = json.loads(body)
        self.assertEqual((answer["livemode"], answer["note"]), (True, {"a": 1}))

    def test_a_field_that_does_not_match_misses_with_a_reason(self):
        status, _, body = self.post("/v1/charges", "amount=20x&currency=eur&metadata[order]=7")
        self.assertEqual(status, 404)
        self.assertIn("form field amount", body.decode())
        self.assertEqual(self.post("/v1/charges", "amount=1&currency=eur")[0], 404, "metadata[order] is required")
        self.assertEqual(self.post("/v1/charges", "amount=1&currency=eur&metadata[order]=1&capture=no")[0], 404,
                         "capture must be absent")

    def test_multipart_form_fields_match_by_name_and_are_echoed(self):
        # A real encoder (urllib3's, as requests uses it) and curl's -F: each picks its own boundary.
        body, content_type = urllib3.encode_multipart_formdata(
            [("currency", "eur"), ("metadata[order]", "9"), ("amount", "150"),
             ("receipt", ("receipt.txt", b"plain text file", "text/plain"))])
        status, _, answer = request(self.daemon.port, "POST", "/v1/charges", body, {"Content-Type": content_type})
        self.assertEqual(status, 201, answer)
        answer = json.loads(answer)
        self.assertEqual((answer["amount"], answer["currency"], answer["order"]), (150, "eur", "9"))
        curl = subprocess.run(
            ["curl", "-s", "-F", "amount=75", "-F", "currency=eur", "-F", "metadata[order]=3", "-F", "capture=yes",
             f"http://127.0.0.1:{self.daemon.port}/v1/charges"], capture_output=True, text=True, timeout=30)
        self.assertIn("form field capture", curl.stdout, "a multipart field the matcher says must be absent")
        curl = subprocess.run(
            ["curl", "-s", "-F", "amount=75", "-F", "currency=eur", "-F", "metadata[order]=3",
             f"http://127.0.0.1:{self.daemon.port}/v1/charges"], capture_output=True, text=True, timeout=30)
        self.assertEqual(json.loads(curl.stdout)["amount"], 75, curl.stdout)

    def test_a_repeated_field_matches_when_any_value_does(self):
        self.assertEqual(self.post("/v1/tags", "tag=a&tag=b")[::2], (200, b"has b"))
        self.assertEqual(self.post("/v1/tags", "tag=a&tag=c")[0], 404)


class WireMockFormParametersTests(unittest.TestCase):
    def test_form_parameters_load_and_match(self):
        with tempfile.TemporaryDirectory() as work:
            root = pathlib.Path(work, "root")
            (root / "mappings").mkdir(parents=True)
            (root / "mappings" / "form.json").write_text(json.dumps({
                "request": {"method": "POST", "url": "/form",
                            "formParameters": {"amount": {"equalTo": "2000"}, "metadata[order]": {"matches": "[0-9]+"},
                                               "capture": {"absent": True}}},
                "response": {"status": 200, "body": "form matched"}}))
            daemon = Daemon(["--strict", str(root)], str(pathlib.Path(work, "stderr.log")))
            try:
                ok = request(daemon.port, "POST", "/form", b"metadata%5Border%5D=7&amount=2000", FORM)
                self.assertEqual(ok[::2], (200, b"form matched"))
                self.assertEqual(request(daemon.port, "POST", "/form", b"amount=2001&metadata[order]=7", FORM)[0], 404)
                self.assertEqual(request(daemon.port, "POST", "/form", b"amount=2000&metadata[order]=7&capture=1",
                                         FORM)[0], 404)
            finally:
                daemon.stop()


if __name__ == "__main__":
    unittest.main()
