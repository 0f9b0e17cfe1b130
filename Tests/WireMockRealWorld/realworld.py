"""The real-world WireMock corpus against the WireMock 2.35.1 jar and against Understudy.

Every root under `roots/` (listed in `roots.json`) is served by WireMock with default settings, and
again with `--global-response-templating` when the project runs WireMock so, and by `understudy serve
ROOT`, each started once per root. The root's request scripts (`scripts/<root>.json`, written by
`make_scripts.py`) run against each server, state reset before every script, and the answers are
compared by `Tests/WireMockDifferential/differential.py`'s `compare` (status, the headers the matched
mapping sets, the body, faults; unmatched on WireMock must be unmatched on Understudy). Every
disagreement is put into one of issue 30's gap classes by what the mapping uses.

From the repository root:
    python3 -m Tests.WireMockRealWorld.realworld [--understudy BIN] [--write-results] [--write-floors]
prints the per-root table; `--write-results` rewrites RESULTS.md, `--write-floors` rewrites floors.json
(the floors `Tests/BlackBox/test_wiremock_realworld.py` holds the current binary to).
"""
import json
import pathlib
import subprocess
import sys
import time
import urllib.parse

from scripts.lib.understudy_daemon import Daemon, DaemonStartError
from Tests.WireMockDifferential import differential
from Tests.WireMockRealWorld import make_scripts

HERE = pathlib.Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
FLOORS = HERE / "floors.json"

# Issue 30's gap classes, plus the ones this corpus added (12 onwards).
CLASSES = {
    "1": "XML matching (equalToXml, matchesXPath)",
    "2": "__files/ served as a static web root",
    "3": "response templating (global flag, Handlebars helpers)",
    "4": "extension transformers WireMock ignores when absent",
    "5": "basicAuth alias, scheme case",
    "6": "leniency: duplicate keys, string status, missing bodyFileName",
    "7": "matchesJsonPath with sub-matcher, JSONPath filters",
    "8": "negative matchers against an absent header or query; and/or",
    "9": "`matches` semantics (Java regex flags, urlPath before decoding)",
    "10": "every mapping gets an id",
    "11": "Transfer-Encoding: chunked response header",
    "12": "files outside mappings/ read as mappings",
    "13": "load failure of another kind",
    "other": "not yet classified",
}


def index():
    return json.loads((HERE / "roots.json").read_text())["roots"]


def variants(entry):
    """(label, WireMock's extra arguments) to compare against."""
    found = [("default", [])]
    if entry.get("templating"):
        found.append(("global-templating", ["--global-response-templating"]))
    return found


def admin_mappings(port):
    """WireMock's (or Understudy's) GET /__admin/mappings, as a list of mappings."""
    answer = differential.send(port, {"method": "GET", "target": "/__admin/mappings"})
    if answer.get("status") != 200:
        return []
    try:
        return json.loads(answer["body"]).get("mappings", [])
    except ValueError:
        return []


def classify_load_error(root, message):
    """The gap class a refusal to load belongs to, judged from the error text and the root's layout."""
    text = message.lower()
    outside = [p for p in pathlib.Path(root).rglob("*.json")
               if not p.relative_to(root).parts[0] in ("mappings", "__files")]
    for path in outside:
        if path.name in message or str(path.relative_to(root)) in message:
            return "12"
    checks = [("1", ("equaltoxml", "matchesxpath", "xpath")), ("4", ("transformer",)), ("5", ("basicauth",)),
              ("7", ("matchesjsonpath", "jsonpath")), ("8", ("doesnotmatch", "doesnotcontain", "absent")),
              ("6", ("duplicate", "bodyfilename", "status")), ("3", ("template", "{{")), ("11", ("transfer-encoding",))]
    for gap, words in checks:
        if any(word in text for word in words):
            return gap
    return "13"


