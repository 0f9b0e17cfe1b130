"""The six scenarios of the performance issue. Each returns a JSON-serialisable dict of raw figures;
report.py turns them into ratios and verdicts."""
import dataclasses
import os
import statistics
import subprocess
import time

from scripts.benchmark import stubgen
from scripts.benchmark.bench_session import ScenarioError
from scripts.benchmark.session_port import SessionPort, SessionsUnavailable


def throughput(session, stub_key, path, connections, close=False, reference=None, session_port=False, script=None):
    """Interleaved wrk rounds, the two C servers then Understudy (A A' B A A' B …), every server up
    throughout. The C servers are the plain evhttp hello and the same with libevent's epoll
    changelist flag.

    `reference` = (stub key, path): a second Understudy, e.g. with 100 stubs when measuring 10 000,
    measured in the same rounds so the two stub counts are compared under the same machine state.
    `session_port`: Understudy starts with no stubs of `stub_key` loaded; a session is created with
    them (`POST /__admin/sessions`) and the load goes to the session's port.
    nginx (one worker, no access log, `return 200`) is the second anchor when it is installed.
    `script`: a wrk script for every server (the pipelining one).
    """
    config = session.config
    result = {"path": path, "connections": connections, "close": close, "baseline": [], "changelist": [],
              "nginx": [], "understudy": [], "session_port": session_port, "pipelined": script is not None}
    servers = []
    try:
        servers.append(("baseline", session.start_baseline(), path))
        servers.append(("changelist", session.start_baseline(changelist=True), path))
        if session.has_nginx():
            servers.append(("nginx", session.start_nginx(), path))
        if not config.baseline_only:
            if session_port:
                daemon = session.start_understudy(session.stub_dirs["empty"])
                servers.append(("daemon", daemon, None))
                try:
                    target = SessionPort(daemon, stubgen.exact_path_stub_objects(100))
                except SessionsUnavailable as error:
                    return {"skipped": str(error)}
                servers.append(("understudy", target, path))
            else:
                servers.append(("understudy", session.start_understudy(session.stub_dirs[stub_key]), path))
            if reference:
                result["reference"] = []
                result["reference_path"] = reference[1]
                servers.append(("reference", session.start_understudy(session.stub_dirs[reference[0]]), reference[1]))
        loaded = [(name, server, server_path) for name, server, server_path in servers if server_path]
        for name, server, server_path in loaded:
            session.check_answer(server, server_path)
            session.wrk(server, server_path, config.warmup, connections, close, script=script)
        for round_index in range(config.rounds):
            for name, server, server_path in loaded:
                figures = session.wrk(server, server_path, config.duration, connections, close, script=script)
                result[name].append(dataclasses.asdict(figures))
                session.log(f"  round {round_index + 1} {name:10} {figures.requests_per_second:10.0f} req/s  "
                            f"p99 {figures.p99_ms:7.2f} ms  non-2xx {figures.non_2xx}  errors {figures.socket_errors}")
        for name, server, _ in loaded:
            if name == "understudy":
                result["understudy_rss_after"] = server.rss_bytes()
                result["understudy_health"] = server.get_json("/__admin/health")
    finally:
        for name, server, _ in servers:
            if isinstance(server, SessionPort):
                continue  # its daemon is stopped (and its journal counted) as "daemon"
            server.stop()
            journal = getattr(server, "journal", None)
            if journal:
                # Every answered request must be in the file: a fast but lossy journal would not count.
                who = "understudy" if name == "daemon" else name
                result[f"{who}_journal_lines"] = session.count_lines(journal)
                if os.path.exists(journal):
                    os.remove(journal)
    result["journal_lines"] = result.get("understudy_journal_lines", 0)
    return result


def startup(session):
    """Exec to first 200, interleaved per start: baseline, Understudy 100 stubs, Understudy 10 000 stubs."""
    config = session.config
    configurations = [("baseline", None)]
    if not config.baseline_only:
        configurations += [("understudy_100", "exact100"), ("understudy_10000", "exact10000")]
    result = {name: [] for name, _ in configurations}
    log = os.path.join(session.out_dir, "startup.stderr.log")
    open(log, "w").close()
    for start in range(config.starts):
        for name, stub_key in configurations:
            if start >= SLOW_START_REPEATS and _median(result[name]) > SLOW_START_MS:
                continue  # seconds per start: a few starts tell the story without eating the run
            port = session.free_port()
            if stub_key is None:
                command = session.baseline_command(port)
            else:
                journal = session.journal_path()
                command = session.understudy_command(session.stub_dirs[stub_key], port, journal)
            probe = [session.tools["startup_probe"], str(port), "/bench/1",
                     str(config.server_cpu if config.server_cpu is not None else -1), str(START_TIMEOUT_MS), log,
                     "--", *command]
            if config.load_cpu is not None:
                probe = ["taskset", "-c", str(config.load_cpu)] + probe
            outcome = subprocess.run(probe, capture_output=True, text=True, timeout=START_TIMEOUT_MS / 1e3 + 30)
            if outcome.returncode != 0:
                raise ScenarioError(f"start-up of {name}: {outcome.stderr.strip()}{_tail(log)}")
            result[name].append(float(outcome.stdout.strip()))
            if stub_key is not None and os.path.exists(journal):
                os.remove(journal)
        session.log("  start " + str(start + 1) + ": " + "  ".join(f"{n} {v[-1]:.1f} ms" for n, v in result.items()))
    return result


