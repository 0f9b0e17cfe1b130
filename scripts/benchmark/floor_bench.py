"""`scripts/bench --floor`: every figure of issue 46 ("performance at the floor") in one run, each
against its anchor measured in the same run, as the table RESULTS.md opens with.

- **Start-up**, exec to the first 200 (startup_probe, the median of `--starts` interleaved starts) and in
  instructions (callgrind): Understudy with 100 stubs against a minimal static Swift server built here
  (minimal_server.swift, `swiftc -O -static-stdlib`: what any Swift binary pays to start) and the C hello.
  Target: at most 2 x the minimal Swift server.
- **Idle RSS** after start and one answered request: Understudy (100 stubs, journal on), the minimal Swift
  server, the C hello, nginx. Target: at most 8 MB.
- **Keep-alive** throughput and p99 (wrk, 50 connections, interleaved rounds) against nginx with one
  worker, the journal on. Targets: at least 1.0 x nginx's throughput, p99 at most 1.2 x nginx's.
- **HTTPS** keep-alive throughput and handshakes per second against nginx (https_bench.py). Targets: at
  least 1.0 x nginx's.
- **Scaling** (scale_bench.py): instructions per request at 10-10 000 stubs and 1-1 000 sessions, RSS per
  idle connection at 10-10 000 connections against nginx's, the 10 000-stub start. Targets: exact at most
  1.2 x and patterns at most 2 x from 100 to 10 000 stubs.

Wall-clock figures want a quiet machine (the load average is printed); instruction counts do not.
"""
import os
import statistics
import subprocess
import sys

from scripts.benchmark import https_bench, scale_bench, scenarios, startup_callgrind, stubgen, toolchain
from scripts.benchmark.bench_session import BenchSession, ScenarioError
from scripts.lib.understudy_daemon import Daemon

HERE = os.path.dirname(os.path.abspath(__file__))


def build_minimal_server(bin_dir):
    """Compiles minimal_server.swift (once per change of the source) and returns its path."""
    source = os.path.join(HERE, "minimal_server.swift")
    binary = os.path.join(bin_dir, "minimal_server")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        os.makedirs(bin_dir, exist_ok=True)
        toolchain._run(["swiftc", "-O", "-static-stdlib", "-o", binary, source])
    return binary


def _startup_walls(session, commands, starts):
    """{name: [ms per start]}, interleaved start by start (each server's command takes its port last)."""
    config = session.config
    log = os.path.join(session.out_dir, "floor.startup.log")
    open(log, "w").close()
    result = {name: [] for name in commands}
    for start in range(starts):
        for name, command in commands.items():
            port = session.free_port()
            argv = command(port)
            probe = [session.tools["startup_probe"], str(port), "/bench/1",
                     str(config.server_cpu if config.server_cpu is not None else -1), "60000", log, "--", *argv]
            if config.load_cpu is not None:
                probe = ["taskset", "-c", str(config.load_cpu)] + probe
            outcome = subprocess.run(probe, capture_output=True, text=True, timeout=120)
            if outcome.returncode != 0:
                raise ScenarioError(f"start-up of {name}: {outcome.stderr.strip()[:400]}")
            result[name].append(float(outcome.stdout.strip()))
    return result


def _idle_rss(session, name, command, ready_port=None):
    """KiB of RSS after start and one answered `GET /bench/100`."""
    server = Daemon(command=command, cpu=session.config.server_cpu, name=name, ready_port=ready_port,
                    stderr_path=os.path.join(session.out_dir, f"floor.{name}.log"), timeout=60)
    try:
        status, _ = server.get(stubgen.exact_path(100))
        if status != 200:
            raise ScenarioError(f"{name}: GET {stubgen.exact_path(100)} answered {status}")
        return server.rss_kb()
    finally:
        server.stop()


def _median(values):
    return statistics.median(values) if values else 0.0


