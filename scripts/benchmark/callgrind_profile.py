"""`scripts/bench --callgrind [N]`: counts the instructions each server spends on N requests.

Instruction counts are reproducible on a noisy shared machine where wall-clock figures are not, so
this is the measure to use while tuning: Ir per request against the C baseline's, and which
functions they go to. Only the load is counted (instrumentation is switched on after start-up and
a warm-up, and off before shutdown); kernel time is not, so syscalls count only their user side.
"""
import os
import re
import subprocess
import sys

from scripts.benchmark import stubgen
from scripts.lib.understudy_daemon import Daemon

WARMUP_REQUESTS = 2000


def profile(session_dir, tools, name, command, path, requests, cpu, load_cpu, warmup=WARMUP_REQUESTS,
            connections=10, prepare=None, ready_port=None, instrument_off=True):
    """Runs `command` under callgrind with instrumentation off, sends `warmup` requests, then counts
    exactly `requests` keep-alive requests of GET `path` over `connections` connections.

    `instrument_off=False` leaves instrumentation on until the server exits: nginx under valgrind 3.19
    ignores SIGTERM once instrumentation has been switched on and off again, and its shutdown costs
    a few thousand instructions, nothing against the load's tens of millions.
    `prepare(server)`, if given, runs before the warm-up and returns the port to load (e.g. a session's
    port); by default the server's own. Returns (callgrind output file, total Ir, non-2xx answers, server).
    """
    out_file = os.path.join(session_dir, f"callgrind.{name}.out")
    if os.path.exists(out_file):
        os.remove(out_file)
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", "--instr-atstart=no"]
    server = Daemon(command=valgrind + command, cpu=cpu, name=name, append_log=True, timeout=300,
                    stderr_path=os.path.join(session_dir, f"callgrind.{name}.log"), ready_port=ready_port)
    pin = ["taskset", "-c", str(load_cpu)] if load_cpu is not None else []
    try:
        port = prepare(server) if prepare else server.port
        load = [*pin, tools["fixed_load"], str(port)]
        if warmup:
            subprocess.run(load + [str(warmup), str(connections), path], check=True, capture_output=True)
        subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], check=True, capture_output=True)
        summary = subprocess.run(load + [str(requests), str(connections), path], check=True, capture_output=True,
                                 text=True).stdout
        if instrument_off:
            subprocess.run(["callgrind_control", "-i", "off", str(server.pid)], check=True, capture_output=True)
    finally:
        server.stop(timeout=120)
    with open(out_file) as handle:
        totals = next(int(line.split()[1]) for line in handle if line.startswith("totals:"))
    non_2xx = int(re.search(r"non2xx=(\d+)", summary).group(1))
    return out_file, totals, non_2xx, server


_LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$")


def _annotate(out_file, inclusive, requests, own_binary=None, lines=25):
    """The top functions as `Ir per request  share  function`. For inclusive costs only the binary's
    own functions are kept (one line each), since libevent's dispatch frames would fill the list."""
    command = ["callgrind_annotate", "--threshold=99", f"--inclusive={'yes' if inclusive else 'no'}", out_file]
    text = subprocess.run(command, capture_output=True, text=True).stdout
    # Swift symbols come out mangled; `swift demangle` makes them readable.
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True)
    text = demangled.stdout if demangled.returncode == 0 else text
    total = None
    rows, seen = [], set()
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        cost, name = int(match.group(1).replace(",", "")), match.group(2)
        if "PROGRAM TOTALS" in name:
            total = cost
            continue
        if inclusive and own_binary and not name.endswith(f"[{own_binary}]"):
            continue
        function = re.sub(r"\s+\[[^\]]*\]$", "", name).split(":", 1)[-1]
        if function in seen:
            continue
        seen.add(function)
        share = f"{100 * cost / total:5.1f}%" if total else ""
        rows.append(f"{cost / requests:>9,.0f}  {share}  {function[:160]}")
        if len(rows) == lines:
            break
    return "Ir/request  share  function\n" + "\n".join(rows)


def allocations(out_file):
    """How many times malloc/calloc/realloc were called, summed over every call site."""
    names, callee, calls = {}, None, 0
    pattern = re.compile(r"^(c?fn)=\((\d+)\)(?: (.*))?$")
    with open(out_file) as handle:
        for line in handle:
            match = pattern.match(line.strip())
            if match:
                kind, ident, name = match.groups()
                if name:
                    names[ident] = name
                if kind == "cfn":
                    callee = names.get(ident)
                continue
            if line.startswith("calls=") and callee in ("malloc", "calloc", "realloc"):
                calls += int(line[6:].split()[0])
    return calls


def run(config, tools, understudy):
    from scripts.benchmark.bench_session import BenchSession

    session = BenchSession(config, tools, understudy)
    requests = config.callgrind_requests
    try:
        stubs = config.callgrind_stubs
        path = {"exact100": stubgen.exact_path(100), "exact10000": stubgen.exact_path(10_000),
                "patterns100": stubgen.pattern_path(100)}[stubs]
        cases = [("baseline", session.baseline_command(0), path)]
        if understudy:
            journal = session.journal_path()
            cases.append(("understudy", session.understudy_command(session.stub_dirs[stubs], 0, journal), path))
        per_request = {}
        for name, command, path in cases:
            print(f"== callgrind: {name}, {requests} requests of GET {path} ({stubs})", file=sys.stderr, flush=True)
            out_file, totals, non_2xx, _ = profile(session.out_dir, tools, name, command, path, requests,
                                                   config.server_cpu, config.load_cpu)
            per_request[name] = totals / requests
            print(f"\n### {name}: {totals:,} instructions for {requests:,} requests = "
                  f"{totals / requests:,.0f} Ir per request{f' ({non_2xx} non-2xx!)' if non_2xx else ''}")
            print(f"{allocations(out_file) / requests:.1f} malloc/calloc/realloc calls per request")
            print(f"(profile: {out_file}; `callgrind_annotate {out_file} | swift demangle --simplified`)")
            if name == "understudy":
                print("\nself cost, top functions:\n```\n" + _annotate(out_file, False, requests) + "\n```")
                print("\ninclusive cost, Understudy's own functions:\n```\n"
                      + _annotate(out_file, True, requests, own_binary=understudy) + "\n```")
        if "understudy" in per_request:
            print(f"\nUnderstudy / baseline instructions per request: "
                  f"{per_request['understudy'] / per_request['baseline']:.2f} ×")
    finally:
        session.close()
    return 0
