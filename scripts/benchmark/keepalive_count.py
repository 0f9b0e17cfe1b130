"""The gate's way of counting one workload, shared by the informative callgrind benches (`--webhooks`,
`--replay`, `--compression`): the daemon serves `stub_dir` with a journal file, `load`'s keep-alive
requests go to the 100th exact path under callgrind, and the instructions and allocations per request come
back with the journal file, for the bench to check what it says about those requests."""
import os

from scripts.benchmark import stubgen
from scripts.benchmark.bench_session import ScenarioError
from scripts.benchmark.callgrind_profile import allocations, profile


def count(session, tools, name, stub_dir, load, check=None, header=None):
    """Returns ({"ir", "allocations"} per request, the journal's path). `check(answer)` judges the first
    answer before counting (default: the gate's `hello`); `header` ("Name: value") goes on every counted
    request (fixed_load's FIXED_LOAD_HEADER). Any answer that is not 2xx fails the count."""
    path = stubgen.exact_path(100)
    journal = session.journal_path()
    command = session.understudy_command(stub_dir, 0, journal)

    def prepare(server):
        if check is None:
            session.check_answer(server, path)
        else:
            status, answer = server.get(path)
            if status != 200 or not check(answer):
                raise ScenarioError(f"{name}: GET {path} answered {status} {answer[:60]!r}")
        return server.port

    if header:
        os.environ["FIXED_LOAD_HEADER"] = header
    try:
        out_file, totals, non_2xx, _ = profile(session.out_dir, tools, name, command, path, load["requests"],
                                               session.config.server_cpu, session.config.load_cpu,
                                               warmup=load["warmup"], connections=load["connections"],
                                               prepare=prepare)
    finally:
        os.environ.pop("FIXED_LOAD_HEADER", None)
    if non_2xx:
        raise ScenarioError(f"{name}: {non_2xx} of {load['requests']} answers were not 2xx")
    figures = {"ir": totals / load["requests"], "allocations": allocations(out_file) / load["requests"]}
    session.log(f"   {name:14} {figures['ir']:9,.0f} Ir/request ({figures['allocations']:.1f} allocations)")
    return figures, journal


def expected_entries(load):
    """The journal entries a count leaves: the check's request, the warm-up and the counted requests."""
    return 1 + load["warmup"] + load["requests"]
