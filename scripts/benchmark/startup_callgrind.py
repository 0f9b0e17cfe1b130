"""`scripts/bench --startup-callgrind`: the instructions a start costs, exec to the first 200.

Start-up in wall clock (the `startup` scenario) moves with the machine's load; its instruction count
does not. Each server runs under callgrind from exec (the dynamic loader and relocation included);
once it answers `GET /bench/1` with 200, `callgrind_control --dump` writes the count so far and the
server is killed (its shutdown is not counted). The C evhttp hello server is counted the same way, in
the same run, as the anchor. Understudy's counts are checked against `startup` in gate-budget.json,
so a change that makes starting dearer fails here (and in `scripts/bench --gate`, which runs this too).
"""
import glob
import os
import re
import subprocess

from scripts.benchmark.bench_session import ScenarioError
from scripts.lib.understudy_daemon import Daemon

FIRST_PATH = "/bench/1"
# name: (stub set, what it is); the C anchor is counted first.
STARTS = {
    "exact100": ("exact100", "100 exact-path stubs, journal in memory and in a file"),
    "exact10000": ("exact10000", "10 000 exact-path stubs, journal in memory and in a file"),
}


def count_start(session, name, command):
    """Ir from exec to the first 200 of `command` under callgrind, and the dump's path."""
    out_file = os.path.join(session.out_dir, f"callgrind.startup.{name}.out")
    for stale in glob.glob(out_file + "*"):
        os.remove(stale)
    # Swift seeds its hashing per process, so dictionaries probe differently from start to start;
    # deterministic hashing makes the count repeatable (the C server ignores the variable).
    valgrind = ["env", "SWIFT_DETERMINISTIC_HASHING=1",
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"]
    server = Daemon(command=valgrind + command, cpu=session.config.server_cpu, name=f"{name} (start-up)",
                    stderr_path=os.path.join(session.out_dir, f"callgrind.startup.{name}.log"), timeout=600)
    try:
        session.check_answer(server, FIRST_PATH)
        dumped = subprocess.run(["callgrind_control", "--dump=first-200", str(server.pid)],
                                capture_output=True, text=True, timeout=300)
        if dumped.returncode != 0:
            raise ScenarioError(f"callgrind_control --dump {server.pid}: {dumped.stderr.strip()[:300]}")
    finally:
        server.process.kill()  # not counted: the dump above holds exec to the first answer
        server.stop()
    dumps = [path for path in glob.glob(out_file + ".*") if re.search(r"\.\d+$", path)]
    if not dumps:
        raise ScenarioError(f"{name}: callgrind wrote no dump at the first answer")
    with open(dumps[0]) as handle:
        for line in handle:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1]), dumps[0]
    raise ScenarioError(f"{name}: no totals in {dumps[0]}")


def measure(session, names=tuple(STARTS)):
    """{name: {"ir": …, "profile": …}} for the C hello server and each of `names`."""
    figures = {}
    ir, profile = count_start(session, "hello", session.baseline_command(0))
    figures["hello"] = {"ir": ir, "profile": profile}
    session.log(f"   {'hello':12} {ir:14,} Ir exec -> first 200")
    for name in names:
        stub_key, _ = STARTS[name]
        journal = session.journal_path()
        ir, profile = count_start(session, name, session.understudy_command(session.stub_dirs[stub_key], 0, journal))
        if os.path.exists(journal):
            os.remove(journal)
        figures[name] = {"ir": ir, "profile": profile}
        session.log(f"   {name:12} {ir:14,} Ir exec -> first 200 ({ir / figures['hello']['ir']:.1f} x C)")
    return figures


def table(figures, budgets):
    """Markdown rows; returns (text, failed)."""
    hello = figures["hello"]["ir"]
    lines = ["| start | Ir exec → first 200 | C hello | ratio | budget | verdict |", "|---|---|---|---|---|---|",
             f"| C evhttp hello | {hello:,} | — | — | — | — |"]
    failed = False
    for name, values in figures.items():
        if name == "hello":
            continue
        limit = budgets.get(name)
        over = limit is not None and values["ir"] > limit
        failed |= over
        verdict = "**OVER BUDGET**" if over else ("pass" if limit is not None else "no budget")
        lines.append(f"| {name}: {STARTS[name][1]} | {values['ir']:,} | {hello:,} | {values['ir'] / hello:.1f} × | "
                     f"{f'{limit:,}' if limit is not None else '—'} | {verdict} |")
    return "\n".join(lines), failed


def run(config, tools, understudy):
    from scripts.benchmark.bench_session import BenchSession
    from scripts.benchmark.gate import load_budget
    budgets = load_budget().get("startup", {})
    session = BenchSession(config, tools, understudy)
    try:
        session.log("== start-up under callgrind: exec -> first 200 (GET /bench/1)")
        figures = measure(session)
    except ScenarioError as error:
        print(f"scripts/bench --startup-callgrind: FAILED: {error}")
        return 1
    finally:
        session.close()
    text, failed = table(figures, budgets)
    print("\n### Start-up instructions (callgrind, exec to the first 200, loader and relocation included)\n")
    print(text)
    print(f"\n(profiles: `callgrind_annotate --inclusive=yes {session.out_dir}/callgrind.startup.NAME.out.1`)")
    return 1 if failed else 0
