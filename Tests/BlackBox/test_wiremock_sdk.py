"""The real Python `wiremock` SDK (PyPI) driving Understudy's admin API unchanged: mappings CRUD,
requests, counts, the journal, scenario state and resets."""
import json
import os
import pathlib
import tempfile
import unittest
import urllib.error
import urllib.request

from Tests.BlackBox.blackbox import Daemon

try:
    from wiremock.constants import Config
    from wiremock.client import (HttpMethods, Mapping, MappingRequest, MappingResponse, Mappings, NearMissMatchPatternRequest,
                                 Requests, Scenarios, WireMockMatchers)
    from wiremock.exceptions import NotFoundException
    HAVE_SDK = True
except ImportError:
    HAVE_SDK = False


def call(url, method="GET", body=None, headers=None):
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@unittest.skipUnless(HAVE_SDK or os.environ.get("UNDERSTUDY_REQUIRE_WIREMOCK") == "1", "needs `pip install wiremock` (CI installs it)")
class WireMockSDKTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        root = pathlib.Path(self.directory.name)
        (root / "mappings").mkdir()
        (root / "mappings" / "from-file.json").write_text(json.dumps(
            {"request": {"method": "GET", "url": "/from-file"}, "response": {"status": 200, "body": "file"}}))
        self.daemon = Daemon([str(root), "--quiet"], str(root / "stderr.log"))
        self.base = f"http://127.0.0.1:{self.daemon.port}"
        Config.base_url = self.base + "/__admin"

    def tearDown(self):
        self.daemon.stop()
        self.directory.cleanup()

    def create(self, url, body, **extra):
        return Mappings.create_mapping(Mapping(
            request=MappingRequest(method=HttpMethods.GET, url=url),
            response=MappingResponse(status=200, body=body), persistent=False, **extra))

    def test_mappings_crud(self):
        created = self.create("/hello", "hi")
        self.assertTrue(created.id)
        self.assertEqual(call(self.base + "/hello"), (200, "hi"))

        all_mappings = Mappings.retrieve_all_mappings()
        self.assertEqual(all_mappings.meta.total, 2)
        self.assertEqual({m.request.url for m in all_mappings.mappings}, {"/hello", "/from-file"})
        self.assertEqual(Mappings.retrieve_mapping(created.id).response.body, "hi")

        created.response = MappingResponse(status=202, body="edited")
        Mappings.update_mapping(created)
        self.assertEqual(call(self.base + "/hello"), (202, "edited"))

        Mappings.delete_mapping(created.id)
        self.assertEqual(call(self.base + "/hello")[0], 404)
        with self.assertRaises(NotFoundException):
            Mappings.retrieve_mapping(created.id)

        self.create("/again", "x")
        Mappings.delete_all_mappings()
        self.assertEqual(Mappings.retrieve_all_mappings().meta.total, 0)
        self.assertEqual(call(self.base + "/from-file")[0], 404)
        Mappings.reset_mappings()  # back to the files on disk
        self.assertEqual(call(self.base + "/from-file"), (200, "file"))
        self.assertEqual(Mappings.retrieve_all_mappings().meta.total, 1)

    def test_requests_count_find_journal(self):
        Mappings.create_mapping(Mapping(
            request=MappingRequest(method=HttpMethods.POST, url_path="/orders",
                                   headers={"Content-Type": {WireMockMatchers.CONTAINS: "json"}},
                                   body_patterns=[{WireMockMatchers.MATCHES_JSON_PATH: "$.sku"}]),
            response=MappingResponse(status=201, json_body={"ok": True}), persistent=False))
        for sku in ("a", "b"):
            status, body = call(self.base + "/orders?src=sdk", "POST", json.dumps({"sku": sku}).encode(), {"Content-Type": "application/json"})
            self.assertEqual((status, json.loads(body)), (201, {"ok": True}))
        self.assertEqual(call(self.base + "/nowhere")[0], 404)

        count = Requests.get_matching_request_count(NearMissMatchPatternRequest(url_path="/orders", method="POST"))
        self.assertEqual(count.count, 2)
        count = Requests.get_matching_request_count(NearMissMatchPatternRequest(url="/orders?src=sdk", method="POST"))
        self.assertEqual(count.count, 2)
        self.assertEqual(Requests.get_matching_request_count(NearMissMatchPatternRequest(url_path="/orders", method="GET")).count, 0)

        found = Requests.get_matching_requests(NearMissMatchPatternRequest(url_path="/orders", method="POST"))
        self.assertEqual([r.url for r in found.requests], ["/orders?src=sdk", "/orders?src=sdk"])
        self.assertEqual([json.loads(r.body)["sku"] for r in found.requests], ["a", "b"])

        everything = Requests.get_all_received_requests()
        self.assertEqual(everything.meta.total, 3)
        self.assertEqual([r.request.url for r in everything.requests], ["/orders?src=sdk", "/orders?src=sdk", "/nowhere"])
        self.assertEqual([r.response_definition.status for r in everything.requests], [201, 201, 404])

        unmatched = Requests.get_unmatched_requests()
        self.assertEqual([r.url for r in unmatched.requests], ["/nowhere"])

        Requests.reset_request_journal()
        self.assertEqual(Requests.get_all_received_requests().meta.total, 0)

    def test_scenarios_state_and_reset(self):
        for required, new, body in (("Started", "Paid", "unpaid"), ("Paid", None, "paid")):
            Mappings.create_mapping(Mapping(
                request=MappingRequest(method=HttpMethods.GET, url="/invoice"),
                response=MappingResponse(status=200, body=body), persistent=False,
                scenario_name="invoice", required_scenario_state=required, new_scenario_state=new))
        self.assertEqual(call(self.base + "/invoice")[1], "unpaid")
        self.assertEqual(call(self.base + "/invoice")[1], "paid")
        Scenarios.reset_all_scenarios()
        self.assertEqual(call(self.base + "/invoice")[1], "unpaid")
        # WireMock's scenario endpoints (the SDK has no call for setting state; its clients PUT).
        status, _ = call(self.base + "/__admin/scenarios/invoice/state", "PUT", b'{"state":"Paid"}')
        self.assertEqual(status, 200)
        self.assertEqual(call(self.base + "/invoice")[1], "paid")
        status, listing = call(self.base + "/__admin/scenarios")
        scenario = json.loads(listing)["scenarios"][0]
        self.assertEqual((scenario["id"], scenario["state"]), ("invoice", "Paid"))
        self.assertEqual(sorted(scenario["possibleStates"]), ["Paid", "Started"])

    def test_global_reset_drops_admin_mappings_keeps_files(self):
        self.create("/temporary", "t")
        self.assertEqual(call(self.base + "/temporary")[0], 200)
        self.assertEqual(call(self.base + "/__admin/reset", "POST")[0], 200)
        self.assertEqual(call(self.base + "/temporary")[0], 404)
        self.assertEqual(call(self.base + "/from-file"), (200, "file"))
        # The journal restarted at the reset: only the two requests since.
        self.assertEqual([r.request.url for r in Requests.get_all_received_requests().requests], ["/temporary", "/from-file"])

    def test_health_probe(self):
        self.assertEqual(call(self.base + "/__admin")[0], 200)


if __name__ == "__main__":
    unittest.main()
