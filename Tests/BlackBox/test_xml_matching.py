"""XML body matching from the outside (`xmlEquals`, `xPath`): the built daemon serving a native stub
file, driven over loopback with the Python stdlib; a bad XML stub refused with its position by `check`
and with a 400 by the admin API; and libxml2 opened only by a daemon that has an XML stub."""
import json
import pathlib
import tempfile
import unittest

from Tests.BlackBox.blackbox import Daemon, request, run_cli

XML = {"Content-Type": "application/xml"}
STUBS = {"stubs": [
    {"id": "order", "request": {"method": "POST", "path": "/orders",
                                "body": {"xmlEquals": "<order id=\"7\"><item>A-1</item><note>x</note></order>"}},
     "responses": [{"status": 201, "body": "created"}]},
    {"id": "status", "request": {"method": "POST", "path": "/status",
                                 "body": {"xPath": {"expression": "//s:Body/m:get/@status",
                                                    "namespaces": {"s": "urn:soap", "m": "urn:shop"},
                                                    "matcher": {"matches": "new|open"}}}},
     "responses": [{"status": 200, "body": "ok"}]},
]}


class XMLMatchingTests(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory(prefix="understudy-xml-")
        self.addCleanup(self.work.cleanup)
        self.stubs = pathlib.Path(self.work.name) / "stubs.json"
        self.stubs.write_text(json.dumps(STUBS, indent=1))

    def serve(self, path):
        daemon = Daemon([str(path), "--quiet"], str(pathlib.Path(self.work.name) / "daemon.err"))
        self.addCleanup(daemon.process.stdout.close)
        self.addCleanup(daemon.stop)
        return daemon

    def libxml2_mapped(self, daemon):
        return "libxml2" in pathlib.Path(f"/proc/{daemon.process.pid}/maps").read_text()

    def test_xml_stubs_match_as_xmlunit_compares_and_a_miss_says_why(self):
        daemon = self.serve(self.stubs)
        self.assertTrue(self.libxml2_mapped(daemon), "an XML stub opens libxml2")
        reordered = b'<order id="7">\n  <note>x</note>\n  <!-- c -->\n  <item> A-1 </item>\n</order>'
        self.assertEqual(request(daemon.port, "POST", "/orders", reordered, XML)[0], 201)
        status, _, body = request(daemon.port, "POST", "/orders", b'<order id="7"><item>A-2</item><note>x</note></order>', XML)
        self.assertEqual(status, 404)
        self.assertIn('body XML differs: text of /order/item "A-2" ≠ "A-1"', body.decode())
        status, _, body = request(daemon.port, "POST", "/orders", b'{"id": 7}', {"Content-Type": "application/json"})
        self.assertEqual(status, 404)
        self.assertIn("body is not XML", body.decode())
        soap = b'<e:Envelope xmlns:e="urn:soap"><e:Body><get xmlns="urn:shop" status="open"/></e:Body></e:Envelope>'
        self.assertEqual(request(daemon.port, "POST", "/status", soap, XML)[:3:2], (200, b"ok"))
        self.assertEqual(request(daemon.port, "POST", "/status", soap.replace(b"open", b"closed"), XML)[0], 404)
        self.assertEqual(request(daemon.port, "POST", "/status", soap.replace(b"urn:shop", b"urn:x"), XML)[0], 404)
        _, _, journal = request(daemon.port, "GET", "/__admin/requests")
        self.assertEqual(len(json.loads(journal)["requests"]), 6, "each answered request journaled once")

    def test_a_daemon_without_xml_stubs_does_not_open_libxml2(self):
        plain = pathlib.Path(self.work.name) / "plain.json"
        plain.write_text(json.dumps({"stubs": [{"request": {"path": "/a"}, "responses": [{"status": 200}]}]}))
        daemon = self.serve(plain)
        self.assertEqual(request(daemon.port, "GET", "/a")[0], 200)
        self.assertFalse(self.libxml2_mapped(daemon))

    def test_bad_xml_is_refused_with_its_position_and_changes_nothing(self):
        bad = pathlib.Path(self.work.name) / "bad.json"
        bad.write_text('{"stubs": [{"request": {"body": {"xmlEquals": "<a><b></a>"}},\n'
                       '            "responses": [{}]}]}')
        checked = run_cli("check", bad)
        self.assertEqual(checked.returncode, 1, checked.stdout)
        self.assertIn(f"{bad}:1:47: error: the expected XML is not well-formed", checked.stdout)
        daemon = self.serve(self.stubs)
        stub = {"stubs": [{"request": {"body": {"xPath": "//a["}}, "responses": [{}]}]}
        status, _, body = request(daemon.port, "POST", "/__admin/stubs", json.dumps(stub).encode(),
                                  {"Content-Type": "application/json"})
        self.assertEqual(status, 400, body)
        self.assertIn("not a valid XPath", body.decode())
        _, _, health = request(daemon.port, "GET", "/__admin/health")
        self.assertEqual(json.loads(health)["stubs"], 2)


if __name__ == "__main__":
    unittest.main()
