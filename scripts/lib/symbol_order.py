"""Regenerates scripts/lib/symbol-order.txt, the lld `--symbol-ordering-file` of the static release build.

    python3 -m scripts.lib.symbol_order [--binary PATH] [--requests N] [--seeded-runs N] [--out FILE]

Why (issue 46, idle RSS): most of an idle daemon's resident memory was the binary's own code pages,
7.0 MB of an 11 MB .text. A start and the first requests execute a few thousand functions scattered
over the whole of .text, and the kernel maps up to 64 KB of page cache around each faulting page
(fault-around), so every scattered function costs up to 16 resident pages. Laid out together, first,
they share pages and those pages are all that gets touched.

How: the binary (by default .build-serve's, linked with or without the ordering; the functions are the
same) runs the 100 exact-stub set under callgrind, as `scripts/bench --startup-callgrind` does, its
instruction addresses mapped to the binary's symbols with `nm`. Counts are dumped at the first 200 and
again after `--requests` keep-alive requests and a few fresh connections, once with deterministic hashing
and four times seeded per process (other dictionary orders run other functions). Every function of the
binary with instructions in either dump is listed: those of the request path first (busiest first, so
the per-request working set is densest), then those only a start runs. Names are mangled symbol names,
as lld matches them; a name that is not in a later build is ignored (the link passes
--no-warn-symbol-ordering), so a stale file costs locality, never a failed link.
Regenerate after large changes to the start-up or request path.

Not reachable this way: code without a symbol. -function-sections gives LLVM's unnamed private functions
(`.text..L__unnamed_N`, e.g. the forwarding stubs left where functions were merged) sections of their own,
which stay where their object puts them; about 15 of them are touched, each costing its 64 KB window.
"""
import argparse
import bisect
import collections
import glob
import http.client
import os
import re
import subprocess
import sys
import tempfile

from scripts.benchmark import stubgen
from scripts.lib.understudy_daemon import ROOT, Daemon

DEFAULT_OUT = os.path.join(ROOT, "scripts", "lib", "symbol-order.txt")
FIRST_PATH = "/bench/1"
_NAMED = re.compile(r"^\((\d+)\)(?: (.*))?$")


def function_symbols(binary):
    """[(address, size, name)] of the binary's code symbols with a size, sorted, from its symbol table.

    Sizeless symbols are left out: one at the end of a function's section would take the addresses of
    the function laid out after it.
    """
    symbols = []
    listing = subprocess.run(["nm", "-n", "-S", "--defined-only", binary], check=True, capture_output=True, text=True)
    for line in listing.stdout.splitlines():
        fields = line.split(None, 3)
        if len(fields) == 4 and fields[2] in "tTwW" and int(fields[1], 16) > 0:
            symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    return symbols


def self_costs(dump, binary, symbols):
    """{mangled name: self Ir} of the code of `binary` in one callgrind dump.

    The dump has instruction addresses (--dump-instr=yes --dump-line=no; callgrind writes them relative
    to the object, so as `nm` gives them), each mapped to the symbol containing it here: valgrind's own
    names leave some of this binary's functions out (as `0x…`), and a function left out of the list
    costs a scattered 64 KB.
    """
    starts = [address for address, _, _ in symbols]
    costs = collections.Counter()
    in_binary = False
    objects = {}
    address = 0
    after_call = False
    with open(dump) as handle:
        for line in handle:
            if line.startswith("ob="):
                match = _NAMED.match(line[3:].rstrip("\n"))
                if match:
                    key, name = match.groups()
                    if name is not None:
                        objects[key] = name
                    in_binary = os.path.realpath(objects.get(key, "")) == binary
                else:
                    in_binary = os.path.realpath(line[3:].rstrip("\n")) == binary
            elif line.startswith("cob="):  # names an object for later `ob=(N)` lines too
                match = _NAMED.match(line[4:].rstrip("\n"))
                if match and match.group(2) is not None:
                    objects[match.group(1)] = match.group(2)
            elif line.startswith("calls="):
                after_call = True
            elif line[:1] in "0123456789+-*":
                fields = line.split()
                position = fields[0]
                if position.startswith("0x"):
                    address = int(position, 16)
                elif position.startswith("+"):
                    address += int(position[1:], 16 if position[1:].startswith("0x") else 10)
                elif position.startswith("-"):
                    address -= int(position[1:], 16 if position[1:].startswith("0x") else 10)
                elif position != "*":
                    address = int(position)
                if not in_binary:
                    after_call = False
                    continue
                cost = 0 if after_call else (int(fields[1]) if len(fields) > 1 else 0)
                after_call = False
                index = bisect.bisect_right(starts, address) - 1
                if index >= 0 and address < symbols[index][0] + symbols[index][1]:
                    costs[symbols[index][2]] += max(cost, 1)
    return costs


