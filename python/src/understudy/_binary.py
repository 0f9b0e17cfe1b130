"""Finding the `understudy` binary: the one bundled in the wheel, else $UNDERSTUDY_BIN, else PATH."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

_BUNDLED = Path(__file__).parent / "bin" / "understudy"


class BinaryNotFound(RuntimeError):
    """No understudy binary: neither bundled, nor named by $UNDERSTUDY_BIN, nor on PATH."""


def binary_path() -> Path:
    """The daemon binary to run.

    `$UNDERSTUDY_BIN` wins (a build of your own); then the binary bundled in the platform wheel; then
    `understudy` on `PATH`.
    """
    named = os.environ.get("UNDERSTUDY_BIN")
    if named:
        path = Path(named)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise BinaryNotFound(f"UNDERSTUDY_BIN={named} is not an executable file")
        return path
    if _BUNDLED.is_file():
        return _BUNDLED
    found = shutil.which("understudy")
    if found:
        return Path(found)
    raise BinaryNotFound(
        "no understudy binary: this install has none bundled (a source install?); set UNDERSTUDY_BIN to a "
        "built daemon, or install the platform wheel (pip install understudy on linux x86_64)"
    )
