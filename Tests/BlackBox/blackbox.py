"""Shared helpers for the black-box tests: the built binary, a foreground daemon, and CLI runs.

The daemon launcher is scripts/lib/understudy_daemon.py, shared with the scripts; `scripts/test` runs
`python3 -m unittest discover -s Tests/BlackBox` from the repository root, which puts the root on the
module path.
"""
import json
import subprocess
import tempfile
import unittest

from scripts.lib.understudy_daemon import (  # noqa: F401
    ROOT, Daemon, DaemonStartError, binary, parse_response, read_until_close, request, stub_directory)


def run_cli(*args, timeout=30.0, cwd=None, env=None):
    """Runs `understudy ARGS` with captured output, as a Python harness would; returns CompletedProcess."""
    return subprocess.run([binary(), *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd or ROOT, env=env)


class StubFileDaemonTestCase(unittest.TestCase):
    """One daemon for the class, serving `STUBS` (a stub file's JSON) with `--quiet` and `DAEMON_ARGS`; the
    journal is cleared before each test, and `journal_entries()` reads it back in the order it was written."""
    STUBS = {"stubs": []}
    DAEMON_ARGS = ()

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix=f"understudy-{cls.__name__}-")
        with open(f"{cls.work.name}/stubs.json", "w") as stubs:
            json.dump(cls.STUBS, stubs)
        cls.daemon = Daemon([f"{cls.work.name}/stubs.json", "--quiet", *map(str, cls.DAEMON_ARGS)],
                            f"{cls.work.name}/stderr.log")

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.work.cleanup()

    def setUp(self):
        status, _, _ = request(self.daemon.port, "DELETE", "/__admin/requests")
        self.assertEqual(status, 200)

    def journal_entries(self):
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests")
        self.assertEqual(status, 200)
        return sorted(json.loads(body)["requests"], key=lambda entry: entry["seq"])