def _mapping_text(root, mapping):
    """The mapping's response body as written, including the body file when it exists."""
    response = mapping.get("response", {})
    text = json.dumps(response.get("jsonBody", "")) + str(response.get("body", ""))
    name = response.get("bodyFileName")
    if name:
        path = pathlib.Path(root, "__files", name)
        if path.is_file():
            text += path.read_text(errors="replace")
    return text


def _matchers(mapping):
    request = mapping.get("request", {})
    values = list((request.get("headers") or {}).values()) + list((request.get("queryParameters") or {}).values())
    return [m for m in values if isinstance(m, dict)]


def classify(root, variant, mapping, expected, actual, request):
    """The gap class of one disagreement, judged from what the mapping (WireMock's matched one, else the
    one the script was written for) uses and from how the answers differ."""
    files = pathlib.Path(root, "__files")
    if "error" not in expected and not differential.header_values(expected, "Matched-Stub-Id"):
        target = urllib.parse.unquote(request["target"].split("?")[0]).lstrip("/")
        if expected["status"] == 200 and target and (files / target).is_file():
            return "2"
    if mapping is None:
        return "other"
    response = mapping.get("response", {})
    request_pattern = mapping.get("request", {})
    name = response.get("bodyFileName")
    if name and "{{" not in name and not (files / name).is_file():
        return "6"
    transformers = response.get("transformers") or []
    if any(t != "response-template" for t in transformers):
        return "4"
    templated = variant == "global-templating" or "response-template" in transformers
    if (templated and "{{" in _mapping_text(root, mapping)) or (name and "{{" in name):
        return "3"
    patterns = request_pattern.get("bodyPatterns") or []
    if any("equalToXml" in p or "matchesXPath" in p for p in patterns):
        return "1"
    if "basicAuth" in request_pattern or "basicAuthCredentials" in request_pattern:
        return "5"
    if isinstance(response.get("status"), str):
        return "6"
    if any("matchesJsonPath" in p for p in patterns):
        return "7"
    if any(set(m) & {"doesNotMatch", "doesNotContain", "absent", "or", "and"} for m in _matchers(mapping)):
        return "8"
    if any("matches" in m for m in _matchers(mapping)) or "urlPathPattern" in request_pattern or \
            "urlPattern" in request_pattern or any("matches" in p for p in patterns):
        return "9"
    if any(h.lower() == "transfer-encoding" for h in (response.get("headers") or {})):
        return "11"
    return "other"


def start_understudy(binary, root):
    """(Daemon, None), or (None, why it refused: the error count and the first error `understudy check`
    reports, paths relative to the root)."""
    try:
        return Daemon(command=[binary, "serve", "--port", "0", "--quiet", str(root)], timeout=30.0), None
    except DaemonStartError as error:
        check = subprocess.run([binary, "check", str(root)], capture_output=True, text=True, timeout=60)
        lines = (check.stdout + check.stderr).replace(str(root) + "/", "").splitlines()
        errors = [line for line in lines if "error:" in line]
        if not errors:
            return None, str(error).replace(str(root) + "/", "")[:300]
        return None, f"{len(errors)} error(s); first: {errors[0][:300]}"


