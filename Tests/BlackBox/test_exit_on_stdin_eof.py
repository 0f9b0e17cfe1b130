"""`understudy serve --exit-on-stdin-eof`: the daemon leaves with the process that holds its stdin pipe."""
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
import urllib.request

from Tests.BlackBox.blackbox import Daemon, binary, run_cli


def wait_for_exit(pid, timeout):
    """Polls (with a deadline) until `pid` is gone; True if it went."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A zombie still answers kill(0); it has exited all the same.
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(")")[-1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.02)
    return False


class ExitOnStdinEOFTests(unittest.TestCase):
    def setUp(self):
        self.stubs = tempfile.mkdtemp(prefix="understudy-stdin-eof-")
        with open(os.path.join(self.stubs, "ping.json"), "w") as file:
            file.write('{"stubs":[{"id":"ping","request":{"path":"/ping"},"responses":[{"body":"pong"}]}]}')

    def start(self, *extra):
        self.daemon = Daemon([self.stubs, "--quiet", *extra], stdin=subprocess.PIPE)
        self.addCleanup(self.daemon.stop)
        return self.daemon.process, self.daemon.url

    def test_closing_stdin_stops_the_daemon_like_sigterm(self):
        process, url = self.start("--exit-on-stdin-eof")
        self.assertEqual(urllib.request.urlopen(url + "/ping", timeout=10).read(), b"pong")
        process.stdin.write(b"anything written is ignored\n")
        process.stdin.flush()
        self.assertEqual(urllib.request.urlopen(url + "/ping", timeout=10).read(), b"pong", "data is not EOF")
        process.stdin.close()
        self.assertEqual(process.wait(timeout=10), 0, "a graceful stop exits 0, as on SIGTERM")
        self.assertEqual(self.daemon.stderr(), "")

    def test_without_the_flag_stdin_eof_changes_nothing(self):
        process, url = self.start()
        process.stdin.close()
        # The daemon must still answer after its stdin is gone (no sleep: a request is the proof).
        for _ in range(3):
            self.assertEqual(urllib.request.urlopen(url + "/ping", timeout=10).read(), b"pong")
        self.assertIsNone(process.poll())
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(timeout=10), 0)

    def test_a_sigkilled_parent_takes_the_daemon_with_it(self):
        # The parent spawns the daemon with a pipe as its stdin, keeps the write end, reports the
        # daemon's pid and port, and then waits to be killed — as a test runner would.
        parent_code = textwrap.dedent(f"""
            import subprocess, sys
            daemon = subprocess.Popen([{binary()!r}, "serve", {self.stubs!r}, "--port", "0", "--quiet",
                                       "--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            line = daemon.stdout.readline().decode().strip()
            print(daemon.pid, line.split()[-1], flush=True)
            sys.stdin.read()
        """)
        parent = subprocess.Popen([sys.executable, "-c", parent_code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.addCleanup(lambda: parent.poll() is None and parent.kill())
        pid_text, url = parent.stdout.readline().decode().split()
        daemon_pid = int(pid_text)
        self.addCleanup(lambda: wait_for_exit(daemon_pid, 0) or os.kill(daemon_pid, signal.SIGKILL))
        self.assertEqual(urllib.request.urlopen(url + "/ping", timeout=10).read(), b"pong")

        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        self.assertTrue(wait_for_exit(daemon_pid, 10), "the daemon outlived its SIGKILLed parent")

    def test_detach_and_the_flag_are_refused_together(self):
        result = run_cli("serve", self.stubs, "--detach", "--exit-on-stdin-eof")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--exit-on-stdin-eof cannot be combined with --detach", result.stderr)

    def test_help_documents_the_flag(self):
        result = run_cli("serve", "--help")
        self.assertIn("--exit-on-stdin-eof", result.stdout)
        self.assertIn("standard input reaches end", " ".join(result.stdout.split()))


if __name__ == "__main__":
    unittest.main()
