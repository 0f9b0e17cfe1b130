#!/usr/bin/env python3
"""Writes libFuzzer seed corpora: every stub file under stubs/ and the test fixtures, and every JSON
document written as a string literal in the loader tests (the validation-error cases)."""
import hashlib
import pathlib
import re
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Under Tests/; each library module's tests sit in a target of their own.
TEST_FILES = ["UnderstudyStubsTests/StubValidationTests.swift", "UnderstudyCoreTests/StubLoaderTests.swift",
              "UnderstudyJSONTests/JSONParserTests.swift", "UnderstudyCoreTests/AdminAPITests.swift",
              "UnderstudyCoreTests/ExampleStubsTests.swift", "UnderstudyCoreTests/NearMissTests.swift",
              "UnderstudyWireMockTests/WireMockMappingTests.swift"]


def swift_literals(source: str):
    """JSON-looking Swift string literals: multi-line \"\"\" blocks, #"..."# raw strings, "..." strings."""
    for match in re.finditer(r'"""\n(.*?)\n([ \t]*)"""', source, re.S):
        body, indent = match.group(1), match.group(2)
        lines = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in body.split("\n")]
        yield "\n".join(lines)
    for match in re.finditer(r'#"(.*?)"#', source):
        yield match.group(1)
    for match in re.finditer(r'(?<![#\\])"((?:[^"\\\n]|\\.)*)"', source):
        text = match.group(1)
        if text.startswith(("{", "[")):
            yield re.sub(r'\\(["\\\\])', r"\1", text).replace("\\n", "\n")


def write(directory: pathlib.Path, data: bytes):
    name = hashlib.sha1(data).hexdigest()
    (directory / name).write_bytes(data)


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted((ROOT / "stubs").rglob("*.json")) + sorted((ROOT / "Tests").rglob("Fixtures/**/*.json")):
        write(out, path.read_bytes())
        count += 1
    for name in TEST_FILES:
        path = ROOT / "Tests" / name
        if not path.exists():
            sys.exit(f"seed_corpus: {path} is gone; update TEST_FILES")
        for literal in swift_literals(path.read_text()):
            if "\\(" in literal:  # interpolated: not a literal document
                continue
            write(out, literal.encode())
            count += 1
    for path in sorted((ROOT / "scripts" / "hardening" / "regressions" / "loader").glob("*")):
        write(out, path.read_bytes())
        count += 1
    print(f"{count} seeds ({len(list(out.iterdir()))} distinct) in {out}")


if __name__ == "__main__":
    main()