def measure(session, minimal, understudy, starts, https_rounds, https_duration):
    """Every figure; see the module's docstring."""
    figures = {"load_before": toolchain.load_average()}
    journal = session.journal_path()
    understudy100 = lambda port: session.understudy_command(session.stub_dirs["exact100"], port, journal)  # noqa: E731
    session.log(f"== start-up, exec -> first 200: {starts} interleaved starts each")
    figures["startup_ms"] = _startup_walls(session, {
        "hello": session.baseline_command, "minimal": lambda port: [minimal, str(port)],
        "understudy": understudy100}, starts)
    for name, values in figures["startup_ms"].items():
        session.log(f"   {name:11} median {_median(values):6.2f} ms")
    session.log("== start-up instructions under callgrind")
    figures["startup_ir"] = {"minimal": startup_callgrind.count_start(session, "minimal", [minimal, "0"])[0]}
    figures["startup_ir"].update({name: values["ir"] for name, values in
                                  startup_callgrind.measure(session, ("exact100", "exact10000")).items()})
    session.log("== idle RSS after one request")
    port = session.free_port()
    figures["idle_rss_kb"] = {
        "hello": _idle_rss(session, "hello", session.baseline_command(0)),
        "minimal": _idle_rss(session, "minimal", [minimal, "0"]),
        "nginx": _idle_rss(session, "nginx", session.nginx_command(port), ready_port=port),
        "understudy": _idle_rss(session, "understudy", understudy100(0)),
    }
    for name, kib in figures["idle_rss_kb"].items():
        session.log(f"   {name:11} {kib / 1024:6.1f} MB")
    session.log("== keep-alive, 50 connections, against nginx (wrk)")
    keepalive = scenarios.throughput(session, "exact100", stubgen.exact_path(100), 50)
    figures["keepalive"] = {name: {"rps": _median([r["requests_per_second"] for r in keepalive[name]]),
                                   "p99_ms": _median([r["p99_ms"] for r in keepalive[name]])}
                            for name in ("nginx", "understudy", "baseline") if keepalive.get(name)}
    session.log("== HTTPS against nginx")
    https, _ = https_bench.measure(understudy, https_rounds, https_duration, 50, 8,
                                   session.config.server_cpu, session.config.load_cpu)
    figures["https"] = {f"{server}_{kind}": _median(values) for (server, kind), values in https.items()}
    session.log("== scaling points")
    figures["points"] = scale_bench.measure_points(session, session.tools, {"warmup": 500, "requests": 5000,
                                                                            "connections": 4},
                                                   scale_bench.point_names())
    figures["connections"] = scale_bench.measure_connections(session)
    figures["load_after"] = toolchain.load_average()
    if os.path.exists(journal):
        os.remove(journal)
    return figures


