"""The shell blocks of README.md and docs/ on a fresh checkout: a `git clone` of this repository (so the
build starts from nothing, as a new user's does) runs the README's walkthrough exactly as written, then
every ```sh block of each docs/ page, in order, in one shell per page. The README's `apt-get` line (it
needs root) is checked against the packages the scripts install instead of being run.

Blocks that run the repository's scripts run in this checkout (in CI, a fresh clone too), where their
builds are the ones the developer already has: `scripts/serve` until it serves the example stubs, then
stopped; `scripts/test --filter X` as written. A bare `scripts/test` runs this very test, so it is not
run here: `.ci/run` runs it, and a test below holds CI to that.

Two modes. With UNDERSTUDY_WALKTHROUGH_SEED set to a directory of built binaries (scripts/test sets it
to links to this checkout's `understudy` and the optimised `understudy-openapi` beside it), the clone's
`swift build` commands are answered from that directory instead of compiling: `swift build
--show-bin-path` prints it, and
`swift build [--traits …] --product P` checks that P is there (any other `swift` command runs the real
one). Everything else in the blocks runs as written. A copied build directory cannot stand in (SwiftPM
keys every compile on absolute source paths, so a clone recompiles everything), and the compiling is
proven elsewhere: CI's own checkout is a fresh clone whose build is a superset of the README's, and the
only code that differs with the traits (`#if OpenAPI`, `#if AsyncHTTPClient`) lives in modules the
daemon does not link (scripts/check-layers holds that). Without the variable (or with
UNDERSTUDY_WALKTHROUGH_FROM_NOTHING=1) the clone builds from nothing with the default traits, exactly as
a new user's does: docs/development.md, "How CI is built"."""
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest

from scripts.lib.understudy_daemon import Daemon, get

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# Blocks that run the repository's scripts: not run in the clone (see above).
RUNS_SCRIPTS = re.compile(r"^scripts/(test|serve)\b", re.M)


def sh_blocks(path):
    return re.findall(r"^```sh\n(.*?)^```$", path.read_text(), re.S | re.M)


def section_blocks(heading):
    """The ```sh blocks under the README's `## heading`, in order."""
    text = README.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end >= 0 else len(text)]
    return re.findall(r"^```sh\n(.*?)^```$", section, re.S | re.M)


# The seeded mode's answer to `swift build` (see the module's docstring): a shell function, so that the
# blocks' own text runs unchanged.
SEED = None if os.environ.get("UNDERSTUDY_WALKTHROUGH_FROM_NOTHING") else os.environ.get("UNDERSTUDY_WALKTHROUGH_SEED")
SEEDED_SWIFT = r"""
swift() {
    if [ "${1:-}" != build ]; then command swift "$@"; return; fi
    local product="" arg
    for arg in "$@"; do
        case $arg in --show-bin-path) echo "$UNDERSTUDY_SEED_BIN"; return 0 ;; esac
    done
    while [ $# -gt 0 ]; do
        case $1 in --product) product=$2; shift ;; esac
        shift
    done
    if [ -z "$product" ] || [ ! -x "$UNDERSTUDY_SEED_BIN/$product" ]; then
        echo "walkthrough (seeded): no built '$product' in $UNDERSTUDY_SEED_BIN" >&2
        return 1
    fi
    echo "walkthrough (seeded): $product from $UNDERSTUDY_SEED_BIN"
}
"""


def bash(script, cwd, env, timeout):
    # A shell as a user's terminal would be, but stopping at the first command that fails.
    if SEED:
        script = SEEDED_SWIFT + script
        env = dict(env, UNDERSTUDY_SEED_BIN=SEED)
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def swift_bin_path(cwd, env):
    if SEED:
        return SEED
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


class FreshCheckoutShellBlockTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix="understudy-walkthrough-")
        cls.clone = pathlib.Path(cls.work.name) / "understudy"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(cls.clone)], check=True)
        cls.env = {k: v for k, v in os.environ.items() if not k.startswith("UNDERSTUDY_")}
        (walkthrough,) = section_blocks("Walkthrough")
        cls.walkthrough = bash(walkthrough, cls.clone, cls.env, timeout=3600)

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def test_the_walkthrough_runs_as_written_in_a_fresh_clone(self):
        result = self.walkthrough
        self.assertEqual(result.returncode, 0, f"the walkthrough failed:\n{result.stdout}\n{result.stderr}")
        out = result.stdout
        if SEED:
            # The seeded mode answered the README's build; nothing compiled in the clone.
            self.assertIn(f"walkthrough (seeded): understudy from {SEED}", out)
            self.assertFalse((self.clone / ".build").exists())
        self.assertRegex(out, r"HTTP/1\.1 200 OK[\s\S]*\{\"hello\":\"world\"\}")
        self.assertRegex(out, r"HTTP/1\.1 503 [\s\S]*busy")
        self.assertRegex(out, r"understudy listening on http://127\.0\.0\.1:\d+")
        lines = (self.clone / "demo" / "journal.jsonl").read_text().splitlines()
        self.assertEqual([json.loads(line)["status"] for line in lines], [200, 503])
        # The admin answer has no final newline: the journal file's first line follows it directly.
        admin, _ = json.JSONDecoder().raw_decode(out[out.index('{"requests"'):])
        self.assertEqual([entry["status"] for entry in admin["requests"]], [200, 503])
        # `understudy stop` waited for the daemon to exit: its pid file is gone.
        self.assertFalse((self.clone / "demo" / "pid").exists())

    def test_every_docs_page_s_shell_blocks_run_in_the_clone(self):
        self.assertEqual(self.walkthrough.returncode, 0, "needs the walkthrough's build")
        bin_path = swift_bin_path(self.clone, self.env)
        env = dict(self.env, PATH=f"{bin_path}:{self.env['PATH']}")
        ran = 0
        for page in sorted((ROOT / "docs").glob("*.md")):
            blocks = [block for block in sh_blocks(page) if not RUNS_SCRIPTS.search(block)]
            if not blocks:
                continue
            with self.subTest(page=page.name):
                # Whatever fails, stop the daemons the page started (each writes a pid file).
                cleanup = "trap 'for f in *.pid; do [ -e \"$f\" ] && understudy stop --pid-file \"$f\"; done' EXIT\n"
                # docs/openapi.md's first block builds understudy-openapi (OpenAPIKit, Yams): minutes
                # on a fresh clone, which the walkthrough's `--product understudy` did not build.
                result = bash(cleanup + "\n".join(blocks), self.clone, env, timeout=1800)
                self.assertEqual(result.returncode, 0,
                                 f"docs/{page.name}'s shell blocks failed:\n{result.stdout[-3000:]}\n{result.stderr}")
                ran += len(blocks)
        self.assertGreaterEqual(ran, 5)

    def test_the_apt_get_line_installs_what_the_scripts_install(self):
        line = section_blocks("Two commands")[0]
        readme_packages = set(re.search(r"apt-get install -y (.*)", line).group(1).split())
        ensure = (ROOT / "scripts" / "lib" / "ensure-deps.sh").read_text()
        script_packages = set(re.search(r"apt-get install -y -qq (libevent-dev [^>]*)>", ensure).group(1).split())
        self.assertEqual(readme_packages, script_packages)
        if shutil.which("dpkg-query"):
            for package in sorted(readme_packages):
                status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
                self.assertIn("install ok installed", status.stdout, f"{package} is not installed")


