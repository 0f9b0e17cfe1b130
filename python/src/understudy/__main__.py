"""`understudy ...` (the console script) and `python -m understudy ...`: the bundled daemon's CLI."""

from __future__ import annotations

import os
import sys

from ._binary import binary_path


def main() -> None:
    """Replaces this process with the bundled binary, arguments and all (signals go straight to it)."""
    binary = str(binary_path())
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
