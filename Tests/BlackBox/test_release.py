"""The release archive (scripts/release): what the binaries load, `--version`, the checksums, and the
daemon unpacked into an otherwise empty root (chroot) with only glibc and the C++ runtime copied in,
serving a stub, writing its journal and stopping cleanly on SIGTERM.

The archive is $UNDERSTUDY_RELEASE_ARCHIVE, else dist/understudy-VERSION-linux-ARCH.tar.gz (scripts/release
writes it there); without one every test is skipped, saying so. The chroot tests need root.
"""

import hashlib
import json
import os
import platform
import re
import shutil
import signal
import ssl
import subprocess
import tarfile
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERSION = (ROOT / "VERSION").read_text().strip()
ARCHIVE = Path(
    os.environ.get("UNDERSTUDY_RELEASE_ARCHIVE")
    or ROOT / "dist" / f"understudy-{VERSION}-linux-{platform.machine()}.tar.gz"
)
SKIP_WHY = f"no release archive at {ARCHIVE}: run scripts/release (or set UNDERSTUDY_RELEASE_ARCHIVE)"
# scripts/test --step release sets it: there the artefacts were just made, so one missing is a failure.
REQUIRED = os.environ.get("UNDERSTUDY_REQUIRE_RELEASE") == "1"

# What a release binary may load: glibc's own libraries, the dynamic loader and the C++ runtime.
ALLOWED = re.compile(
    r"^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libutil\.so\.1"
    r"|libresolv\.so\.2|ld-linux[-a-z0-9_.]*\.so\.\d+|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$"
)