START_TIMEOUT_MS = 120_000
SLOW_START_MS = 2_000
SLOW_START_REPEATS = 3


def _median(values):
    return statistics.median(values) if values else 0.0


def _tail(path, size=1500):
    if not os.path.exists(path):
        return ""
    with open(path, "rb") as handle:
        handle.seek(max(0, os.path.getsize(path) - size))
        return "\n--- server stderr (tail) ---\n" + handle.read().decode(errors="replace")


def memory(session):
    """RSS idle, then after N requests (exact count), sampled at checkpoints to show it stops growing."""
    config = session.config
    total = config.memory_requests
    path = stubgen.exact_path(100)
    result = {"requests": total}
    with session.start_baseline() as baseline:
        session.check_answer(baseline, path)
        result["baseline_idle"] = baseline.rss_bytes()
        load = session.fixed_load(baseline, total, [path])
        result["baseline_after"] = baseline.rss_bytes()
        result["baseline_rps"] = load["rps"]
        session.log(f"  baseline: idle {result['baseline_idle'] / 2**20:.1f} MB, after {total} "
                    f"{result['baseline_after'] / 2**20:.1f} MB")
    if config.baseline_only:
        return result
    with session.start_understudy(session.stub_dirs["exact100"]) as understudy:
        session.check_answer(understudy, path)
        result["understudy_start"] = understudy.rss_bytes()
        time.sleep(0.5)  # not synchronisation: lets the allocator settle so "idle" is idle
        result["understudy_idle"] = understudy.rss_bytes()
        checkpoints = []
        done = 0
        for target in _checkpoints(total):
            load = session.fixed_load(understudy, target - done, [path])
            done = target
            health = understudy.get_json("/__admin/health")
            checkpoint = {"requests": done, "rss": understudy.rss_bytes(), "in_memory": health.get("requests"),
                          "rps": load["rps"], "non_2xx": load["non2xx"]}
            checkpoints.append(checkpoint)
            session.log(f"  understudy after {done:>9} requests: RSS {checkpoint['rss'] / 2**20:7.1f} MB, "
                        f"{checkpoint['in_memory']} entries in memory, {load['rps']:.0f} req/s")
        result["understudy_checkpoints"] = checkpoints
        understudy.stop()
        result["journal_lines"] = session.count_lines(understudy.journal)
        os.remove(understudy.journal)
    return result


def _checkpoints(total, parts=4):
    return sorted({max(1, total * k // parts) for k in range(1, parts + 1)})


def soak(session):
    """Mixed load for soak_seconds, measured in consecutive intervals against one long-lived server."""
    config = session.config
    intervals = max(1, round(config.soak_seconds / config.soak_interval))
    result = {"interval_seconds": config.soak_interval, "intervals": []}
    if config.baseline_only:
        return result
    with session.start_understudy(session.stub_dirs["soak"]) as understudy:
        session.check_answer(understudy, "/bench/100")
        session.wrk(understudy, "/", config.warmup, config.connections, script=session.soak_script)
        for index in range(intervals):
            figures = session.wrk(understudy, "/", config.soak_interval, config.connections, script=session.soak_script)
            health = understudy.get_json("/__admin/health")
            interval = dataclasses.asdict(figures) | {"rss": understudy.rss_bytes(), "in_memory": health.get("requests")}
            result["intervals"].append(interval)
            session.log(f"  soak {(index + 1) * config.soak_interval:5.0f} s: {figures.requests_per_second:9.0f} req/s  "
                        f"p99 {figures.p99_ms:6.2f} ms  non-2xx {figures.non_2xx}  RSS {interval['rss'] / 2**20:.1f} MB")
        understudy.stop()
        result["journal_lines"] = session.count_lines(understudy.journal)
        os.remove(understudy.journal)
    return result

