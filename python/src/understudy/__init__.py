"""Understudy, the stub HTTP server, for Python tests: the bundled daemon, an admin-API client and a
pytest plugin (one daemon per run, a session per test). See docs/python.md."""

from ._binary import BinaryNotFound, binary_path
from .client import AdminError, Session, Understudy, UnderstudyAssertionError
from .daemon import Daemon, DaemonError
from .journal import journal_table

try:
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("understudy")
except PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "0+unknown"

__all__ = [
    "AdminError",
    "BinaryNotFound",
    "Daemon",
    "DaemonError",
    "Session",
    "Understudy",
    "UnderstudyAssertionError",
    "binary_path",
    "journal_table",
]
