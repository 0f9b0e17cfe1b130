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

import stubgen
from server_process import ServerProcess

WARMUP_REQUESTS = 2000


def _profile(session_dir, tools, name, command, path, requests, cpu, load_cpu):
    out_file = os.path.join(session_dir, f"callgrind.{name}.out")
    if os.path.exists(out_file):
        os.remove(out_file)
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", "--instr-atstart=no"]
    server = ServerProcess(name, valgrind + command, cpu, os.path.join(session_dir, f"callgrind.{name}.log"),
                           ready_timeout=300)
    pin = ["taskset", "-c", str(load_cpu)] if load_cpu is not None else []
    try:
        load = [*pin, tools["fixed_load"], str(server.port)]
        subprocess.run(load + [str(WARMUP_REQUESTS), "10", path], check=True, capture_output=True)
        subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], check=True, capture_output=True)
        summary = subprocess.run(load + [str(requests), "10", path], check=True, capture_output=True, text=True).stdout
        subprocess.run(["callgrind_control", "-i", "off", str(server.pid)], check=True, capture_output=True)
    finally:
        server.stop(timeout=120)
    with open(out_file) as handle:
        totals = next(int(line.split()[1]) for line in handle if line.startswith("totals:"))
    non_2xx = int(re.search(r"non2xx=(\d+)", summary).group(1))
    return out_file, totals, non_2xx


def _annotate(out_file, inclusive, lines=30):
    command = ["callgrind_annotate", "--threshold=99", f"--inclusive={'yes' if inclusive else 'no'}", out_file]
    text = subprocess.run(command, capture_output=True, text=True).stdout
    # Swift symbols come out mangled; `swift demangle` makes them readable.
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True)
    text = demangled.stdout if demangled.returncode == 0 else text
    body = text.split("file:function", 1)[-1].splitlines()[2:]
    return "\n".join(line[:220] for line in body[:lines])


def run(config, tools, understudy):
    from bench_session import BenchSession

    session = BenchSession(config, tools, understudy)
    requests = config.callgrind_requests
    try:
        cases = [("baseline", session.baseline_command(0), stubgen.exact_path(100))]
        if understudy:
            journal = session.journal_path()
            cases.append(("understudy", session.understudy_command(session.stub_dirs["exact100"], 0, journal),
                          stubgen.exact_path(100)))
        per_request = {}
        for name, command, path in cases:
            print(f"== callgrind: {name}, {requests} requests of GET {path}", file=sys.stderr, flush=True)
            out_file, totals, non_2xx = _profile(session.out_dir, tools, name, command, path, requests,
                                                 config.server_cpu, config.load_cpu)
            per_request[name] = totals / requests
            print(f"\n### {name}: {totals:,} instructions for {requests:,} requests = "
                  f"{totals / requests:,.0f} Ir per request{f' ({non_2xx} non-2xx!)' if non_2xx else ''}")
            print(f"(profile: {out_file}; `callgrind_annotate {out_file} | swift demangle --simplified`)")
            if name == "understudy":
                print("\nself cost, top functions:\n```\n" + _annotate(out_file, inclusive=False) + "\n```")
                print("\ninclusive cost, top functions:\n```\n" + _annotate(out_file, inclusive=True) + "\n```")
        if "understudy" in per_request:
            print(f"\nUnderstudy / baseline instructions per request: "
                  f"{per_request['understudy'] / per_request['baseline']:.2f} ×")
    finally:
        session.close()
    return 0
