"""The pytest plugin (entry point `pytest11`): one daemon per test run, a session per test.

- `understudy_daemon` (session scope): the admin client of the run's one daemon. Under pytest-xdist every
  worker gets the same daemon: the controller hands the workers a state directory; the first worker that
  needs the daemon starts it there (`--detach`, under a file lock) and the others attach to it; the
  controller stops it when the run ends. Set UNDERSTUDY_URL to use a daemon you started yourself.
- `understudy` (function scope): a `Session` of that daemon for this test alone, with the stubs of the
  test's `@pytest.mark.understudy(...)` marker, deleted after the test. A failing test that used it gets
  its session's journal as a table in the report ("understudy journal").
- `--understudy-stubs PATH` (or the ini option `understudy_stubs`): stub files or directories the daemon
  loads, which every session starts with.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Generator, List, Optional

import pytest

from .client import Session, Understudy
from .daemon import Daemon
from .journal import journal_table

_STATE_DIR = pytest.StashKey[Path]()
_OWNS_STATE_DIR = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("understudy", "Understudy stub server")
    group.addoption(
        "--understudy-stubs", action="append", default=None, metavar="PATH",
        help="stub file or directory the shared daemon loads (repeatable); default: the ini option understudy_stubs",
    )
    group.addoption("--understudy-bin", default=None, metavar="PATH", help="the understudy binary (default: bundled)")
    parser.addini("understudy_stubs", "stub files or directories the shared daemon loads", type="paths", default=[])
    parser.addini("understudy_args", "extra `understudy serve` arguments", type="args", default=[])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "understudy(*stubs): stubs (dicts or stub file paths) the test's `understudy` session starts with"
    )
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and "understudy_state_dir" in workerinput:
        config.stash[_STATE_DIR] = Path(workerinput["understudy_state_dir"])
        config.stash[_OWNS_STATE_DIR] = False
    else:
        # The controller (or a run without xdist): owns the directory and the daemon started in it.
        config.stash[_STATE_DIR] = Path(tempfile.mkdtemp(prefix="understudy-pytest-"))
        config.stash[_OWNS_STATE_DIR] = True


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist, on the controller: tells each worker where the run's daemon lives."""
    node.workerinput["understudy_state_dir"] = str(node.config.stash[_STATE_DIR])


def pytest_unconfigure(config: pytest.Config) -> None:
    if not config.stash.get(_OWNS_STATE_DIR, False):
        return
    directory = config.stash[_STATE_DIR]
    if (directory / "pid").exists():
        Daemon.attach(directory).stop()
    shutil.rmtree(directory, ignore_errors=True)


def _shared_daemon(config: pytest.Config) -> Understudy:
    external = os.environ.get("UNDERSTUDY_URL")
    if external:
        return Understudy(external, admin_token=os.environ.get("UNDERSTUDY_ADMIN_TOKEN"))
    directory = config.stash[_STATE_DIR]
    with open(directory / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker starts it; the others wait, then attach
        if (directory / "pid").exists():
            return Daemon.attach(directory)
        stubs: List[Any] = config.getoption("understudy_stubs") or config.getini("understudy_stubs")
        binary: Optional[str] = config.getoption("understudy_bin")
        return Daemon.start(
            stubs, binary=binary, state_dir=directory, detach=True,
            extra_arguments=list(config.getini("understudy_args")),
        )


@pytest.fixture(scope="session")
def understudy_daemon(pytestconfig: pytest.Config) -> Understudy:
    """The admin client of the run's one daemon (shared by every pytest-xdist worker)."""
    return _shared_daemon(pytestconfig)


@pytest.fixture
def understudy(request: pytest.FixtureRequest, understudy_daemon: Understudy) -> Generator[Session, None, None]:
    """A session of the shared daemon for this test alone: its own port (`understudy.url`), stubs,
    sequences, scenarios, clock and journal. Stubs come from `@pytest.mark.understudy(stub, ...)`."""
    stubs: List[Any] = []
    for marker in reversed(list(request.node.iter_markers("understudy"))):
        stubs.extend(marker.args)
        stubs.extend(marker.kwargs.get("stubs", ()))
    session = understudy_daemon.create_session(name=request.node.nodeid, stubs=stubs)
    request.node.stash[_SESSION] = session
    try:
        yield session
    finally:
        session.close()


_SESSION = pytest.StashKey[Session]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    session = item.stash.get(_SESSION, None)
    if session is not None and report.when == "call" and report.failed:
        try:
            table = journal_table(session.requests())
        except Exception as error:  # the report must not fail because the daemon went away
            table = f"  (journal unavailable: {error})"
        report.sections.append(("understudy journal", f"session {session.id} at {session.url}\n{table}"))
