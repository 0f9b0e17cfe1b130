"""Shared helpers for the black-box tests: the built binary, a foreground daemon, and CLI runs.

The daemon launcher is scripts/lib/understudy_daemon.py, shared with the scripts; `scripts/test` runs
`python3 -m unittest discover -s Tests/BlackBox` from the repository root, which puts the root on the
module path.
"""
import subprocess

from scripts.lib.understudy_daemon import (  # noqa: F401
    ROOT, Daemon, DaemonStartError, binary, parse_response, read_until_close, request, stub_directory)


def run_cli(*args, timeout=30.0, cwd=None, env=None):
    """Runs `understudy ARGS` with captured output, as a Python harness would; returns CompletedProcess."""
    return subprocess.run([binary(), *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd or ROOT, env=env)
