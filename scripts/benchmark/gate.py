"""`scripts/bench --gate`: the deterministic performance gate CI runs on every change.

Wall-clock figures on a shared machine move by 10-20 % from run to run, so they cannot guard a change;
instruction counts can. For each workload the static release daemon runs under callgrind, a fixed
number of keep-alive requests is sent over a few connections (fixed_load.c) after a warm-up, and the
instructions the server executed for them (user space only; instrumentation is on for exactly that
load) are divided by the number of requests. The run fails when a workload's Ir per request exceeds
its budget in gate-budget.json. The C evhttp "hello" server (hello_server.c) is measured the same way
in the same run and printed beside each figure, with the ratio; a workload listed under `ratios` in
gate-budget.json also fails when that ratio exceeds its ceiling (the issue's 1.15 x for exact100),
which holds on any machine where the absolute counts may shift a little.

The counts are not bit-for-bit identical from run to run: how many requests one event-loop pass picks
up (journal batching, one write per pass) and the once-a-second Date header cache depend on timing.
The budgets sit just above the spread measured over repeated runs (`--gate-runs 3`); see the file.
"""
import json
import os
import subprocess
import sys

from scripts.benchmark import scale_bench
from scripts.benchmark import startup_callgrind
from scripts.benchmark import stubgen
from scripts.benchmark.bench_session import BenchSession, ScenarioError
from scripts.benchmark.callgrind_profile import allocations, profile
from scripts.benchmark.session_port import SessionPort

BUDGET_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gate-budget.json")


def _main_port(session, path):
    def prepare(server):
        session.check_answer(server, path)
        return server.port
    return prepare


def _session_port(session, path):
    """Creates a session holding the 100 exact stubs and loads its port."""
    def prepare(server):
        port = SessionPort(server, stubgen.exact_path_stub_objects(100))
        session.check_answer(port, path)
        return port.port
    return prepare


def _templated_port(session, path):
    """The main port, checked to answer the rendered template (`hello 100` for `/bench/100`)."""
    def prepare(server):
        session.check_answer(server, path, body=("hello " + path.rsplit("/", 1)[1]).encode())
        return server.port
    return prepare


# name: (stub set loaded by the daemon, request path, what it measures, how to find the port to load)
WORKLOADS = {
    "exact100": ("exact100", stubgen.exact_path(100),
                 "100 exact-path stubs, journal in memory and in a file", _main_port),
    "patterns100": ("patterns100", stubgen.pattern_path(100),
                    "100 pathPattern stubs, journal in memory and in a file", _main_port),
    # exact100 with every response a template (`hello {{request.pathSegments.1}}`): issue 15 asks that a
    # templated response cost no more than twice a static one.
    "templated100": ("templated100", stubgen.exact_path(100),
                     "exact100 with templated responses (`hello {{request.pathSegments.1}}`)", _templated_port),
    "session": ("empty", stubgen.exact_path(100),
                "100 exact-path stubs in a session (POST /__admin/sessions), its port loaded, journal in "
                "memory and in a file", _session_port),
}


def load_budget(path=BUDGET_FILE):
    with open(path) as handle:
        return json.load(handle)


def _profile_once(session, tools, name, command, path, load, prepare, ready_port=None, instrument_off=True):
    config = session.config
    out_file, totals, non_2xx, _ = profile(session.out_dir, tools, name, command, path, load["requests"],
                                           config.server_cpu, config.load_cpu, warmup=load["warmup"],
                                           connections=load["connections"], prepare=prepare, ready_port=ready_port,
                                           instrument_off=instrument_off)
    if non_2xx:
        raise ScenarioError(f"{name}: {non_2xx} of {load['requests']} answers were not 2xx")
    return {"ir_per_request": totals / load["requests"],
            "allocations_per_request": allocations(out_file) / load["requests"],
            "profile": out_file}


def has_sessions(understudy):
    """Whether the daemon has sessions (`serve --max-sessions`). A build from before they landed
    skips the session workload; one that has them must pass it."""
    result = subprocess.run([understudy, "serve", "--help"], capture_output=True, text=True, timeout=120)
    return "--max-sessions" in result.stdout + result.stderr