def run_root(binary, entry):
    """Every variant of one root: a list of result dicts."""
    root = make_scripts.ROOTS / entry["name"]
    scripts = json.loads((make_scripts.SCRIPTS / f"{entry['name']}.json").read_text())["scripts"]
    runnable = [s for s in scripts if s["requests"]]
    source = {(file, number): mapping for file, number, mapping in make_scripts.load_mappings(root)}
    understudy, load_error = start_understudy(binary, root)
    try:
        understudy_answers = differential.record(understudy.port, runnable) if understudy else None
        ids = None
        if understudy:
            listed = admin_mappings(understudy.port)
            ids = (sum(1 for m in listed if m.get("id")), len(listed))
    finally:
        if understudy:
            understudy.stop()
    results = []
    for label, extra in variants(entry):
        result = {"root": entry["name"], "variant": label, "mappings": len(make_scripts.load_mappings(root)),
                  "underivable": sum(1 for s in scripts if not s["requests"]), "loads": understudy is not None,
                  "loadError": load_error, "ids": ids, "requests": 0, "agree": 0, "classes": {}, "differences": []}
        try:
            wiremock = differential.WireMockProcess(root, extra_args=extra)
        except RuntimeError as error:
            result["wiremock"] = f"did not start: {error}"
            results.append(result)
            continue
        try:
            served = admin_mappings(wiremock.port)
            by_id = {m.get("id") or m.get("uuid"): m for m in served}
            result["wiremock"] = f"serves {len(served)} mappings"
            wiremock_answers = differential.record(wiremock.port, runnable)
        finally:
            wiremock.stop()
        for script_index, script in enumerate(runnable):
            for request_index, request in enumerate(script["requests"]):
                expected = wiremock_answers[script_index][request_index]
                result["requests"] += 1
                if understudy_answers is None:
                    kind, differences = "not loaded", [f"Understudy refused the root: {load_error}"]
                    actual = None
                else:
                    actual = understudy_answers[script_index][request_index]
                    kind, differences = differential.compare(request, expected, actual, by_id_or_none(by_id))
                if not differences:
                    result["agree"] += 1
                    continue
                if understudy_answers is None:
                    gap = classify_load_error(root, load_error or "")
                else:
                    stub = differential.header_values(expected, "Matched-Stub-Id") if "error" not in expected else []
                    mapping = by_id.get(stub[0]) if stub else source.get(tuple(script["mapping"] or ()))
                    gap = classify(root, label, mapping, expected, actual, request)
                result["classes"][gap] = result["classes"].get(gap, 0) + 1
                result["differences"].append({"script": script["name"], "request": f"{request['method']} {request['target']}",
                                              "kind": kind, "gap": gap, "differences": differences})
        results.append(result)
    return results


class by_id_or_none(dict):
    """The mapping lookup `compare` needs: WireMock's mapping for a Matched-Stub-Id (an id it made up
    for a mapping without one is still listed by its admin API)."""

    def __missing__(self, key):
        return {"response": {}}


def run_all(binary, names=None):
    results = []
    for entry in index():
        if names and entry["name"] not in names:
            continue
        results.extend(run_root(binary, entry))
    return results


def key(result):
    return f"{result['root']}|{result['variant']}"


def table(results):
    lines = ["| root | WireMock | Understudy loads | agree / requests | disagreements by gap class | ids listed |",
             "|---|---|---|---|---|---|"]
    for r in results:
        loads = "yes" if r["loads"] else f"no: {r['loadError']}".replace("|", "\\|")
        classes = ", ".join(f"{gap}: {n}" for gap, n in sorted(r["classes"].items(), key=lambda kv: -kv[1])) or "–"
        ids = f"{r['ids'][0]}/{r['ids'][1]}" if r["ids"] else "–"
        lines.append(f"| {r['root']} ({r['variant']}) | {r.get('wiremock', '?')} | {loads} | {r['agree']}/{r['requests']} "
                     f"| {classes} | {ids} |")
    return "\n".join(lines)


def totals(results):
    requests = sum(r["requests"] for r in results)
    agree = sum(r["agree"] for r in results)
    gaps = {}
    for r in results:
        for gap, n in r["classes"].items():
            gaps[gap] = gaps.get(gap, 0) + n
    return requests, agree, gaps


