"""What a failing test prints: the assertion's message with the journal as a table (matches marked `▶`),
and the test's session journal as a report section. Runs a small failing suite in a child pytest."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

FAILING_SUITE = '''
import urllib.error, urllib.request
import pytest

@pytest.mark.understudy({"id": "orders", "request": {"method": "POST", "path": "/orders"},
                         "responses": [{"status": 503}, {"status": 201}]})
def test_posts_an_order_once(understudy):
    for _ in range(2):
        try:
            urllib.request.urlopen(urllib.request.Request(understudy.url + "/orders", data=b"{}", method="POST"))
        except urllib.error.HTTPError:
            pass
    try:
        urllib.request.urlopen(understudy.url + "/unknown")
    except urllib.error.HTTPError:
        pass
    understudy.verify({"method": "POST", "path": "/orders"}, times=1)
'''


def _plugin_arguments() -> list:
    """`-p understudy.pytest_plugin` only where the plugin is not installed (a source checkout run)."""
    installed = any(point.name == "understudy" for point in entry_points(group="pytest11"))
    return [] if installed else ["-p", "understudy.pytest_plugin"]


def test_a_failed_verification_prints_the_journal_as_a_table(tmp_path: Path) -> None:
    (tmp_path / "test_failing.py").write_text(textwrap.dedent(FAILING_SUITE))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *_plugin_arguments(), "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "1 failed" in output, output
    # The assertion's own message: what was expected, what was found, the table with the matches marked.
    assert 'expected exactly 1 request(s) matching {"method": "POST", "path": "/orders"}, found 2' in output, output
    header = re.search(r"^E?\s+seq\s+\+ms\s+method\s+path\s+status\s+stub\s+note$", output, re.MULTILINE)
    assert header, output
    rows = re.findall(r"^E?\s+(▶)?\s*(\d+)\s+\d+(?:\.\d)?\s+(\w+)\s+(\S+)\s+(\d+)\s+(\S+)\s*(.*)$", output, re.MULTILINE)
    assert ("▶", "1", "POST", "/orders", "503", "orders", "response #0") in rows, output
    assert ("▶", "2", "POST", "/orders", "201", "orders", "response #1") in rows, output
    assert ("", "3", "GET", "/unknown", "404", "-", "unmatched") in rows, output
    # The session's journal as its own section of the report.
    assert re.search(r"-+ understudy journal -+", output), output
