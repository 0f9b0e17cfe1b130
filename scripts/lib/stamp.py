#!/usr/bin/env python3
"""Stamps `VERSION COMMIT` into a linked understudy binary (Sources/understudy/BuildStamp.swift).

Usage: stamp.py BINARY VERSION COMMIT

The binary holds one 96-byte slot, the marker then NULs; this overwrites the bytes after the marker in
place (the length of the file and every offset stay the same), as Go's `-ldflags -X` sets a string at
link time. Run on a copy: the build's own output stays as SwiftPM linked it.
"""
import sys

MARKER = b"UNDERSTUDY-BUILD-STAMP:"
SLOT = 96


def stamp(path: str, version: str, commit: str) -> None:
    data = bytearray(open(path, "rb").read())
    at = data.find(MARKER)
    if at < 0 or data.find(MARKER, at + 1) >= 0:
        sys.exit(f"stamp.py: {path}: expected exactly one build-stamp slot")
    value = f"{version} {commit}".encode()
    room = SLOT - len(MARKER)
    if len(value) >= room:
        sys.exit(f"stamp.py: '{value.decode()}' is longer than the slot's {room - 1} bytes")
    start = at + len(MARKER)
    if any(data[start : at + SLOT]):
        sys.exit(f"stamp.py: {path} is stamped already")
    data[start : start + len(value)] = value
    open(path, "wb").write(bytes(data))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    stamp(*sys.argv[1:])
