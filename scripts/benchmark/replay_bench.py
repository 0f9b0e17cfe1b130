"""`scripts/bench --replay`: what an idempotent replay costs against a normal answer, counted under
callgrind as the gate counts (issue 47: a replay costs no more than a normal answer).

Four daemons, each with 100 exact-path stubs whose last one is loaded, as the gate's exact100:
- `plain`: the gate's exact100 stubs, requests without a key;
- `plain-keyed`: the same stubs, every request carrying the `Idempotency-Key` header the replays send:
  what the header alone costs (its field line parsed, journaled), with no stub reading it;
- `keyed-unkeyed`: every stub with `"idempotency": {}`, requests without a key: what the rule costs a
  request that does not use it;
- `replay`: the same stubs, every request carrying one `Idempotency-Key` (fixed_load's
  FIXED_LOAD_HEADER): the warm-up's first request is the key's first, and every counted request is a
  replay of it (the journal is checked to say so).

Prints Ir per request and the ratio to `plain`; exits 1 when `replay` is over `plain` by more than the
gate's noise allowance (LIMIT).
"""
import json
import os
import sys

from scripts.benchmark import stubgen
from scripts.benchmark.bench_session import BenchSession, ScenarioError
from scripts.benchmark import keepalive_count

LIMIT = 1.02  # "no more than a normal answer", within the 1-2 % the gate's counts vary by between runs
KEY = "Idempotency-Key: bench-replay-1"


def _idempotent_stubs(directory):
    stubs = stubgen.exact_path_stub_objects(100)
    for stub in stubs:
        stub["idempotency"] = {}
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "idempotent.json"), "w") as handle:
        json.dump({"stubs": stubs}, handle, separators=(",", ":"))
    return directory


def _outcomes(path):
    """How many journal lines say `replay`, and how many lines there are."""
    replays = lines = 0
    with open(path, "rb") as handle:
        for line in handle:
            lines += 1
            if b'"outcome":"replay"' in line:
                replays += 1
    return replays, lines


def _count(session, tools, name, stub_dir, load, header, replays_expected=None):
    figures, journal = keepalive_count.count(session, tools, name, stub_dir, load, header=header)
    replays, lines = _outcomes(journal)
    expected = keepalive_count.expected_entries(load)
    # check_answer's request carries no key; with the key, the warm-up's first is the key's first.
    wanted_replays = (expected - 2 if header else 0) if replays_expected is None else replays_expected
    if lines != expected or replays != wanted_replays:
        raise ScenarioError(f"{name}: the journal holds {lines} entries ({replays} replays) for {expected} requests, "
                            f"expected {wanted_replays} replays")
    os.remove(journal)
    return figures


def run(config, tools, understudy):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gate-budget.json")) as handle:
        load = json.load(handle)["load"]
    session = BenchSession(config, tools, understudy)
    try:
        session.log(f"== replays: {load['requests']} requests over {load['connections']} keep-alive connections "
                    f"after {load['warmup']} unmeasured, under callgrind")
        results = {"plain": _count(session, tools, "plain", session.stub_dirs["exact100"], load, None)}
        results["plain-keyed"] = _count(session, tools, "plain-keyed", session.stub_dirs["exact100"], load, KEY,
                                        replays_expected=0)
        keyed = _idempotent_stubs(os.path.join(session.tmp, "idempotent"))
        results["keyed-unkeyed"] = _count(session, tools, "keyed-unkeyed", keyed, load, None)
        results["replay"] = _count(session, tools, "replay", keyed, load, KEY)
    except ScenarioError as error:
        print(f"scripts/bench --replay: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        session.close()

    plain = results["plain"]["ir"]
    print("\n### What an idempotent replay costs (callgrind, Ir per keep-alive request)\n")
    print("| workload | Ir/request | allocations/request | ratio to plain |")
    print("|---|---|---|---|")
    for name, figures in results.items():
        print(f"| {name} | {figures['ir']:,.0f} | {figures['allocations']:.1f} | {figures['ir'] / plain:.2f} × |")
    ratio = results["replay"]["ir"] / plain
    verdict = "pass" if ratio <= LIMIT else "OVER"
    print(f"\nreplay / plain = {ratio:.3f} (limit {LIMIT:.2f}): {verdict}")
    return 0 if ratio <= LIMIT else 1
