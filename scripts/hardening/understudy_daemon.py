"""Starts and stops the `understudy serve` daemon for the hardening scripts (loopback only)."""
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary() -> str:
    """UNDERSTUDY_BIN, or the debug binary built (incrementally) under UNDERSTUDY_SCRATCH (default .build)."""
    explicit = os.environ.get("UNDERSTUDY_BIN")
    if explicit:
        return explicit
    scratch = os.environ.get("UNDERSTUDY_SCRATCH", ".build")
    subprocess.run(["swift", "build", "--scratch-path", scratch, "--product", "understudy"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "--scratch-path", scratch, "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "understudy")


class Daemon:
    """`understudy serve ARGS` in the foreground; waits for the readiness line."""

    def __init__(self, args, stderr_path, timeout=20.0):
        self.stderr_path = stderr_path
        self.stderr_file = open(stderr_path, "wb")
        self.process = subprocess.Popen([binary(), "serve", "--host", "127.0.0.1", "--port", "0"] + list(args),
                                        cwd=ROOT, stdout=subprocess.PIPE, stderr=self.stderr_file)
        deadline = time.monotonic() + timeout
        line = b""
        os.set_blocking(self.process.stdout.fileno(), False)
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            chunk = self.process.stdout.read(1) if self.process.poll() is None else None
            if chunk:
                line += chunk
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.01)
        if not line.startswith(b"understudy listening on http://127.0.0.1:"):
            self.stop()
            raise RuntimeError(f"the daemon did not start: {line!r}\n{self.stderr()}")
        # The plain URL comes first; with --https the HTTPS URL follows it.
        urls = line.split()[3:]
        self.port = int(urls[0].rsplit(b":", 1)[1])
        self.https_port = int(urls[1].rsplit(b":", 1)[1]) if len(urls) > 1 else None

    def stderr(self) -> str:
        try:
            return pathlib.Path(self.stderr_path).read_text(errors="replace")
        except OSError:
            return ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def rss_kb(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def fd_count(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self, timeout=15.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr_file.close()
        if self.process.stdout:
            self.process.stdout.close()
        return self.process.returncode


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