def table(figures):
    """The one table: figure, Understudy, anchor, ratio, target, met."""
    rows = []

    def row(label, value, anchor, anchor_name, ratio, target, met, unit=""):
        rows.append(f"| {label} | {value}{unit} | {anchor}{unit} ({anchor_name}) | {ratio:.2f} × | {target} | "
                    f"{'yes' if met else '**no**'} |")

    ms = {name: _median(values) for name, values in figures["startup_ms"].items()}
    row("start-up, 100 stubs, exec → first 200 (ms)", f"{ms['understudy']:.2f}", f"{ms['minimal']:.2f}",
        "minimal static Swift server", ms["understudy"] / ms["minimal"], "≤ 2 ×", ms["understudy"] <= 2 * ms["minimal"])
    ir = figures["startup_ir"]
    row("start-up instructions, 100 stubs", f"{ir['exact100']:,}", f"{ir['minimal']:,}", "minimal Swift server",
        ir["exact100"] / ir["minimal"], "—", True)
    rss = figures["idle_rss_kb"]
    row("idle RSS (MB)", f"{rss['understudy'] / 1024:.1f}", f"{rss['nginx'] / 1024:.1f}", "nginx",
        rss["understudy"] / rss["nginx"], "≤ 8 MB", rss["understudy"] <= 8 * 1024)
    keep = figures["keepalive"]
    if "nginx" in keep:
        row("keep-alive throughput, journal on (req/s)", f"{keep['understudy']['rps']:,.0f}",
            f"{keep['nginx']['rps']:,.0f}", "nginx", keep["understudy"]["rps"] / keep["nginx"]["rps"], "≥ 1.0 ×",
            keep["understudy"]["rps"] >= keep["nginx"]["rps"])
        row("keep-alive p99 (ms)", f"{keep['understudy']['p99_ms']:.2f}", f"{keep['nginx']['p99_ms']:.2f}", "nginx",
            keep["understudy"]["p99_ms"] / keep["nginx"]["p99_ms"], "≤ 1.2 ×",
            keep["understudy"]["p99_ms"] <= 1.2 * keep["nginx"]["p99_ms"])
    https = figures["https"]
    for kind, label in (("keepalive", "HTTPS keep-alive (req/s)"), ("handshakes", "TLS handshakes (per s)")):
        ours, theirs = https[f"understudy_{kind}"], https[f"nginx_{kind}"]
        row(label, f"{ours:,.0f}", f"{theirs:,.0f}", "nginx", ours / theirs, "≥ 1.0 ×", ours >= theirs)
    points = figures["points"]
    for kind, ceiling in (("exact", 1.2), ("patterns", 2.0), ("templated", None)):
        top, bottom = points[f"{kind}10000"]["ir"], points[f"{kind}100"]["ir"]
        row(f"{kind} stubs: Ir/request at 10,000", f"{top:,.0f}", f"{bottom:,.0f}", "the same at 100", top / bottom,
            f"≤ {ceiling} ×" if ceiling else "—", ceiling is None or top / bottom <= ceiling)
    top, bottom = points["sessions1000"]["ir"], points["sessions1"]["ir"]
    row("session port: Ir/request with 1,000 live sessions", f"{top:,.0f}", f"{bottom:,.0f}", "with 1", top / bottom,
        "—", True)
    biggest = max(figures["connections"])
    ours = figures["connections"][biggest]["understudy"][2]
    theirs = figures["connections"][biggest].get("nginx", (0, 0, 0))[2]
    if theirs:
        row(f"RSS per idle keep-alive connection at {biggest:,} (bytes)", f"{ours:,.0f}", f"{theirs:,.0f}", "nginx",
            ours / theirs, "—", True)
    row("start-up instructions, 10,000 stubs", f"{ir['exact10000']:,}", f"{ir['exact100']:,}", "100 stubs",
        ir["exact10000"] / ir["exact100"], "—", True)
    head = ["| figure | Understudy | anchor (same run) | ratio | target | met |", "|---|---|---|---|---|---|"]
    return "\n".join(head + rows)


def run(config, tools, understudy):
    session = BenchSession(config, tools, understudy)
    try:
        minimal = build_minimal_server(os.path.join(session.out_dir, "bin"))
        figures = measure(session, minimal, understudy, config.starts, max(2, config.rounds), config.duration)
    except ScenarioError as error:
        print(f"scripts/bench --floor: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        session.close()
    machine = toolchain.machine_description()
    print(f"\n### Issue 46's figures, one run (commit {machine.get('commit')}{' with changes' if machine.get('dirty') else ''}, "
          f"{machine.get('nproc')} × {machine.get('cpu')}, {machine.get('swift')}; load average "
          f"{figures['load_before']:.2f} before, {figures['load_after']:.2f} after)\n")
    print(table(figures))
    print("\n#### Instructions per keep-alive request as stubs and sessions grow (callgrind)\n")
    print(scale_bench.points_table(figures["points"], None)[0])
    print("\n#### RSS per idle keep-alive connection\n")
    print(scale_bench.connections_table(figures["connections"])[0])
    print("\n#### Start-up and idle RSS of each server\n")
    print("| server | exec → first 200, median (ms) | instructions | idle RSS (MB) |")
    print("|---|---|---|---|")
    for name, label in (("hello", "C evhttp hello"), ("minimal", "minimal static Swift server"),
                        ("understudy", "Understudy, 100 stubs"), ("nginx", "nginx, one worker")):
        ms = figures["startup_ms"].get(name)
        ir = figures["startup_ir"].get("exact100" if name == "understudy" else name)
        print(f"| {label} | {_median(ms):.2f} | {f'{ir:,}' if ir else '—'} | "
              f"{figures['idle_rss_kb'][name] / 1024:.1f} |" if ms else
              f"| {label} | — | — | {figures['idle_rss_kb'][name] / 1024:.1f} |")
    return 0