def script_commands():
    """Every command of the blocks that run scripts, as written (comments dropped)."""
    for path in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for block in sh_blocks(path):
            if RUNS_SCRIPTS.search(block):
                for line in block.splitlines():
                    if shlex.split(line, comments=True):
                        yield line.split("#")[0].strip()


class ScriptBlockTests(unittest.TestCase):
    """The blocks that run the repository's scripts, in this checkout (no clone, no walkthrough build)."""

    # The modules whose code changes with the package's traits: the daemon links none of them, so the
    # daemon built with every trait (CI's build, the seeded walkthrough's) is the daemon a new user's
    # `swift build --product understudy` (no traits) compiles.
    TRAIT_MODULES = {"RESTNetworkingAsyncHTTPClient", "UnderstudyTestingAsyncHTTPClient", "UnderstudyOpenAPI"}

    def test_trait_conditions_live_only_in_modules_the_daemon_does_not_link(self):
        condition = re.compile(r"^\s*#(?:if|elseif)\b.*\b(?:OpenAPI|AsyncHTTPClient)\b", re.M)
        found = {path.relative_to(ROOT / "Sources").parts[0] for path in (ROOT / "Sources").rglob("*.swift")
                 if condition.search(path.read_text())}
        self.assertTrue(found, "no trait condition found: the pattern is stale")
        self.assertLessEqual(found, self.TRAIT_MODULES)
        manifest = (ROOT / "Package.swift").read_text()
        daemon = re.search(r'\.executableTarget\(\s*name: "understudy",(.*?)\n        \),', manifest, re.S)
        self.assertIsNotNone(daemon, "the daemon's target is not where this test reads it")
        for module in self.TRAIT_MODULES:
            self.assertNotIn(f'"{module}"', daemon.group(1))

    def test_blocks_that_run_scripts_hold_only_the_commands_run_below(self):
        commands = list(script_commands())
        for command in commands:
            self.assertRegex(command, r"^scripts/serve$|^scripts/test$|^scripts/test --filter \w+$",
                             "a new command in a block that runs scripts: run it in a test here")
        self.assertIn("scripts/serve", commands)
        self.assertIn("scripts/test", commands)

    def test_scripts_test_is_what_ci_runs(self):
        # `.ci/run` runs it as one of its timed steps: `step NAME scripts/test`.
        ci = [line.split("#")[0].strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
        self.assertTrue([line for line in ci if re.fullmatch(r"(step [\w-]+ )?scripts/test", line)], ci)

    def test_scripts_serve_serves_the_example_stubs_until_stopped(self):
        (command,) = [command for command in script_commands() if command.startswith("scripts/serve")]
        # A release build of its own on first use (.build-serve): minutes on a fresh clone.
        with Daemon(command=shlex.split(command), cwd=ROOT, timeout=3600, name=command) as served:
            # stubs/respond-then-respond.json: a 429 with Retry-After, then the posts.
            status, body = get(served.port, "/examples/retry-after")
            self.assertEqual((status, json.loads(body)), (429, {"error": "slow down"}))
            status, body = get(served.port, "/examples/retry-after")
            self.assertEqual(status, 200)
            self.assertEqual([post["title"] for post in json.loads(body)], ["hello", "world"])
            self.assertEqual(served.stop(), 0, served.stderr()[-2000:])

    def test_scripts_test_filter_runs_what_it_names(self):
        commands = [command for command in script_commands() if command.startswith("scripts/test --filter")]
        self.assertTrue(commands)
        env = {k: v for k, v in os.environ.items() if not k.startswith("UNDERSTUDY_")}
        for command in commands:
            with self.subTest(command=command):
                result = subprocess.run(shlex.split(command), cwd=ROOT, env=env, capture_output=True, text=True,
                                        timeout=3600)
                out = result.stdout + result.stderr
                self.assertEqual(result.returncode, 0, out[-3000:])
                # A filter that matched nothing would pass too: it must have run tests, all passing.
                self.assertRegex(out, r"Executed [1-9]\d* tests?, with 0 failures")


if __name__ == "__main__":
    unittest.main()
