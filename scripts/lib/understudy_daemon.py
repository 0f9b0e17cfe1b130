"""Starts and stops servers for the Python under scripts/ and Tests/ (loopback only): the one daemon
launcher, `Daemon`, and the raw-socket helpers the hardening scripts and black-box tests share.

Import it as `scripts.lib.understudy_daemon` with the repository root as the working directory: the
shell entry points run `python3 -m scripts.hardening.soak`, `python3 -m unittest discover -s
Tests/BlackBox` and so on from there, and `python3 -m` puts the working directory on the module path.
"""
import http.client
import json
import os
import pathlib
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The package's traits reach the compiler in a stable order only with this (scripts/lib/ensure-deps.sh).
os.environ.setdefault("SWIFT_DETERMINISTIC_HASHING", "1")


def binary() -> str:
    """UNDERSTUDY_BIN, or the debug binary built (incrementally) under UNDERSTUDY_SCRATCH (default .build)."""
    explicit = os.environ.get("UNDERSTUDY_BIN")
    if explicit:
        return explicit
    scratch = os.environ.get("UNDERSTUDY_SCRATCH", ".build")
    flags = build_flags()
    subprocess.run(["swift", "build", *flags, "--scratch-path", scratch, "--product", "understudy"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    # `check --openapi`, `generate` and `serve --openapi` run understudy-openapi, which .build has without
    # the OpenAPI trait (scripts/lib/build-flags): the optimised one from .build-serve, through
    # UNDERSTUDY_OPENAPI_BIN, which the daemons started from here inherit.
    if not os.environ.get("UNDERSTUDY_OPENAPI_BIN"):
        companion = subprocess.run([str(ROOT / "scripts/lib/openapi-companion")], cwd=ROOT, check=True,
                                   capture_output=True, text=True).stdout.strip()
        os.environ["UNDERSTUDY_OPENAPI_BIN"] = companion
    out = subprocess.run(["swift", "build", *flags, "--scratch-path", scratch, "--show-bin-path"],
                         cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "understudy")


def build_flags():
    """The `swift build` flags of .build (scripts/lib/build-flags), as every script building there has them."""
    lines = (ROOT / "scripts/lib/build-flags").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


class DaemonStartError(RuntimeError):
    """The server exited, or stayed silent, instead of printing its listening line; carries its stderr."""

    def __init__(self, name, reason, stderr_tail):
        super().__init__(f"{name} did not start: {reason}\n--- stderr ---\n{stderr_tail}")


def get(port, path):
    """One GET to 127.0.0.1:`port` over a fresh connection: (status, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Daemon:
    """A server in the foreground, ready once it prints `... listening on http://127.0.0.1:PORT [https://...]`.

    By default `understudy serve --host 127.0.0.1 --port 0 ARGS` (the binary from `binary()`); `command`
    runs anything else that prints the same line (the benchmark's C server, the daemon under valgrind).
    `cpu` pins it with taskset; `stdin` is DEVNULL unless given (a pipe for --exit-on-stdin-eof); stderr
    goes to `stderr_path` (appended to with `append_log`), or is kept in memory when it is None.
    The one launcher of the Python under scripts/ and Tests/: every harness starts servers through it.
    """

    _READY = re.compile(rb"listening on http://127\.0\.0\.1:(\d+)(?: https://127\.0\.0\.1:(\d+))?")

    def __init__(self, args=(), stderr_path=None, timeout=20.0, *, command=None, cpu=None, stdin=None,
                 name="understudy", append_log=False, cwd=ROOT, ready_port=None):
        self.name = name
        self.stderr_path = stderr_path
        if stderr_path is None:
            self.stderr_file = tempfile.TemporaryFile()
        else:
            self.stderr_file = open(stderr_path, "ab" if append_log else "wb")
        if command is None:
            command = [binary(), "serve", "--host", "127.0.0.1", "--port", "0", *map(str, args)]
        prefix = ["taskset", "-c", str(cpu)] if cpu is not None else []
        # stdout stays open (and unread) after the readiness line: closing it would hand the server
        # EPIPE on its next write.
        self.process = subprocess.Popen(prefix + list(command), cwd=cwd, stdout=subprocess.PIPE,
                                        stderr=self.stderr_file,
                                        stdin=subprocess.DEVNULL if stdin is None else stdin)
        self.pid = self.process.pid
        # A server that prints no listening line (nginx, the benchmark's second anchor) is ready once
        # `ready_port` accepts.
        if ready_port is not None:
            self.port, self.https_port = self._await_port(ready_port, timeout), None
        else:
            self.port, self.https_port = self._await_ready(timeout)

    def _await_port(self, port, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return port
            except OSError:
                time.sleep(0.05)  # polling with a deadline: the server gives no other readiness signal
        code = self.process.poll()
        tail = self.stderr()[-2000:]  # before stop(), which closes the file stderr went to
        self.stop()
        reason = f"exited with status {code}" if code is not None else f"port {port} not accepting within {timeout:.0f} s"
        raise DaemonStartError(self.name, reason, tail)

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
                for line in seen.split(b"\n")[:-1]:  # complete lines only: the HTTPS URL may follow
                    match = self._READY.search(line)
                    if match:
                        return int(match.group(1)), int(match.group(2)) if match.group(2) else None
            elif self.process.poll() is not None:
                break
        code = self.process.poll()
        if code is None and not seen:  # stdout closed: the server is exiting, so wait for its status
            try:
                code = self.process.wait(5)
            except subprocess.TimeoutExpired:
                pass
        tail = self.stderr()[-2000:]  # before stop(), which closes the file stderr went to
        self.stop()
        reason = f"exited with status {code}" if code is not None else f"not ready within {timeout:.0f} s"
        raise DaemonStartError(self.name, f"{reason}; stdout: {seen[:300]!r}", tail)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stderr(self) -> str:
        """What the server wrote to stderr so far."""
        try:
            if self.stderr_path is not None:
                return pathlib.Path(self.stderr_path).read_text(errors="replace")
            self.stderr_file.flush()
            self.stderr_file.seek(0)
            return self.stderr_file.read().decode(errors="replace")
        except (OSError, ValueError):
            return ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def rss_kb(self) -> int:
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise RuntimeError(f"{self.name}: no VmRSS in /proc/{self.pid}/status")

    def rss_bytes(self) -> int:
        return self.rss_kb() * 1024

    def fd_count(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def get(self, path):
        """One GET over a fresh connection: (status, body bytes)."""
        return get(self.port, path)

    def get_json(self, path):
        status, body = self.get(path)
        if status != 200:
            raise RuntimeError(f"{self.name}: GET {path} answered {status}: {body[:200]!r}")
        return json.loads(body)

    def stop(self, timeout=15.0) -> int:
        """SIGTERM, then SIGKILL after `timeout`; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr_file.close()
        for stream in (self.process.stdout, self.process.stdin):
            if stream:
                stream.close()
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def request(port, method, path, body=b"", headers=None, timeout=10.0):
    """One request on a fresh connection; returns (status, headers dict, body) or raises."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    if body or method in ("POST", "PUT"):
        head += f"Content-Length: {len(body)}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)
        data = read_until_close(sock, timeout)
    return parse_response(data)


def read_until_close(sock, timeout):
    sock.settimeout(timeout)
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def parse_response(data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    if not lines[0].startswith(b"HTTP/1."):
        raise ValueError(f"not an HTTP response: {data[:80]!r}")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode()] = value.strip().decode(errors="replace")
    return status, headers, body


def log(message):
    print(message, flush=True, file=sys.stdout)


def stub_directory(work) -> str:
    """A copy of scripts/hardening/stubs with the 1 MiB body file `big.txt` the `big` stub serves."""
    target = pathlib.Path(work) / "stubs"
    target.mkdir(parents=True, exist_ok=True)
    for source in (ROOT / "scripts" / "hardening" / "stubs").glob("*.json"):
        (target / source.name).write_bytes(source.read_bytes())
    (target / "big.txt").write_bytes(b"0123456789abcdef" * 65536)
    return str(target)
