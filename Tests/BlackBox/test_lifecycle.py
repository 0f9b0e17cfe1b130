"""Daemon lifecycle from a Python harness (issue 9): `serve --detach` under `capture_output=True`
and inside a shell's `$(...)`, the log file, `stop` against a zombie and after a client has left a
delayed answer, and the journal entries those leave."""
import json
import os
import pathlib
import select
import signal
import stat
import subprocess
import tempfile
import time
import unittest
import urllib.request

from Tests.BlackBox.blackbox import ROOT, Daemon, binary, run_cli

STUBS = {
    "stubs": [
        {"id": "hello", "request": {"path": "/hello"}, "responses": [{"status": 200, "body": "hi\n"}]},
        {"id": "late", "request": {"path": "/late"}, "responses": [{"status": 200, "delayMs": 20000, "body": "late"}]},
        {"id": "reset", "request": {"path": "/reset"}, "responses": [{"status": 500, "fault": "connection-reset"}]},
    ]
}


def wait_until(condition, timeout=10.0):
    """Polls `condition` until it is true or `timeout` seconds pass; returns its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    return condition()


class LifecycleTests(unittest.TestCase):
    def setUp(self):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="understudy-lifecycle-"))
        self.stubs = self.work / "stubs.json"
        self.stubs.write_text(json.dumps(STUBS))
        self.pid_files = []

    def tearDown(self):
        for pid_file in self.pid_files:  # never leave a daemon behind a failed test
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except (OSError, ValueError):
                pass

    def detach(self, *extra, timeout=20):
        pid_file, port_file = self.work / f"pid{len(self.pid_files)}", self.work / f"port{len(self.pid_files)}"
        self.pid_files.append(pid_file)
        started = time.monotonic()
        result = subprocess.run([binary(), "serve", str(self.stubs), "--detach", "--pid-file", str(pid_file),
                                 "--port-file", str(port_file), *extra],
                                capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        return result, pid_file, port_file, time.monotonic() - started

    def test_detach_returns_under_capture_output(self):
        result, pid_file, port_file, seconds = self.detach()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, r"^understudy listening on http://127\.0\.0\.1:\d+\n$")
        self.assertEqual(result.stderr, "")
        port = int(port_file.read_text())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/hello", timeout=10) as response:
            self.assertEqual(response.read(), b"hi\n")
        self.assertEqual(run_cli("stop", "--pid-file", pid_file).returncode, 0)

    def test_a_port_file_that_is_a_fifo_is_written_in_place_and_left_there(self):
        # A harness may hand the daemon a FIFO (or /dev/stdout) to read the port from: it gets the port
        # written into it, and neither the start (a rename onto it) nor the stop (unlink) replaces it.
        fifo = self.work / "port.fifo"
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            with Daemon([self.stubs, "--port-file", fifo]) as daemon:
                ready, _, _ = select.select([reader], [], [], 10)
                self.assertEqual(ready, [reader], "the port reached the FIFO")
                self.assertEqual(os.read(reader, 64), f"{daemon.port}\n".encode())
                self.assertEqual(daemon.stop(), 0, daemon.stderr())
        finally:
            os.close(reader)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO is still a FIFO")

    def test_detach_returns_inside_command_substitution(self):
        pid_file = self.work / "pid-shell"
        self.pid_files.append(pid_file)
        script = f'out=$("$0" serve "$1" --detach --pid-file "$2" 2>&1); status=$?; printf "%s\\n" "$out"; exit $status'
        result = subprocess.run(["bash", "-c", script, binary(), str(self.stubs), str(pid_file)],
                                capture_output=True, text=True, timeout=20)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(result.stdout.startswith("understudy listening on http://127.0.0.1:"), result.stdout)
        self.assertEqual(run_cli("stop", "--pid-file", pid_file).returncode, 0)

    def test_detached_daemon_keeps_no_inherited_descriptor(self):
        # A descriptor the caller passes down (not stdin/stdout/stderr) must be let go as well:
        # the read end sees EOF once our own write end is closed.
        read_end, write_end = os.pipe()
        pid_file = self.work / "pid-fds"
        self.pid_files.append(pid_file)
        try:
            result = subprocess.run([binary(), "serve", str(self.stubs), "--detach", "--pid-file", str(pid_file)],
                                    capture_output=True, timeout=20, pass_fds=(write_end,))
            self.assertEqual(result.returncode, 0, result.stderr)
            os.close(write_end)
            write_end = None
            ready, _, _ = select.select([read_end], [], [], 10)
            self.assertEqual(ready, [read_end], "the inherited pipe reached EOF")
            self.assertEqual(os.read(read_end, 1), b"")
            pid = int(pid_file.read_text())
            for fd in (0, 1, 2):
                self.assertEqual(os.readlink(f"/proc/{pid}/fd/{fd}"), "/dev/null")
        finally:
            os.close(read_end)
            if write_end is not None:
                os.close(write_end)
        self.assertEqual(run_cli("stop", "--pid-file", pid_file).returncode, 0)

    def test_log_file_gets_the_access_log_and_quiet_silences_it(self):
        for quiet in (False, True):
            log = self.work / f"log-{quiet}"
            result, pid_file, port_file, _ = self.detach("--log-file", log, *(["--quiet"] if quiet else []))
            self.assertEqual(result.returncode, 0, result.stderr)
            port = int(port_file.read_text())
            urllib.request.urlopen(f"http://127.0.0.1:{port}/hello", timeout=10).read()
            self.assertEqual(run_cli("stop", "--pid-file", pid_file).returncode, 0)
            text = log.read_text()
            if quiet:
                self.assertEqual(text, "")
            else:
                self.assertIn("GET /hello 200 hello ", text)

    def test_stop_treats_a_zombie_as_gone(self):
        pid_file = self.work / "pid-zombie"
        self.pid_files.append(pid_file)
        # Our child, never waited for until the end: once it exits it stays a zombie.
        launched = Daemon([self.stubs, "--quiet", "--pid-file", pid_file])
        daemon = launched.process
        try:
            self.assertTrue(pid_file.exists(), "the daemon wrote its pid file before its readiness line")
            started = time.monotonic()
            stopped = run_cli("stop", "--pid-file", pid_file, "--timeout", "5")
            seconds = time.monotonic() - started
            self.assertEqual(stopped.returncode, 0, stopped.stderr)
            self.assertLess(seconds, 2.5, "a zombie has exited: no need to wait out --timeout")
            stat = pathlib.Path(f"/proc/{daemon.pid}/stat")
            state = wait_until(lambda: stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")
            self.assertTrue(state, "the daemon is an unreaped zombie, the case under test")
        finally:
            daemon.kill()
            launched.stop()

    def test_stop_is_prompt_after_the_client_of_a_delayed_answer_left(self):
        journal = self.work / "journal.jsonl"
        result, pid_file, port_file, _ = self.detach("--quiet", "--journal", journal)
        self.assertEqual(result.returncode, 0, result.stderr)
        port = int(port_file.read_text())
        with self.assertRaises(OSError):  # socket.timeout is an OSError
            urllib.request.urlopen(f"http://127.0.0.1:{port}/late", timeout=0.5)
        self.assertTrue(wait_until(lambda: "client-gone" in journal.read_text() if journal.exists() else False))
        started = time.monotonic()
        self.assertEqual(run_cli("stop", "--pid-file", pid_file).returncode, 0)
        self.assertLess(time.monotonic() - started, 2.5, "no answer is left to wait for (the delay is 20 s)")
        entries = [json.loads(line) for line in journal.read_text().splitlines()]
        self.assertEqual(len(entries), 1)
        self.assertEqual(entries[0]["outcome"], "client-gone")
        self.assertIsNone(entries[0]["status"])
        self.assertIsNone(entries[0]["response"])

    def test_journal_records_faults_without_a_status_and_answers_with_their_response(self):
        journal = self.work / "journal.jsonl"
        result, pid_file, port_file, _ = self.detach("--quiet", "--journal", journal)
        self.assertEqual(result.returncode, 0, result.stderr)
        port = int(port_file.read_text())
        with self.assertRaises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/reset", timeout=10)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/hello", timeout=10) as response:
            received = dict(response.getheaders())
            body = response.read()
        self.assertEqual(run_cli("stop", "--pid-file", pid_file).returncode, 0)
        entries = [json.loads(line) for line in journal.read_text().splitlines()]
        self.assertEqual([entry["path"] for entry in entries], ["/reset", "/hello"])
        reset, hello = entries
        self.assertIsNone(reset["status"])
        self.assertEqual((reset["fault"], reset["outcome"]), ("connection-reset", "fault"))
        self.assertEqual(hello["status"], 200)
        self.assertEqual(hello["response"]["body"], body.decode())
        self.assertEqual(hello["response"]["bodySize"], len(body))
        self.assertEqual({name.lower(): [value] for name, value in received.items()}, hello["response"]["headers"])


if __name__ == "__main__":
    unittest.main()