def summary(results):
    requests, agree, gaps = totals(results)
    lines = [table(results), "", f"total: {agree}/{requests} agree"]
    lines += [f"  gap {gap} ({CLASSES.get(gap, '?')}): {n}" for gap, n in sorted(gaps.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


def write_results(results, elapsed):
    requests, agree, gaps = totals(results)
    default = [r for r in results if r["variant"] == "default"]
    served = [r for r in default if r.get("wiremock", "").startswith("serves")]
    loaded = [r for r in served if r["loads"]]
    loaded_requests = sum(r["requests"] for r in results if r["loads"])
    loaded_agree = sum(r["agree"] for r in results if r["loads"])
    mappings = sum(r["mappings"] for r in default)
    files = sum(len(make_scripts.mapping_files(make_scripts.ROOTS / r["root"])) for r in default)
    with_ids = [r["ids"] for r in default if r["ids"]]
    out = ["# Real-world WireMock corpus: results",
           "",
           "Generated by `python3 -m Tests.WireMockRealWorld.realworld --write-results` (do not edit by hand); the",
           "corpus and its provenance are described in [README.md](README.md).",
           "",
           f"- {len(default)} roots from {len({e['repository'] for e in index()})} public repositories: {files} mapping files, {mappings} mappings.",
           f"- WireMock 2.35.1 serves {len(served)} of {len(default)} roots; Understudy starts on {len(loaded)} of them.",
           f"- All variants: {agree} of {requests} requests agree ({100.0 * agree / max(requests, 1):.1f} %); on the roots "
           f"Understudy loads, {loaded_agree} of {loaded_requests} ({100.0 * loaded_agree / max(loaded_requests, 1):.1f} %).",
           f"- Mappings listed with an id by Understudy's `GET /__admin/mappings`: {sum(i[0] for i in with_ids)} of "
           f"{sum(i[1] for i in with_ids)} (gap 10).",
           f"- Run took {elapsed:.0f} s on this machine.",
           "",
           "## Per root",
           "",
           "A root with `global-templating` is the same root against WireMock started with",
           "`--global-response-templating` (the project runs it so); Understudy has no such switch and is",
           "started the same way for both. A root Understudy refuses counts every request as a disagreement.",
           "",
           table(results),
           "",
           "## Gaps by frequency (the next session's plan)",
           "",
           "Counts are disagreeing requests over all variants; a refused root counts each of its requests",
           "under the class of its load error.",
           ""]
    for rank, (gap, n) in enumerate(sorted(gaps.items(), key=lambda kv: -kv[1]), 1):
        out.append(f"{rank}. **Gap {gap}: {CLASSES.get(gap, '?')}**: {n} requests")
    out += ["", "## Every disagreement", ""]
    for r in results:
        for d in r["differences"]:
            detail = "; ".join(d["differences"])[:220].replace("|", "\\|").replace("\n", " ")
            out.append(f"- `{r['root']}` ({r['variant']}) [{d['script']}] `{d['request'][:90]}` gap {d['gap']}: {detail}")
    out += ["", "## Commands", "", "```sh",
            "python3 -m Tests.WireMockRealWorld.make_scripts            # regenerate scripts/ from the roots",
            "swift build && python3 -m Tests.WireMockRealWorld.realworld --understudy .build/debug/understudy --write-results",
            "python3 -m unittest Tests/BlackBox/test_wiremock_realworld.py -v   # the floors, under scripts/test",
            "```", ""]
    RESULTS.write_text("\n".join(out))


def write_floors(results):
    floors = {key(r): {"loads": r["loads"], "agree": r["agree"], "requests": r["requests"]} for r in results}
    FLOORS.write_text(json.dumps(floors, indent=1, sort_keys=True) + "\n")


def default_binary():
    out = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True,
                         cwd=HERE.parents[1]).stdout.strip()
    return str(pathlib.Path(out, "understudy"))


if __name__ == "__main__":
    binary = sys.argv[sys.argv.index("--understudy") + 1] if "--understudy" in sys.argv else default_binary()
    started = time.monotonic()
    results = run_all(binary)
    elapsed = time.monotonic() - started
    print(summary(results))
    print(f"took {elapsed:.1f} s")
    if "--write-results" in sys.argv:
        write_results(results, elapsed)
    if "--write-floors" in sys.argv:
        write_floors(results)
