"""Run settings for scripts/bench: full defaults (~10 minutes), --quick ones, and env overrides."""
import argparse
import os
from dataclasses import dataclass, field

SCENARIOS = ["keepalive", "pipelined", "stubs10k", "patterns", "close", "session", "startup", "memory", "soak"]

# name: (full, quick, environment variable, type)
_KNOBS = {
    "duration": (6.0, 2.0, "BENCH_DURATION", float),           # seconds per measured wrk round
    "warmup": (2.0, 0.5, "BENCH_WARMUP", float),               # seconds of unrecorded load per server
    "rounds": (5, 2, "BENCH_ROUNDS", int),                     # A B rounds per throughput scenario
    "starts": (11, 5, "BENCH_STARTS", int),                    # starts per start-up configuration
    "memory_requests": (1_000_000, 200_000, "BENCH_MEMORY_REQUESTS", int),
    "soak_seconds": (30.0, 8.0, "BENCH_SOAK_SECONDS", float),
    "soak_interval": (5.0, 2.0, "BENCH_SOAK_INTERVAL", float),
}


@dataclass
class BenchConfig:
    quick: bool = False
    duration: float = 10.0
    warmup: float = 2.0
    rounds: int = 3
    starts: int = 11
    memory_requests: int = 1_000_000
    soak_seconds: float = 30.0
    soak_interval: float = 5.0
    connections: int = 50
    close_connections: int = 20
    server_cpu: int | None = 0
    load_cpu: int | None = 1
    scratch: str = ".build-bench-release"
    scenarios: list = field(default_factory=lambda: list(SCENARIOS))
    baseline_only: bool = False
    understudy: str | None = None
    skip_build: bool = False
    record: bool = False
    note: str = ""
    callgrind_requests: int = 0
    callgrind_stubs: str = "exact100"
    gate: bool = False
    gate_runs: int = 1
    startup_callgrind: bool = False
    webhooks: bool = False
    replay: bool = False
    scale: bool = False
    floor: bool = False
    compression: bool = False
    command_line: str = ""


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/bench",
        description="Benchmarks Understudy against a plain-C evhttp server, interleaving rounds on the "
                    "same machine, and prints ratios to that baseline.",
        epilog="Durations can also be set with BENCH_DURATION, BENCH_WARMUP, BENCH_ROUNDS, BENCH_STARTS, "
               "BENCH_MEMORY_REQUESTS, BENCH_SOAK_SECONDS, BENCH_SOAK_INTERVAL; cores with "
               "BENCH_SERVER_CPU / BENCH_LOAD_CPU; the build directory with BENCH_SCRATCH.")
    parser.add_argument("--quick", action="store_true", help="short rounds to check the harness (~2 minutes)")
    parser.add_argument("--only", default="", help="comma-separated subset of: " + ",".join(SCENARIOS))
    parser.add_argument("--baseline-only", action="store_true", help="measure the C baseline alone")
    parser.add_argument("--understudy", metavar="BINARY", help="use this understudy binary, do not build")
    parser.add_argument("--skip-build", action="store_true", help="use the binary already in the scratch path")
    parser.add_argument("--record", dest="record", action="store_true", default=None,
                        help="write the results into scripts/benchmark/RESULTS.md (default for full runs)")
    parser.add_argument("--no-record", dest="record", action="store_false")
    parser.add_argument("--note", default="", help="a sentence recorded with the results (e.g. machine load)")
    parser.add_argument("--callgrind-stubs", default="exact100", choices=["exact100", "exact10000", "patterns100"],
                        help="the stub set --callgrind loads (its last stub is the one requested)")
    parser.add_argument("--callgrind", type=int, nargs="?", const=20_000, default=0, metavar="REQUESTS",
                        help="instead of the benchmark, profile the daemon under callgrind for REQUESTS "
                             "requests (default 20000) and print where the instructions go")
    parser.add_argument("--gate", action="store_true",
                        help="the CI gate: instructions per request of each workload under callgrind against "
                             "the budgets in scripts/benchmark/gate-budget.json; exits 1 when one is over")
    parser.add_argument("--gate-runs", type=int, default=1, metavar="N",
                        help="with --gate: repeat the measurement N times and print the spread (budgets are "
                             "checked against the highest count)")
    parser.add_argument("--startup-callgrind", action="store_true",
                        help="instead of the benchmark, count the instructions from exec to the first 200 "
                             "(C hello, 100 and 10 000 stubs) against the `startup` budgets in gate-budget.json")
    parser.add_argument("--webhooks", action="store_true",
                        help="instead of the benchmark, count under callgrind what a webhook costs the request "
                             "that triggers it, against the same stubs without one (at most 10 %% over)")
    parser.add_argument("--floor", action="store_true",
                        help="every figure of issue 46 in one run against its anchor (start-up against a minimal static "
                             "Swift server built here, idle RSS, keep-alive and p99 and HTTPS against nginx, scaling): "
                             "the table RESULTS.md opens with; wants a quiet machine")
    parser.add_argument("--scale", action="store_true",
                        help="costs as stubs (10-10 000), sessions (1-1 000) and idle connections (10 000) grow, "
                             "against the C hello and nginx, and the 100 and 10 000-stub starts (issue 46)")
    parser.add_argument("--replay", action="store_true",
                        help="what an idempotent replay costs against a normal answer, under callgrind (issue 47)")
    parser.add_argument("--compression", action="store_true",
                        help="instead of the benchmark, count under callgrind what a gzip-compressed answer costs "
                             "beside the same 1 KiB body uncompressed")
    for name in _KNOBS:
        parser.add_argument("--" + name.replace("_", "-"), type=_KNOBS[name][3], default=None)
    arguments = parser.parse_args(argv)

    config = BenchConfig(quick=arguments.quick)
    for name, (full, quick, variable, kind) in _KNOBS.items():
        value = getattr(arguments, name)
        if value is None and os.environ.get(variable):
            value = kind(os.environ[variable])
        setattr(config, name, value if value is not None else (quick if arguments.quick else full))
    config.server_cpu = _cpu("BENCH_SERVER_CPU", 0)
    config.load_cpu = _cpu("BENCH_LOAD_CPU", 1)
    if os.cpu_count() and os.cpu_count() < 2:
        config.server_cpu = config.load_cpu = None
    config.scratch = os.environ.get("BENCH_SCRATCH", config.scratch)
    if arguments.only:
        chosen = [s.strip() for s in arguments.only.split(",") if s.strip()]
        unknown = [s for s in chosen if s not in SCENARIOS]
        if unknown:
            parser.error(f"unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")
        config.scenarios = chosen
    config.baseline_only = arguments.baseline_only
    config.understudy = arguments.understudy
    config.skip_build = arguments.skip_build
    # A full run of every scenario is the one worth keeping; partial or quick runs only when asked.
    default_record = not arguments.quick and not arguments.only and not arguments.baseline_only
    config.record = default_record if arguments.record is None else arguments.record
    config.note = arguments.note
    config.callgrind_requests = arguments.callgrind
    config.callgrind_stubs = arguments.callgrind_stubs
    config.gate = arguments.gate
    config.gate_runs = max(1, arguments.gate_runs)
    config.startup_callgrind = arguments.startup_callgrind
    config.webhooks = arguments.webhooks
    config.replay = arguments.replay
    config.scale = arguments.scale
    config.floor = arguments.floor
    config.compression = arguments.compression
    return config


def _cpu(variable, default):
    value = os.environ.get(variable)
    if value is None or value == "":
        return default
    return None if value == "none" else int(value)
