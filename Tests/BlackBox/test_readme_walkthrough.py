"""The README's shell blocks on a fresh checkout: the walkthrough runs exactly as written in a `git clone`
of this repository (so it builds from nothing, as a new user's would), and the `apt-get` line it tells a
fresh machine to run first names the packages the scripts install."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def section_blocks(heading):
    """The ```sh blocks under the README's `## heading`, in order."""
    text = README.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end >= 0 else len(text)]
    return re.findall(r"^```sh\n(.*?)^```$", section, re.S | re.M)


class ReadmeWalkthroughTests(unittest.TestCase):
    def test_the_walkthrough_runs_as_written_in_a_fresh_clone(self):
        (walkthrough,) = section_blocks("Walkthrough")
        with tempfile.TemporaryDirectory(prefix="understudy-walkthrough-") as work:
            clone = pathlib.Path(work) / "understudy"
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
            # A shell as a user's terminal would be, but stopping at the first command that fails.
            env = {k: v for k, v in os.environ.items() if not k.startswith("UNDERSTUDY_")}
            result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", walkthrough], cwd=clone, env=env,
                                    capture_output=True, text=True, timeout=3600)
            self.assertEqual(result.returncode, 0, f"the walkthrough failed:\n{result.stdout}\n{result.stderr}")
            out = result.stdout
            self.assertRegex(out, r"HTTP/1\.1 200 OK[\s\S]*\{\"hello\":\"world\"\}")
            self.assertRegex(out, r"HTTP/1\.1 503 [\s\S]*busy")
            self.assertRegex(out, r"understudy listening on http://127\.0\.0\.1:\d+")
            lines = (clone / "demo" / "journal.jsonl").read_text().splitlines()
            self.assertEqual([json.loads(line)["status"] for line in lines], [200, 503])
            # The admin answer has no final newline: the journal file's first line follows it directly.
            admin, _ = json.JSONDecoder().raw_decode(out[out.index('{"requests"'):])
            self.assertEqual([entry["status"] for entry in admin["requests"]], [200, 503])
            # `understudy stop` waited for the daemon to exit: its pid file is gone.
            self.assertFalse((clone / "demo" / "pid").exists())

    def test_the_apt_get_line_installs_what_the_scripts_install(self):
        (line,) = section_blocks("Two commands")[:1]
        readme_packages = set(re.search(r"apt-get install -y (.*)", line).group(1).split())
        ensure = (ROOT / "scripts" / "lib" / "ensure-deps.sh").read_text()
        script_packages = set(re.search(r"apt-get install -y -qq (libevent-dev [^>]*)>", ensure).group(1).split())
        self.assertEqual(readme_packages, script_packages)
        if shutil.which("dpkg-query"):
            for package in sorted(readme_packages):
                status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
                self.assertIn("install ok installed", status.stdout, f"{package} is not installed")


if __name__ == "__main__":
    unittest.main()
