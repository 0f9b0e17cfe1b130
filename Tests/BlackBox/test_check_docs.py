"""scripts/check-docs, the gate that keeps README.md, docs/ and the DocC catalogs in step with the code:
it passes on this checkout, and on a copy it fails, naming file and line, for each kind of drift."""
import json
import pathlib
import shutil
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "check-docs"


def check(*args):
    return subprocess.run(["python3", str(CHECK), *map(str, args)], capture_output=True, text=True, timeout=120)


class CheckDocsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix="understudy-check-docs-")
        cls.copy = pathlib.Path(cls.work.name) / "checkout"
        cls.copy.mkdir()
        ignore = shutil.ignore_patterns(".build", ".build-*", ".git", "*.doccarchive")
        for name in ("ARCHITECTURE.md", "README.md", "docs", "schema", "scripts", "stubs", "Sources", "Tests",
                     "Examples", "Plugins"):
            source = ROOT / name
            if not source.exists():
                continue
            if source.is_dir():
                shutil.copytree(source, cls.copy / name, ignore=ignore)
            else:
                shutil.copy2(source, cls.copy / name)

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def setUp(self):
        self.saved = {}

    def tearDown(self):
        for path, text in self.saved.items():
            path.write_text(text)

    def edit(self, relative, old, new, count=1):
        path = self.copy / relative
        text = path.read_text()
        self.saved.setdefault(path, text)
        self.assertIn(old, text)
        path.write_text(text.replace(old, new, count))

    def failing(self, *args):
        result = check("--root", self.copy, *args)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        return result.stdout

    def test_this_checkout_passes(self):
        result = check()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(check("--root", self.copy).returncode, 0)

    def test_a_swift_block_that_drifted_from_its_test_fails(self):
        self.edit("docs/sessions.md", "#expect(journal.map(\\.seq) == [1, 2, 3])", "#expect(journal.map(\\.seq) == [1, 2])")
        out = self.failing()
        self.assertRegex(out, r"docs/sessions\.md:\d+: this ```swift block is not in any compiled Swift file")

    def test_a_swift_block_in_a_docc_article_is_checked_too(self):
        self.edit("Sources/RESTNetworking/RESTNetworking.docc/PacingAndRetry.md", "maxAttempts: 4", "maxAttempts: 5")
        self.assertIn("PacingAndRetry.md", self.failing())

    def test_a_json_block_that_is_not_json_fails(self):
        self.edit("docs/stub-format.md", '"stubs": [] }', '"stubs": [ ... ] }')
        self.assertRegex(self.failing(), r"docs/stub-format\.md:\d+: this ```json block is not JSON")

    def test_a_broken_relative_link_or_anchor_fails(self):
        self.edit("README.md", "(docs/journal.md)", "(docs/jornal.md)")
        self.edit("docs/admin-api.md", "(sessions.md#sessions-a-private-understudy-per-test)", "(sessions.md#no-such-heading)")
        out = self.failing()
        self.assertRegex(out, r"README\.md:\d+: broken link: docs/jornal\.md \(no such file\)")
        self.assertRegex(out, r"docs/admin-api\.md:\d+: broken link: sessions\.md#no-such-heading")

    def test_a_page_without_its_summary_or_neighbour_links_fails(self):
        self.edit("docs/https.md", "Next: [HTTPS tests from Swift](https-swift.md)", "Next: HTTPS from Swift")
        self.assertIn("docs/https.md", self.failing())

    def test_a_name_the_code_no_longer_has_fails(self):
        # A type renamed away (it survives in a comment only), a member that is gone, a file that moved.
        self.edit("ARCHITECTURE.md", "`RequestHeadParser`", "`RequestStreamParser`")
        self.edit("docs/transport.md", "`ChunkedBodyReader`", "`ChunkedBodyReader.readAll`")
        self.edit("docs/development.md", "`Connection+Reply.swift`", "`Connection+Write.swift`")
        self.edit("ARCHITECTURE.md", "(`answerAwaitingDelivery`)", "(`answerWhenDelivered`)")
        self.edit("Sources/UnderstudyServer/ByteScan.swift", "``RequestHeadParser``", "``RequestStreamParser``")
        out = self.failing()
        self.assertRegex(out, r"ARCHITECTURE\.md:\d+: `RequestStreamParser`: no `RequestStreamParser` in the code")
        self.assertRegex(out, r"docs/transport\.md:\d+: `ChunkedBodyReader.readAll`: no `readAll` in the code")
        self.assertRegex(out, r"docs/development\.md:\d+: `Connection\+Write\.swift`: no such file")
        self.assertRegex(out, r"ARCHITECTURE\.md:\d+: `answerWhenDelivered`: no `answerWhenDelivered` in the code")
        self.assertNotIn("`RequestHeadParser`", out)

    def test_a_public_symbol_without_a_doc_comment_fails(self):
        graphs = pathlib.Path(self.work.name) / "graphs"
        graphs.mkdir(exist_ok=True)
        source = self.copy / "Sources" / "UnderstudyJSON" / "JSONValue.swift"

        def symbol(name, doc):
            entry = {"kind": {"identifier": "swift.property"}, "accessLevel": "public",
                     "identifier": {"precise": f"s:{name}"}, "pathComponents": ["JSONMember", name],
                     "location": {"uri": source.as_uri(), "position": {"line": 9, "character": 4}}}
            if doc:
                entry["docComment"] = {"lines": [{"text": "Documented."}]}
            return entry
        for module in ("UnderstudyTesting", "RESTNetworking", "UnderstudyJSON"):
            symbols = [symbol("documented", True)] + ([symbol("bare", False)] if module == "UnderstudyJSON" else [])
            (graphs / f"{module}.symbols.json").write_text(json.dumps({"symbols": symbols}))
        # A library module added later is checked as soon as its graph exists, without being listed.
        added = self.copy / "Sources" / "UnderstudyAdded"
        added.mkdir(exist_ok=True)
        (added / "Added.swift").write_text("public let added = 1\n")
        self.addCleanup(shutil.rmtree, added)
        late = symbol("late", False)
        late["location"]["uri"] = (added / "Added.swift").as_uri()
        (graphs / "UnderstudyAdded.symbols.json").write_text(json.dumps({"symbols": [late]}))
        out = self.failing("--symbol-graphs", graphs)
        self.assertIn("Sources/UnderstudyJSON/JSONValue.swift:10: public `JSONMember.bare` (UnderstudyJSON) has no ///",
                      out)
        self.assertIn("Sources/UnderstudyAdded/Added.swift:10: public `JSONMember.late` (UnderstudyAdded) has no ///", out)
        self.assertNotIn("documented", out)


if __name__ == "__main__":
    unittest.main()
