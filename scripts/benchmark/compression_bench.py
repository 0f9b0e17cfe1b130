"""`scripts/bench --compression`: what a compressed answer costs beside the same answer uncompressed, counted
under callgrind as the gate counts (issue 43).

Three daemons, each with 100 exact-path stubs whose last one is loaded, as the gate's exact100:
- `plain`: the gate's exact100 stubs (`hello`), for reference;
- `body-1k`: each response a 1 KiB JSON body, sent as it is;
- `gzip-1k`: the same body with `"compress": "gzip", "compressWhen": "always"` (the load client sends no
  `Accept-Encoding`), so every counted request pays zlib's deflate of 1 KiB at the default level.

Prints Ir per request and the ratio to `body-1k`. Informative: compression is a stub's choice, and the
gate (`scripts/bench --gate`) holds uncompressed stubs to their budget.
"""
import gzip
import json
import os
import sys

from scripts.benchmark import stubgen
from scripts.benchmark.bench_session import BenchSession, ScenarioError
from scripts.benchmark import keepalive_count

BODY = {"items": [{"id": i, "name": f"item {i}", "tags": ["bench", "compression"], "price": i * 1.5}
                  for i in range(14)]}
BODY_BYTES = json.dumps(BODY, separators=(",", ":")).encode()


def _stubs(directory, compressed):
    response = {"status": 200, "json": BODY}
    if compressed:
        response.update({"compress": "gzip", "compressWhen": "always"})
    stubs = [{"id": f"c{i}", "request": {"method": "GET", "path": f"/bench/{i}"}, "responses": [response]}
             for i in range(1, 101)]
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "compression.json"), "w") as handle:
        json.dump({"stubs": stubs}, handle, separators=(",", ":"))
    return directory


def _count(session, tools, name, stub_dir, load, check):
    figures, journal = keepalive_count.count(session, tools, name, stub_dir, load, check=check)
    expected = keepalive_count.expected_entries(load)
    served = session.count_lines(journal)
    if served != expected:
        raise ScenarioError(f"{name}: the journal holds {served} entries for {expected} requests")
    os.remove(journal)
    return figures


def _gunzips_to_body(answer):
    try:
        return gzip.decompress(answer) == BODY_BYTES
    except (OSError, EOFError):
        return False


def run(config, tools, understudy):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gate-budget.json")) as handle:
        load = json.load(handle)["load"]
    session = BenchSession(config, tools, understudy)
    try:
        session.log(f"== compression: {load['requests']} requests over {load['connections']} keep-alive "
                    f"connections after {load['warmup']} unmeasured, under callgrind")
        results = {"plain": _count(session, tools, "plain", session.stub_dirs["exact100"], load,
                                   lambda answer: answer == b"hello")}
        results["body-1k"] = _count(session, tools, "body-1k", _stubs(os.path.join(session.tmp, "body-1k"), False),
                                    load, lambda answer: answer == BODY_BYTES)
        results["gzip-1k"] = _count(session, tools, "gzip-1k", _stubs(os.path.join(session.tmp, "gzip-1k"), True),
                                    load, _gunzips_to_body)
    except ScenarioError as error:
        print(f"scripts/bench --compression: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        session.close()

    base = results["body-1k"]["ir"]
    print(f"\n### What a compressed answer costs (callgrind, Ir per keep-alive request; body {len(BODY_BYTES)} B)\n")
    print("| workload | Ir/request | allocations/request | ratio to body-1k |")
    print("|---|---|---|---|")
    for name, figures in results.items():
        print(f"| {name} | {figures['ir']:,.0f} | {figures['allocations']:.1f} | {figures['ir'] / base:.2f} × |")
    return 0
