"""UnderstudyTesting's process-wide daemon, seen from outside the Swift test process.

- It dies with its test process, even when the runner is SIGKILLed: the built Swift test binary's
  probe test (Tests/UnderstudyTestingTests/SharedDaemonProbe.swift) starts it, takes a session,
  writes the daemon's pid and waits to be killed. SIGKILL leaves no handler a chance; the daemon
  must notice through its stdin pipe.
- With UNDERSTUDY_URL the suite attaches to a daemon started here instead: every test's session is
  created there and deleted again, and the journal file shows each test's requests with its session.
"""
import json
import os
import pathlib
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from Tests.BlackBox.blackbox import ROOT, Daemon, binary
from Tests.BlackBox.test_exit_on_stdin_eof import wait_for_exit


def test_bundle():
    """The SwiftPM test binary beside the understudy binary, or None."""
    candidate = pathlib.Path(binary()).parent / "UnderstudyPackageTests.xctest"
    return str(candidate) if candidate.exists() else None


@unittest.skipUnless(test_bundle(), "the Swift test binary is not built (swift build --build-tests)")
class KitSharedDaemonTests(unittest.TestCase):
    def test_sigkilled_test_process_takes_the_shared_daemon_and_its_sessions_along(self):
        probe = os.path.join(tempfile.mkdtemp(prefix="understudy-kit-probe-"), "daemon")
        env = dict(os.environ, UNDERSTUDY_KIT_PROBE=probe, UNDERSTUDY_BIN=binary())
        env.pop("UNDERSTUDY_URL", None)
        runner = subprocess.Popen([test_bundle(), "--testing-library", "swift-testing", "--filter", "sharedDaemonProbe"],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: runner.poll() is None and runner.kill())
        deadline = time.monotonic() + 120
        while not os.path.exists(probe):
            self.assertIsNone(runner.poll(), "the probe test ended before writing its file")
            self.assertLess(time.monotonic(), deadline, "the probe never wrote its file")
            time.sleep(0.05)
        pid_text, main_url, session_url = pathlib.Path(probe).read_text().split()
        daemon_pid = int(pid_text)
        self.addCleanup(lambda: wait_for_exit(daemon_pid, 0) or os.kill(daemon_pid, signal.SIGKILL))
        with open(f"/proc/{daemon_pid}/cmdline", "rb") as cmdline:
            arguments = cmdline.read().split(b"\0")
        self.assertIn(b"serve", arguments)
        self.assertIn(b"--exit-on-stdin-eof", arguments)
        for url in (main_url, session_url):
            with urllib.request.urlopen(url + "/__admin/health", timeout=10) as answer:
                self.assertEqual(answer.status, 200)

        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=10)
        self.assertTrue(wait_for_exit(daemon_pid, 10), "the shared daemon outlived its SIGKILLed test process")
        with self.assertRaises(urllib.error.URLError):
            urllib.request.urlopen(session_url + "/__admin/health", timeout=5)

    def test_with_understudy_url_the_suite_runs_its_sessions_on_that_daemon_and_deletes_them(self):
        work = tempfile.mkdtemp(prefix="understudy-kit-attach-")
        journal = os.path.join(work, "journal.jsonl")
        empty = os.path.join(work, "stubs")
        os.mkdir(empty)
        daemon = Daemon([empty, "--quiet", "--journal", journal], os.path.join(work, "stderr.txt"))
        self.addCleanup(daemon.stop)
        url = f"http://127.0.0.1:{daemon.port}"
        env = dict(os.environ, UNDERSTUDY_URL=url, UNDERSTUDY_BIN=binary())
        result = subprocess.run([test_bundle(), "--testing-library", "swift-testing", "--filter", "SessionHarnessTests"],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr[-3000:])
        self.assertIn("Test run with 6 tests", result.stdout + result.stderr)

        with urllib.request.urlopen(url + "/__admin/sessions", timeout=10) as answer:
            self.assertEqual(json.load(answer)["sessions"], [], "every session was deleted when its test ended")
        with urllib.request.urlopen(url + "/__admin/requests", timeout=10) as answer:
            self.assertEqual(json.load(answer)["total"], 0, "nothing reached the main port")
        daemon.stop()
        entries = [json.loads(line) for line in pathlib.Path(journal).read_text().splitlines()]
        sessions = {entry.get("session") for entry in entries}
        self.assertNotIn(None, sessions, "every request went to a session")
        self.assertGreaterEqual(len(sessions), 5, f"one session per test that sent requests: {sessions}")
        for session in sessions:
            seqs = [entry["seq"] for entry in entries if entry["session"] == session]
            self.assertEqual(seqs[0], 1, f"session {session} journal starts at 1")


if __name__ == "__main__":
    unittest.main()