def measure_hello(session, tools, load, changelist=False):
    """The C evhttp hello server's Ir per request under `load` (with `changelist`, the flag's variant)."""
    any_path = stubgen.exact_path(100)
    name = "hello-changelist" if changelist else "hello"
    command = session.baseline_command(0) + (["--changelist"] if changelist else [])
    figures = _profile_once(session, tools, name, command, any_path, load, _main_port(session, any_path))
    session.log(f"   {name:18} {figures['ir_per_request']:9,.0f} Ir/request")
    return figures["ir_per_request"]


def _measure(session, tools, understudy, load, names):
    """One run: both C baselines, then each workload. Returns {name: figures}."""
    figures = {}
    any_path = stubgen.exact_path(100)
    for changelist in (False, True):
        ir = measure_hello(session, tools, load, changelist)
        figures["hello-changelist" if changelist else "hello"] = {"ir_per_request": ir}
    if session.has_nginx():
        # The second anchor, counted the same way: nginx as one process (no master), one worker.
        port = session.free_port()
        figures["nginx"] = _profile_once(session, tools, "nginx", session.nginx_command(port), any_path, load,
                                         _main_port(session, any_path), ready_port=port, instrument_off=False)
        session.log(f"   {'nginx':18} {figures['nginx']['ir_per_request']:9,.0f} Ir/request")
    for name in names:
        stub_key, path, _, prepare = WORKLOADS[name]
        journal = session.journal_path()
        command = session.understudy_command(session.stub_dirs[stub_key], 0, journal)
        if name == "session" and not has_sessions(understudy):
            figures[name] = {"skipped": "this build has no sessions (no `serve --max-sessions`)"}
            session.log(f"   {name:18} skipped: {figures[name]['skipped']}")
            continue
        figures[name] = _profile_once(session, tools, name, command, path, load, prepare(session, path))
        # The journal is part of the measured work: every answered request must be in the file,
        # exactly once (the readiness check, the warm-up and the counted load; admin calls such as
        # the session's creation are not journaled).
        lines = session.count_lines(journal)
        expected = 1 + load["warmup"] + load["requests"]
        if lines != expected:
            raise ScenarioError(f"{name}: the journal file holds {lines} lines for {expected} requests")
        os.remove(journal)
        session.log(f"   {name:18} {figures[name]['ir_per_request']:9,.0f} Ir/request "
                    f"({figures[name]['allocations_per_request']:.1f} allocations)")
    return figures


