"""The loader and the unmatched response, from the outside: `understudy check` and `serve` on temporary
stub trees, run as a Python harness runs them (subprocess with captured output). `check` prints errors
on stdout (for editors and CI annotations); `serve` refuses to start and prints them on stderr."""
import json
import pathlib
import tempfile
import unittest

from Tests.BlackBox.blackbox import ROOT, Daemon, request, run_cli

BODY_RULE = ("Below a loaded directory every `.json` is a stub file, except one that a stub names as its "
             "`bodyFile` and one under a `__files/` directory")


class LoaderTests(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory(prefix="understudy-loader-")
        self.addCleanup(self.work.cleanup)
        self.root = pathlib.Path(self.work.name) / "root"

    def write(self, relative, content):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def body_tree(self):
        """The tree from the report: a stub serving files/big.json, a plain JSON body."""
        self.write("ok.json", {"stubs": [{"id": "big", "request": {"path": "/big"},
                                          "responses": [{"bodyFile": "files/big.json"}]}]})
        self.write("files/big.json", '{"items": [1, 2, 3]}')

    def serve(self, *paths):
        daemon = Daemon([*map(str, paths), "--quiet"], str(pathlib.Path(self.work.name) / "daemon.err"))
        self.addCleanup(daemon.process.stdout.close)  # cleanups run last-in first-out: after stop
        self.addCleanup(daemon.stop)
        return daemon

    def test_check_accepts_a_json_body_named_by_a_body_file(self):
        self.body_tree()
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertEqual(result.stdout, f"understudy check: 1 stubs OK in {self.root}\n")

    def test_serve_serves_the_json_body_and_does_not_load_it_as_stubs(self):
        self.body_tree()
        self.write("__files/unreferenced.json", '{"anything": true}')
        daemon = self.serve(self.root)
        status, _, body = request(daemon.port, "GET", "/big")
        self.assertEqual((status, body), (200, b'{"items": [1, 2, 3]}'))
        _, _, health = request(daemon.port, "GET", "/__admin/health")
        self.assertEqual(json.loads(health)["stubs"], 1)

    def test_a_stub_file_with_a_typo_is_reported_not_skipped(self):
        self.body_tree()
        typo = self.write("typo.json", '{"stubz": [{"id": "t", "responses": [{}]}]}')
        checked = run_cli("check", self.root)
        served = run_cli("serve", self.root, "--port", "0")
        for result, output in ((checked, checked.stdout), (served, served.stderr)):
            self.assertEqual(result.returncode, 1, result.args)
            errors = [line for line in output.splitlines() if ": error: " in line]
            self.assertEqual(errors, [f"{typo}:1:2: error: unknown key `stubz`; did you mean `stubs`? (`stubs` is required) (at stubz)"])

    def test_a_json_file_nothing_names_gets_an_error_stating_the_rule(self):
        self.body_tree()
        orphan = self.write("files/orphan.json", '{"items": [], "total": 0}')
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout.splitlines()[0],
                         f'{orphan}:1:1: error: not a stub file: missing key `stubs`; a stub file is {{"stubs": [ ... ]}}. '
                         + BODY_RULE)

    def test_a_duplicate_id_is_reported_beside_the_stubs_other_error(self):
        stubs = self.write("dup.json", '{"stubs": [\n{"id": "a", "responses": [{}]},\n'
                                       '{"id": "a", "whenState": "Ready", "responses": [{}]}\n]}')
        result = run_cli("check", self.root)
        self.assertEqual(result.returncode, 1)
        errors = [line for line in result.stdout.splitlines() if ": error: " in line]
        self.assertEqual(errors, [
            f"{stubs}:3:8: error: duplicate stub id `a`; first used at {stubs}:2:8 (at stubs[1].id)",
            f"{stubs}:3:13: error: `whenState` needs `scenario`: name the scenario whose state it refers to (at stubs[1].whenState)",
        ])

    def test_a_misspelt_required_key_posted_to_the_admin_api_is_one_error(self):
        self.body_tree()
        daemon = self.serve(self.root)
        status, _, body = request(daemon.port, "POST", "/__admin/stubs",
                                  body=b'{"stubs": [{"id": "new", "responsez": [{"status": 201}]}]}')
        self.assertEqual(status, 400)
        errors = json.loads(body)["errors"]
        self.assertEqual([error["message"] for error in errors],
                         ["unknown key `responsez`; did you mean `responses`? (`responses` is required)"])
        self.assertEqual(errors[0]["path"], "stubs[0].responsez")

    def test_the_closest_stub_is_listed_first(self):
        daemon = self.serve(ROOT / "stubs")
        status, _, body = request(daemon.port, "GET", "/examples/respond-then-respond")
        self.assertEqual(status, 404)
        listed = [line[2:].split(" ")[0] for line in body.decode().splitlines() if line.startswith("- ")]
        self.assertEqual(len(listed), 3, body)
        self.assertEqual(listed[0], "example-retry-after-then-ok", body)
        status, _, body = request(daemon.port, "GET", "/examples/rate-limted")
        self.assertEqual(body.decode().splitlines()[3].split(" ")[1], "example-rate-limited", body)

    def test_without_a_stub_argument_the_missing_default_is_named_with_how_to_pass_another(self):
        empty = pathlib.Path(self.work.name) / "empty"
        empty.mkdir()
        for command in ("serve", "check"):
            with self.subTest(command=command):
                result = run_cli(command, *(["--port", "0"] if command == "serve" else []), cwd=empty)
                self.assertEqual(result.returncode, 1)
                output = result.stderr if command == "serve" else result.stdout
                errors = [line for line in output.splitlines() if ": error: " in line]
                self.assertEqual(errors, [
                    "stubs:1:1: error: no such file or directory: no stub paths were given, so understudy loaded the "
                    f"default `stubs` directory of the current directory ({empty.resolve()}); pass stub files or "
                    f"directories instead, e.g. `understudy {command} path/to/stubs`"])
        # A path the user typed keeps the short message: they know what they asked for.
        result = run_cli("check", "stubs", cwd=empty)
        self.assertIn("stubs:1:1: error: no such file or directory\n", result.stdout)

    def test_setting_an_unknown_scenario_names_the_scenarios_or_says_there_are_none(self):
        self.write("none.json", {"stubs": [{"id": "plain", "responses": [{}]}]})
        daemon = self.serve(self.root)
        status, _, body = request(daemon.port, "PUT", "/__admin/scenarios/nope", body=b'{"state":"Started"}')
        self.assertEqual((status, json.loads(body)["error"]), (404, "no scenario named `nope`; there are no scenarios"))
        self.write("auth.json", {"stubs": [{"id": "in", "scenario": "auth", "setState": "In", "responses": [{}]}]})
        status, _, body = request(daemon.port, "POST", "/__admin/reload")
        self.assertEqual(status, 200, body)
        status, _, body = request(daemon.port, "PUT", "/__admin/scenarios/nope", body=b'{"state":"Started"}')
        self.assertEqual((status, json.loads(body)["error"]), (404, "no scenario named `nope`; scenarios: auth"))

if __name__ == "__main__":
    unittest.main()
