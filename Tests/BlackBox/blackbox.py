"""Shared helpers for the black-box tests: the built binary, a foreground daemon, and CLI runs."""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "hardening"))

from understudy_daemon import Daemon, binary, request, parse_response, read_until_close  # noqa: E402,F401


def run_cli(*args, timeout=30.0, cwd=None, env=None):
    """Runs `understudy ARGS` with captured output, as a Python harness would; returns CompletedProcess."""
    return subprocess.run([binary(), *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd or ROOT, env=env)
