#!/usr/bin/env python3
"""The Python package as a user gets it: builds the platform wheel from the release archive, installs it
with pytest and pytest-xdist into a fresh virtual environment, and runs the example suite (python/tests)
with `pytest -n 2`, with no Swift on PATH and no UNDERSTUDY_BIN, so the bundled binary is what runs.

Usage: python3 scripts/lib/python_suite.py [WHEEL-DIR]   (scripts/test --step release runs it)

Prints the wheel's size and the time from the start of `pip install` to the first passing test.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main():
    wheels = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist"
    wheels.mkdir(parents=True, exist_ok=True)
    for old in wheels.glob("understudy-*.whl"):
        old.unlink()
    # The package's own backend (python/build_backend): nothing to download to build it.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT / "python")],
                   check=True)
    (wheel,) = wheels.glob("understudy-*.whl")
    if not re.search(r"-py3-none-manylinux_2_\d+_(x86_64|aarch64)\.whl$", wheel.name):
        sys.exit(f"python_suite: {wheel.name} is not a platform wheel")
    print(f"python_suite: {wheel.name}: {wheel.stat().st_size} bytes")

    with tempfile.TemporaryDirectory(prefix="understudy-venv-") as work:
        venv = Path(work) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        # A user's shell: the venv first, the system's directories, no Swift toolchain, no UNDERSTUDY_*.
        path = os.pathsep.join([str(venv / "bin"), "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"])
        env = {key: value for key, value in os.environ.items() if not key.startswith(("UNDERSTUDY_", "PYTHON", "VIRTUAL_ENV"))}
        env["PATH"] = path
        if shutil.which("swift", path=path):
            sys.exit(f"python_suite: swift is on the test's PATH ({shutil.which('swift', path=path)})")
        started = time.monotonic()
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(wheel),
                        "pytest", "pytest-xdist"], check=True, env=env)
        installed = time.monotonic()
        where = subprocess.run([str(venv / "bin" / "python"), "-c", "import understudy; print(understudy.binary_path())"],
                               env=env, capture_output=True, text=True, check=True).stdout.strip()
        if not where.startswith(str(venv)):
            sys.exit(f"python_suite: the package runs {where}, not the binary bundled in the wheel")
        version = subprocess.run([str(venv / "bin" / "understudy"), "--version"], env=env, capture_output=True,
                                 text=True, check=True).stdout.strip()
        print(f"python_suite: `understudy --version` in the venv: {version}")
        # A copy of the suite outside the repository: nothing of python/src can shadow the installed package.
        suite = Path(work) / "tests"
        shutil.copytree(ROOT / "python" / "tests", suite, ignore=shutil.ignore_patterns("__pycache__"))
        process = subprocess.Popen([str(venv / "bin" / "pytest"), "-n", "2", "-v", "-p", "no:cacheprovider"], cwd=suite,
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        first_pass = None
        assert process.stdout is not None
        for line in process.stdout:
            sys.stdout.write(line)
            if first_pass is None and " PASSED " in f" {line} ":
                first_pass = time.monotonic()
        status = process.wait()
    if first_pass is not None:
        print(f"python_suite: pip install {installed - started:.1f} s; from the start of pip install to the first "
              f"passing test {first_pass - started:.1f} s")
    sys.exit(status)


if __name__ == "__main__":
    main()