STUB = {
    "stubs": [
        {"id": "hello", "request": {"method": "GET", "path": "/hello"},
         "responses": [{"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "from the archive"}]},
        {"id": "upstream", "request": {"path": "/proxied"}, "responses": [{"proxy": {"to": "http://127.0.0.1:9"}}]},
    ]
}


def ldd(binary):
    """(name, resolved path or None) of every library `ldd` lists for `binary`."""
    out = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        if "=>" in parts:
            target = parts[parts.index("=>") + 1]
            found.append((parts[0], target if target.startswith("/") else None))
        else:
            found.append((parts[0].rsplit("/", 1)[-1], parts[0] if parts[0].startswith("/") else None))
    return found


def unpack(archive, into):
    with tarfile.open(archive) as tar:
        tar.extractall(into)
    (top,) = [path for path in Path(into).iterdir() if path.is_dir()]
    return top


def minimal_root(binaries, root):
    """`root` holding only `binaries` (at /) and, of the libraries ldd resolves for them, glibc's, the
    loader and the C++ runtime (ALLOWED), at their own paths: a binary that needs another fails to start."""
    root.mkdir(parents=True, exist_ok=True)
    for binary in binaries:
        shutil.copy2(binary, root / binary.name)
        for name, path in ldd(binary):
            if path and ALLOWED.match(name):
                target = root / path.lstrip("/")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(os.path.realpath(path), target)
    return root


def serve_in_chroot(test, root, userspec=None, command=None):
    """Runs the daemon under chroot in `root` with a stub at /stubs; returns (process, base URL)."""
    (root / "stubs").mkdir(exist_ok=True)
    (root / "stubs" / "hello.json").write_text(json.dumps(STUB))
    (root / "run").mkdir(exist_ok=True)
    os.chmod(root / "run", 0o777)
    # /proc, as every container runtime mounts it: the Swift runtime finds argv through /proc/self/maps
    # (without it the daemon sees no arguments at all and prints its usage), and the daemon finds
    # understudy-openapi through /proc/self/exe. Nothing is copied into the root for it.
    (root / "proc").mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
    test.addCleanup(subprocess.run, ["umount", "-l", str(root / "proc")], check=False)
    chroot = ["chroot"] + ([f"--userspec={userspec}"] if userspec else []) + [str(root)]
    command = command or ["/understudy", "serve", "/stubs"]
    process = subprocess.Popen(
        chroot + command + ["--port", "0", "--port-file", "/run/port", "--pid-file", "/run/pid", "--journal", "/run/journal.jsonl"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    test.addCleanup(process.stdout.close)
    test.addCleanup(lambda: process.poll() is None and process.kill())
    deadline = time.monotonic() + 30
    while not (root / "run" / "port").exists():  # written atomically once the daemon listens
        if process.poll() is not None:
            test.fail(f"the daemon exited with {process.returncode}: {process.stdout.read().decode(errors='replace')}")
        if time.monotonic() > deadline:
            test.fail("the daemon did not listen within 30 s")
        time.sleep(0.01)
    return process, f"http://127.0.0.1:{(root / 'run' / 'port').read_text().strip()}"


def check_serves_journals_and_stops(test, root, process, url):
    with urllib.request.urlopen(f"{url}/hello", timeout=10) as answer:
        test.assertEqual((answer.status, answer.read()), (200, b"from the archive"))
    # A proxy stub with no libcurl in the root: a 502 naming the package to install, the rest unharmed.
    with test.assertRaises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{url}/proxied", timeout=10)
    test.assertEqual(refused.exception.code, 502)
    lines = (root / "run" / "journal.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in lines]
    test.assertEqual([(entry["seq"], entry["path"], entry["status"]) for entry in entries],
                     [(1, "/hello", 200), (2, "/proxied", 502)])
    test.assertIn("libcurl4", json.dumps(entries[1]["proxied"]))
    with urllib.request.urlopen(f"{url}/hello", timeout=10) as answer:
        test.assertEqual(answer.status, 200)
    process.send_signal(signal.SIGTERM)
    test.assertEqual(process.wait(timeout=15), 0, process.stdout.read().decode(errors="replace"))
    test.assertFalse((root / "run" / "pid").exists(), "the pid file is removed on a clean stop")
    test.assertEqual(len((root / "run" / "journal.jsonl").read_text().splitlines()), 3)


@unittest.skipUnless(ARCHIVE.is_file() or REQUIRED, SKIP_WHY)
class ReleaseArchiveTests(unittest.TestCase):
    def setUp(self):
        self.assertTrue(ARCHIVE.is_file(), SKIP_WHY)
        self.scratch = Path(tempfile.mkdtemp(prefix="understudy-release-"))
        self.addCleanup(shutil.rmtree, self.scratch, ignore_errors=True)
        self.top = unpack(ARCHIVE, self.scratch / "unpacked")

    def test_the_archive_holds_both_binaries_and_its_checksum_is_listed(self):
        self.assertEqual(self.top.name, ARCHIVE.name[: -len(".tar.gz")])
        for name in ("understudy", "understudy-openapi"):
            self.assertTrue(os.access(self.top / name, os.X_OK), name)
        sums = (ARCHIVE.parent / "SHA256SUMS").read_text().splitlines()
        digest = hashlib.sha256(ARCHIVE.read_bytes()).hexdigest()
        self.assertIn(f"{digest}  {ARCHIVE.name}", sums)

    def test_ldd_lists_only_glibc_the_loader_and_the_cxx_runtime(self):
        for name in ("understudy", "understudy-openapi"):
            extra = [lib for lib, _ in ldd(self.top / name) if not ALLOWED.match(lib)]
            self.assertEqual(extra, [], f"{name} needs more than glibc and the C++ runtime")

    def test_version_prints_the_version_and_the_commit(self):
        out = subprocess.run([self.top / "understudy", "--version"], capture_output=True, text=True, timeout=30)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout.strip(), rf"^understudy {re.escape(VERSION)} \(commit [0-9a-f]{{12}}(-dirty)?\)$")

    @unittest.skipUnless(os.geteuid() == 0 or REQUIRED, "chroot needs root")
    def test_in_an_empty_root_it_serves_journals_and_stops_on_sigterm(self):
        root = minimal_root([self.top / "understudy"], self.scratch / "root")
        process, url = serve_in_chroot(self, root)
        check_serves_journals_and_stops(self, root, process, url)

    def test_in_an_empty_root_it_serves_https_with_the_openssl_linked_into_it(self):
        # A build linked against Debian's shared OpenSSL opens libssl with dlopen when HTTPS is first
        # needed (issue 46: no OpenSSL at start-up otherwise); the archive links Debian's static libssl
        # and libcrypto in and the loader finds them there first, so HTTPS works where there is no
        # libssl to open, as in this root.
        root = minimal_root([self.top / "understudy"], self.scratch / "root")
        self.assertEqual([p.name for p in root.rglob("*") if p.name.startswith(("libssl", "libcrypto"))], [])
        process, _ = serve_in_chroot(self, root, command=[
            "/understudy", "serve", "/stubs", "--https", "--https-port-file", "/run/https-port",
            "--tls-ca-file", "/run/ca.pem"])
        deadline = time.monotonic() + 30
        # Both written once the HTTPS listener is up (the CA file after the port file).
        while not ((root / "run" / "https-port").exists() and (root / "run" / "ca.pem").exists()):
            if process.poll() is not None:
                self.fail(f"the daemon exited with {process.returncode}: {process.stdout.read().decode(errors='replace')}")
            if time.monotonic() > deadline:
                self.fail("no HTTPS port within 30 s")
            time.sleep(0.01)
        port = (root / "run" / "https-port").read_text().strip()
        context = ssl.create_default_context(cafile=str(root / "run" / "ca.pem"))
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/hello", timeout=10, context=context) as answer:
            self.assertEqual((answer.status, answer.read()), (200, b"from the archive"))
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(timeout=15), 0, process.stdout.read().decode(errors="replace"))


if __name__ == "__main__":
    unittest.main()
