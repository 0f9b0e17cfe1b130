"""A server under test: started pinned to one core, ready once it prints its listening line."""
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import time

_READY = re.compile(rb"listening on http://127\.0\.0\.1:(\d+)")


class ServerStartError(Exception):
    """The server exited or stayed silent instead of printing its listening line."""

    def __init__(self, name, reason, log_path):
        tail = ""
        if log_path and os.path.exists(log_path):
            with open(log_path, "rb") as handle:
                tail = handle.read()[-2000:].decode(errors="replace")
        super().__init__(f"{name}: {reason}\n--- stderr tail ({log_path}) ---\n{tail}")


class ServerProcess:
    """Runs `command` (a list) under `taskset -c cpu`, waits for `listening on http://127.0.0.1:PORT`."""

    def __init__(self, name, command, cpu, log_path, ready_timeout=180.0, ready_port=None):
        self.name = name
        self.log_path = log_path
        prefix = ["taskset", "-c", str(cpu)] if cpu is not None else []
        self._log = open(log_path, "ab")
        # stdout stays open (and unread) after the readiness line: closing it would hand the
        # server EPIPE on its next write; --quiet keeps it from writing more.
        self.process = subprocess.Popen(prefix + command, stdout=subprocess.PIPE, stderr=self._log,
                                        stdin=subprocess.DEVNULL)
        self.pid = self.process.pid
        # A server that prints no listening line (nginx) is ready once its port accepts.
        self.port = self._await_port(ready_port, ready_timeout) if ready_port else self._await_ready(ready_timeout)

    def _await_port(self, port, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return port
            except OSError:
                time.sleep(0.05)  # polling with a deadline: the server gives no other readiness signal
        code = self.process.poll()
        self.stop()
        reason = f"exited with status {code}" if code is not None else f"port {port} not accepting within {timeout:.0f} s"
        raise ServerStartError(self.name, reason, self.log_path)

    def _await_ready(self, timeout):
        deadline = time.monotonic() + timeout
        seen = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.05)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
                match = _READY.search(seen)
                if match:
                    return int(match.group(1))
            elif self.process.poll() is not None:
                break
        code = self.process.poll()
        self.stop()
        reason = f"exited with status {code}" if code is not None else f"not ready within {timeout:.0f} s"
        raise ServerStartError(self.name, f"{reason}; stdout: {seen[:300]!r}", self.log_path)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def rss_bytes(self):
        """Resident set size from /proc (VmRSS), in bytes."""
        with open(f"/proc/{self.pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError(f"{self.name}: no VmRSS in /proc/{self.pid}/status")

    def get(self, path):
        """One GET over a fresh connection: (status, body bytes)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def get_json(self, path):
        status, body = self.get(path)
        if status != 200:
            raise RuntimeError(f"{self.name}: GET {path} answered {status}: {body[:200]!r}")
        return json.loads(body)

    def stop(self, timeout=10.0):
        """SIGTERM, then SIGKILL after `timeout`; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        if self.process.stdout:
            self.process.stdout.close()
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