def run(config, tools, understudy):
    budget = load_budget()
    load = budget["load"]
    names = [n for n in WORKLOADS if n in budget["budgets"]]
    missing = [n for n in WORKLOADS if n not in budget["budgets"]]
    session = BenchSession(config, tools, understudy)
    runs = []
    starts = None
    scale = scale_figures = scale_hello = scale_rss = None
    try:
        for index in range(config.gate_runs):
            session.log(f"== gate run {index + 1} of {config.gate_runs}: {load['requests']} requests over "
                        f"{load['connections']} keep-alive connections after {load['warmup']} unmeasured")
            runs.append(_measure(session, tools, understudy, load, names))
        # The scaling points (issue 46): stubs from 10 to 10 000, sessions from 1 to 1 000, each with
        # a budget and the growth ratios' ceilings (scale_bench.py; `scripts/bench --scale` prints the
        # same points with the RSS per connection too).
        scale = budget.get("scale")
        if scale:
            scale_load = scale.get("load", load)
            session.log(f"== scaling points: {scale_load['requests']} requests over {scale_load['connections']} "
                        f"connections after {scale_load['warmup']} unmeasured")
            scale_hello = measure_hello(session, tools, scale_load)
            scale_figures = scale_bench.measure_points(session, tools, scale_load, list(scale["budgets"]))
            if "rssPerConnection" in scale:
                session.log(f"== RSS per idle keep-alive connection at {scale_bench.CONNECTION_COUNTS[-1]:,}")
                scale_rss = scale_bench.measure_connections(session, scale_bench.CONNECTION_COUNTS[-1:])
        # Start-up too (exec to the first 200) with 100 and 10 000 stubs.
        start_names = [n for n in ("exact100", "exact10000") if n in budget.get("startup", {})]
        if start_names:
            session.log("== start-up under callgrind: exec -> first 200")
            starts = startup_callgrind.measure(session, start_names)
    except ScenarioError as error:
        print(f"scripts/bench --gate: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        session.close()

    hello = max(r["hello"]["ir_per_request"] for r in runs)
    changelist = max(r["hello-changelist"]["ir_per_request"] for r in runs)
    print(f"\n### Performance gate: instructions per keep-alive request (callgrind, {load['requests']} requests "
          f"over {load['connections']} connections, {len(runs)} run{'s' if len(runs) > 1 else ''})\n")
    nginx = max((r["nginx"]["ir_per_request"] for r in runs if "nginx" in r), default=None)
    print(f"C evhttp hello: {hello:,.0f} Ir/request; with the epoll changelist flag: {changelist:,.0f}"
          + (f"; nginx (one worker, `return 200`): {nginx:,.0f}" if nginx else "; nginx: not installed") + "\n")
    print("| workload | Understudy Ir/request | C hello | ratio | ratio to nginx | allocations/request | budget | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for name in names:
        if any("skipped" in r[name] for r in runs):
            print(f"| {name}: {WORKLOADS[name][2]} | skipped: {runs[0][name].get('skipped', '')} | | | | | "
                  f"{budget['budgets'][name]:,} | skipped |")
            continue
        values = [r[name]["ir_per_request"] for r in runs]
        worst = max(values)
        limit = budget["budgets"][name]
        # The issue's own measure, which holds on any machine: the ratio to the C server counted
        # in the same run (budgets are absolute counts, which move a little with the CPU's libc paths).
        ratio_limit = budget.get("ratios", {}).get(name)
        over_ratio = ratio_limit is not None and worst / hello > ratio_limit
        verdict = ("**OVER BUDGET**" if worst > limit else
                   f"**OVER {ratio_limit:.2f} × C**" if over_ratio else "pass")
        failed |= worst > limit or over_ratio
        spread = (f"{min(values):,.0f}–{worst:,.0f} ({100 * (worst - min(values)) / min(values):.2f} %)"
                  if len(values) > 1 else f"{worst:,.0f}")
        allocs = max(r[name]["allocations_per_request"] for r in runs)
        ceiling = f" (≤ {ratio_limit:.2f} ×)" if ratio_limit is not None else ""
        to_nginx = f"{worst / nginx:.2f} ×" if nginx else "—"
        print(f"| {name}: {WORKLOADS[name][2]} | {spread} | {hello:,.0f} | {worst / hello:.2f} ×{ceiling} | {to_nginx} | "
              f"{allocs:.1f} | {limit:,} | {verdict} |")
    for name in missing:
        print(f"| {name}: {WORKLOADS[name][2]} | no budget in {os.path.basename(BUDGET_FILE)} | | | | | | skipped |")
    if scale_figures:
        text, over = scale_bench.points_table(scale_figures, scale_hello, scale["budgets"], scale.get("ratios"))
        print("\nScaling points: Ir per request as stubs and sessions grow (`scripts/bench --scale`)\n")
        print(text)
        failed |= over
    if scale_rss:
        text, over = scale_bench.connections_table(scale_rss, scale["rssPerConnection"])
        print("\nRSS per idle keep-alive connection (not an instruction count: the allocator's pages, so a looser budget)\n")
        print(text)
        failed |= over
    if starts:
        text, over = startup_callgrind.table(starts, budget["startup"])
        print("\nStart-up: instructions from exec to the first 200 (`scripts/bench --startup-callgrind`)\n")
        print(text)
        failed |= over
    print(f"\n(profiles: `callgrind_annotate {session.out_dir}/callgrind.NAME.out | swift demangle --simplified`)")
    if failed:
        print(f"\nscripts/bench --gate: over budget or over a ratio to the C server. Find the cost with `scripts/bench --callgrind` and remove it; "
              f"raise a budget in {os.path.relpath(BUDGET_FILE)} only in a commit that says why.", file=sys.stderr)
        return 1
    return 0
