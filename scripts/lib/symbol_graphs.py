"""Symbol graphs of the package's modules from the debug build already in .build, without building.

`swift package dump-symbol-graph` and swift-docc-plugin's `generate-documentation` build the package
first, and in SwiftPM 6.3 they do so with every trait on whatever `--traits` says: against .build, which
scripts/lib/build-flags builds without the OpenAPI trait, that recompiled every module of the package
and OpenAPIKit (about 300 s of a CI run, and the next `swift build` recompiled them back). This runs
what they run after their build, `swift symbolgraph-extract`, on the modules .build has, with each
module's search paths and Clang module maps read from the build's own manifest (.build/debug.yaml).

Usage: python3 scripts/lib/symbol_graphs.py OUTPUT-DIR MODULE...
Writes OUTPUT-DIR/MODULE/MODULE.symbols.json (and MODULE@Other.symbols.json for extensions), public
symbols, synthesized members skipped (as dump-symbol-graph --skip-synthesized-members).
"""
import concurrent.futures
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The compiler arguments symbolgraph-extract takes as the compile did: where modules and module maps are.
PAIRED = {"-target", "-sdk", "-I", "-F", "-Xcc", "-module-cache-path", "-resource-dir", "-swift-version"}


def compile_arguments(manifest, module):
    """The swiftc arguments of MODULE's compile command in the llbuild manifest, or None."""
    key = f'"C.{module}-x86_64-unknown-linux-gnu-debug.module":'
    start = manifest.find(key)
    if start < 0:
        key = key.replace("x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu")
        start = manifest.find(key)
    if start < 0:
        return None
    line = manifest.index("args:", start)
    return json.loads(manifest[line + len("args:"):manifest.index("\n", line)].strip())


def extract_arguments(arguments):
    kept, index = [], 0
    while index < len(arguments):
        argument = arguments[index]
        if argument in PAIRED and index + 1 < len(arguments):
            kept += [argument, arguments[index + 1]]
            index += 2
            continue
        if argument.startswith(("-I", "-F")) and len(argument) > 2:
            kept.append(argument)
        index += 1
    return kept


def extract(manifest, module, output):
    arguments = compile_arguments(manifest, module)
    if arguments is None:
        return f"{module}: not in .build/debug.yaml (build the package first: scripts/test --step build)"
    directory = output / module
    directory.mkdir(parents=True, exist_ok=True)
    command = ["swift-symbolgraph-extract", "-module-name", module, *extract_arguments(arguments),
               "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", str(directory)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        return f"{module}: swift-symbolgraph-extract failed ({result.returncode}):\n{result.stderr[-3000:]}"
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    output = pathlib.Path(sys.argv[1]).resolve()
    manifest = (ROOT / ".build" / "debug.yaml").read_text()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for f in pool.map(lambda m: extract(manifest, m, output), sys.argv[2:]) if f]
    for failure in failures:
        print(f"symbol_graphs: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