def profile(binary, requests, work, deterministic):
    """(start-up costs, request-path costs) of `binary` serving 100 exact-path stubs.

    `deterministic`: with SWIFT_DETERMINISTIC_HASHING=1, as the bench and the gate run the daemon;
    without it, dictionaries and sets are seeded per process, as a user's daemon is, and iterate and
    collide differently, which runs other functions (value witnesses, resizing): main() takes the
    union of both kinds of run.
    """
    stubs = stubgen.exact_path_stubs(os.path.join(work, "exact100"), 100)
    out = os.path.join(work, "callgrind.order.out")
    for stale in glob.glob(out + "*"):
        os.remove(stale)
    hashing = "SWIFT_DETERMINISTIC_HASHING=1" if deterministic else "-uSWIFT_DETERMINISTIC_HASHING"
    command = ["env", hashing, "valgrind", "--tool=callgrind", "--dump-instr=yes", "--dump-line=no",
               f"--callgrind-out-file={out}",
               binary, "serve", stubs, "--host", "127.0.0.1", "--port", "0", "--quiet",
               "--journal", os.path.join(work, "journal.jsonl")]
    server = Daemon(command=command, name="understudy (symbol order)",
                    stderr_path=os.path.join(work, "callgrind.log"), timeout=600)
    try:
        status, _ = server.get(FIRST_PATH)
        if status != 200:
            raise SystemExit(f"GET {FIRST_PATH} answered {status}")
        subprocess.run(["callgrind_control", "--dump=first-200", str(server.pid)], check=True,
                       capture_output=True, timeout=300)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        for index in range(requests):
            connection.request("GET", f"/bench/{index % 100 + 1}")
            connection.getresponse().read()
        connection.close()
        for _ in range(5):
            server.get("/bench/2")
        server.get("/__admin/health")
        subprocess.run(["callgrind_control", "--dump=requests", str(server.pid)], check=True,
                       capture_output=True, timeout=300)
    finally:
        server.process.kill()
        server.stop()
    dumps = sorted((path for path in glob.glob(out + ".*") if re.search(r"\.\d+$", path)),
                   key=lambda path: int(path.rsplit(".", 1)[1]))
    if len(dumps) < 2:
        raise SystemExit(f"callgrind wrote {len(dumps)} dumps, expected 2")
    real = os.path.realpath(binary)
    symbols = function_symbols(real)
    return self_costs(dumps[0], real, symbols), self_costs(dumps[1], real, symbols)


def ordering(startup, requests):
    """Request-path symbols busiest first, then the start-up-only ones, busiest first."""
    def by_cost(counter):
        return [name for name, _ in sorted(counter.items(), key=lambda item: (-item[1], item[0]))]
    first = by_cost(requests)
    seen = set(first)
    return first + [name for name in by_cost(startup) if name not in seen]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build-serve", "release", "understudy"))
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--seeded-runs", type=int, default=4,
                        help="runs with per-process hash seeds, besides the deterministic one (default 4)")
    args = parser.parse_args(argv)
    startup, requests = collections.Counter(), collections.Counter()
    with tempfile.TemporaryDirectory(prefix="symbol-order-") as work:
        for run in range(1 + args.seeded_runs):
            run_startup, run_requests = profile(args.binary, args.requests, work, deterministic=run == 0)
            startup.update(run_startup)
            requests.update(run_requests)
    names = ordering(startup, requests)
    if not names:
        raise SystemExit(f"no function of {args.binary} found in the profile (is it the static build?)")
    with open(args.out, "w") as handle:
        handle.write("".join(name + "\n" for name in names))
    print(f"{args.out}: {len(names)} symbols ({len(requests)} on the request path, "
          f"{len(names) - len(requests)} at start-up only)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
