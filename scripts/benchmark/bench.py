"""scripts/bench's driver: builds, runs the selected scenarios, prints and optionally records the table.
Run through scripts/bench, which installs what is missing first."""
import datetime
import json
import os
import shlex
import subprocess
import sys
import traceback

from scripts.benchmark import bench_config
from scripts.benchmark import report
from scripts.benchmark import scenarios
from scripts.benchmark import stubgen
from scripts.benchmark import toolchain
from scripts.benchmark.bench_session import BenchSession, ScenarioError
from scripts.lib.understudy_daemon import DaemonStartError

RESULTS_FILE = os.path.join(toolchain.HERE, "RESULTS.md")


def run_scenario(session, name):
    config = session.config
    if name == "keepalive":
        return scenarios.throughput(session, "exact100", stubgen.exact_path(100), config.connections)
    if name == "pipelined":
        return scenarios.throughput(session, "exact100", stubgen.exact_path(100), config.connections,
                                    script=session.pipeline_script)
    if name == "stubs10k":
        return scenarios.throughput(session, "exact10000", stubgen.exact_path(10_000), config.connections,
                                    reference=("exact100", stubgen.exact_path(100)))
    if name == "patterns":
        return scenarios.throughput(session, "patterns100", stubgen.pattern_path(100), config.connections)
    if name == "close":
        return scenarios.throughput(session, "exact100", stubgen.exact_path(100), config.close_connections, close=True)
    if name == "session":
        return scenarios.throughput(session, "exact100", stubgen.exact_path(100), config.connections,
                                    session_port=True)
    if name == "startup":
        return scenarios.startup(session)
    if name == "memory":
        return scenarios.memory(session)
    if name == "soak":
        return scenarios.soak(session)
    raise ValueError(name)


def resolve_understudy(config):
    if config.baseline_only:
        return None
    if config.understudy:
        return os.path.abspath(config.understudy)
    if config.skip_build:
        return toolchain.understudy_path(config.scratch)
    return toolchain.build_understudy(config.scratch)


def without_debug_info(binary):
    """A copy of `binary` without its DWARF sections, for valgrind: valgrind 3.19 gives up on the
    DWARF 5 forms clang 21 writes for C targets (Yams' CYaml: "unhandled dwarf2 abbrev form code
    0x25 ... Possibly corrupted debuginfo file"). Instructions are counted the same; the symbol
    table stays, so profiles still name functions (without line numbers)."""
    stripped = binary + ".nodebug"
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    return stripped


def main(argv):
    config = bench_config.parse_arguments(argv)
    config.command_line = " ".join(["scripts/bench"] + [shlex.quote(a) for a in argv])
    os.chdir(toolchain.REPO)
    try:
        tools = toolchain.compile_c_tools(os.path.join(os.path.abspath(config.scratch), "bench", "bin"))
        understudy = resolve_understudy(config)
    except toolchain.BuildError as error:
        print(f"scripts/bench: build failed: {error}", file=sys.stderr)
        return 1
    if understudy and (config.gate or config.startup_callgrind or config.callgrind_requests or config.webhooks
                       or config.replay or config.compression or config.scale or config.floor):
        understudy = without_debug_info(understudy)
    if config.gate:
        from scripts.benchmark import gate
        return gate.run(config, tools, understudy)
    if config.compression:
        from scripts.benchmark import compression_bench
        return compression_bench.run(config, tools, understudy)
    if config.webhooks:
        from scripts.benchmark import webhook_bench
        return webhook_bench.run(config, tools, understudy)
    if config.floor:
        from scripts.benchmark import floor_bench
        return floor_bench.run(config, tools, understudy)
    if config.scale:
        from scripts.benchmark import scale_bench
        return scale_bench.run(config, tools, understudy)
    if config.replay:
        from scripts.benchmark import replay_bench
        return replay_bench.run(config, tools, understudy)
    if config.startup_callgrind:
        from scripts.benchmark import startup_callgrind
        return startup_callgrind.run(config, tools, understudy)
    if config.callgrind_requests:
        from scripts.benchmark import callgrind_profile
        return callgrind_profile.run(config, tools, understudy)

    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": config.command_line,
        "machine": toolchain.machine_description(),
        "config": {k: getattr(config, k) for k in ("duration", "warmup", "rounds", "starts", "memory_requests",
                                                   "soak_seconds", "soak_interval", "server_cpu", "load_cpu")},
        "note": config.note,
        "load_before": toolchain.load_average(),
        "scenarios": {},
    }
    if results["load_before"] > 0.5:
        print(f"scripts/bench: load average is {results['load_before']:.2f} before starting: "
              "other work on this machine will make the figures noisy", file=sys.stderr)
    session = BenchSession(config, tools, understudy)
    try:
        for name in config.scenarios:
            session.log(f"== {name}")
            try:
                results["scenarios"][name] = run_scenario(session, name)
            except (ScenarioError, DaemonStartError) as error:
                session.log(f"   {name} failed: {error}")
                results["scenarios"][name] = {"error": str(error)}
            except Exception as error:  # keep going: one broken scenario should not hide the others
                traceback.print_exc()
                results["scenarios"][name] = {"error": f"{type(error).__name__}: {error}"}
    except KeyboardInterrupt:
        session.log("interrupted: reporting what was measured")
    finally:
        session.close()
    results["load_after"] = toolchain.load_average()

    text = report.render(results)
    with open(os.path.join(session.out_dir, "latest.json"), "w") as handle:
        json.dump(results, handle, indent=1)
    with open(os.path.join(session.out_dir, "latest.md"), "w") as handle:
        handle.write(text)
    print(text)
    print(f"(raw figures: {os.path.join(session.out_dir, 'latest.json')})", file=sys.stderr)
    if config.record:
        report.record(RESULTS_FILE, text)
        print(f"(recorded in {os.path.relpath(RESULTS_FILE, toolchain.REPO)})", file=sys.stderr)
    return 0 if all("error" not in r for r in results["scenarios"].values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
