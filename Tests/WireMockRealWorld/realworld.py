"""The real-world WireMock corpus against the WireMock 2.35.1 jar and against Understudy.

Every root under `roots/` (listed in `roots.json`) is served by WireMock with default settings, and
again with `--global-response-templating` when the project runs WireMock so, and by `understudy serve
ROOT` with the same flags. The root's request scripts (`scripts/<root>.json`, written by
`make_scripts.py`) run against each server, state reset before every script, and the answers are
compared by `Tests/WireMockDifferential/differential.py`'s `compare` (status, the headers the matched
mapping sets, the body, faults; unmatched on WireMock must be unmatched on Understudy). Every
disagreement is put into one of issue 30's gap classes by what the mapping uses.

From the repository root:
    python3 -m Tests.WireMockRealWorld.realworld [--understudy BIN] [--write-results] [--write-floors]
prints the per-root table; `--write-results` rewrites RESULTS.md, `--write-floors` rewrites floors.json
(the floors `Tests/BlackBox/test_wiremock_realworld.py` holds the current binary to).
"""
import concurrent.futures
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
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
    "14": "all-or-nothing loading: a request another file's refusal takes down",
    "15": "precedence: of equal-priority mappings WireMock answers with the one loaded last",
    "16": "host matching (`request.host`)",
    "other": "not yet classified",
}


def index():
    return json.loads((HERE / "roots.json").read_text())["roots"]


def variants(entry):
    """(label, WireMock's extra arguments) to compare against: default settings, and global templating
    for a project that runs WireMock so, when one of its mappings or files holds a template at all
    (otherwise the flag changes nothing, and the JVM's start-up is most of the run time)."""
    found = [("default", [])]
    root = make_scripts.ROOTS / entry["name"]
    templated = any("{{" in p.read_text(errors="replace") for p in root.rglob("*") if p.is_file() and p.name != "PROVENANCE.md")
    if entry.get("templating") and templated:
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
              ("16", ("`host`",)), ("7", ("matchesjsonpath", "jsonpath")), ("8", ("doesnotmatch", "doesnotcontain", "absent")),
              ("3", ("template", "{{")), ("6", ("duplicate", "bodyfilename", "status")), ("11", ("transfer-encoding",))]
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


def _gives(root, mapping, body):
    """Whether the mapping's response body is `body` (jsonBody compared as JSON, body and bodyFileName as bytes)."""
    response = mapping.get("response", {})
    if "jsonBody" in response:
        try:
            return json.loads(body) == response["jsonBody"]
        except ValueError:
            return False
    if "body" in response:
        return str(response["body"]).encode() == body
    name = response.get("bodyFileName")
    path = pathlib.Path(root, "__files", name) if name else None
    return bool(path and path.is_file() and path.read_bytes() == body)


def _answered_by_another(root, mapping, actual, source):
    """Whether Understudy answered with the body of another mapping of the root than WireMock's."""
    if "error" in actual or mapping is None or _gives(root, mapping, actual["body"]):
        return False
    return any(_gives(root, other, actual["body"]) for other in source.values())


def order_dependent(request, source):
    """Whether two or more mappings of the highest priority among those whose method and URL accept the
    request could answer it. WireMock 2.35 then answers with the one loaded last, and it loads files in
    the order the file system lists them, which differs between machines; such requests are compared and
    reported, but kept out of the floors. (Header, query and body matchers are ignored here, so this may
    flag a request that only one mapping really accepts: it errs towards flagging.)"""
    path, _, _ = request["target"].partition("?")
    accepting = []
    for mapping in source.values():
        pattern = mapping.get("request", {})
        if pattern.get("method", "ANY") not in ("ANY", request["method"]):
            continue
        try:
            if not (("url" in pattern and pattern["url"] == request["target"]) or
                    ("urlPath" in pattern and pattern["urlPath"] == path) or
                    ("urlPattern" in pattern and re.fullmatch(pattern["urlPattern"], request["target"])) or
                    ("urlPathPattern" in pattern and re.fullmatch(pattern["urlPathPattern"], path)) or
                    not {"url", "urlPath", "urlPattern", "urlPathPattern"} & set(pattern)):
                continue
        except re.error:
            continue
        accepting.append(mapping.get("priority", 5))
    return len(accepting) >= 2 and accepting.count(min(accepting)) >= 2


def classify(root, variant, mapping, expected, actual, request, source=None):
    """The gap class of one disagreement, judged from what the mapping (WireMock's matched one, else the
    one the script was written for) uses and from how the answers differ."""
    files = pathlib.Path(root, "__files")
    if "error" not in expected and not differential.header_values(expected, "Matched-Stub-Id"):
        target = urllib.parse.unquote(request["target"].split("?")[0]).lstrip("/")
        if expected["status"] == 200 and target and (files / target).is_file():
            return "2"
        if expected["status"] == 500 and b"FileNotFoundException" in expected["body"]:
            return "6"  # a mapping whose body file is missing: WireMock fails that request only
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
    if _answered_by_another(root, mapping, actual, source or {}):
        return "15"
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


def mixed_case_media_ranges(value):
    """`application/json;q=0.9, text/*` as `Application/JSON;q=0.9, Text/*`: each type capitalised and each
    subtype in upper case, parameters as they were (media types are case-insensitive: RFC 9110 §8.3.1)."""
    ranges = []
    for item in value.split(","):
        media, semicolon, parameters = item.partition(";")
        kind, slash, subtype = media.partition("/")
        space = kind[:len(kind) - len(kind.lstrip())]
        ranges.append(space + kind.lstrip().capitalize() + slash + subtype.upper() + semicolon + parameters)
    return ",".join(ranges)


def accepting_gzip(script):
    """`script` with `Accept-Encoding: gzip` on every request that names no Accept-Encoding, as most clients
    send it, so WireMock's gzip (Jetty's, with its `Vary`) is compared too; a `Content-Type` in upper case,
    which Jetty hands WireMock in its own spelling when it is a well-known value; an `Accept` in mixed case
    (`Application/JSON`); and the connection option in mixed case (`Connection: Close`, or `Keep-Alive`
    for a fault's request, which is sent as keep-alive clients send it) (issue 43)."""
    requests = []
    for request in script["requests"]:
        headers = dict(request.get("headers") or {})
        if not any(name.lower() == "accept-encoding" for name in headers):
            headers["Accept-Encoding"] = "gzip"
        if not any(name.lower() == "connection" for name in headers):
            headers["Connection"] = "Keep-Alive" if request.get("keepAlive") else "Close"
        for name in list(headers):
            if name.lower() == "content-type":
                headers[name] = headers[name].upper()
            elif name.lower() == "accept":
                headers[name] = mixed_case_media_ranges(headers[name])
        requests.append(dict(request, headers=headers))
    return dict(script, requests=requests)


def record_wiremock(port, scripts, expected):
    """Like `differential.record`, and also WireMock's mappings by id: its reset reloads the root and
    gives every mapping without an id a new random one, so the ids are read again after each reset,
    waiting (with a deadline) until all `expected` mappings are listed again."""
    answers, by_id = [], {}
    for script in scripts:
        differential.reset(port)
        deadline = time.monotonic() + 10.0
        listed = admin_mappings(port)
        while len(listed) < expected and time.monotonic() < deadline:
            time.sleep(0.05)  # polling with a deadline: the reset gives no signal that the reload is done
            listed = admin_mappings(port)
        by_id.update({m.get("id") or m.get("uuid"): m for m in listed})
        answers.append([dict(differential.send(port, request), port=port) for request in script["requests"]])
    return answers, by_id


def start_understudy(binary, root, explain=True, flags=()):
    """(Daemon, None), or (None, why it refused: the error count, their gap classes and the first error
    `understudy check` reports, paths relative to the root)."""
    try:
        return Daemon(command=[binary, "serve", "--port", "0", "--quiet", *flags, str(root)], timeout=30.0), None
    except DaemonStartError as error:
        if not explain:
            return None, str(error)
        check = subprocess.run([binary, "check", *flags, str(root)], capture_output=True, text=True, timeout=60)
        lines = (check.stdout + check.stderr).replace(str(root) + "/", "").splitlines()
        errors = [line for line in lines if "error:" in line]
        if not errors:
            return None, str(error).replace(str(root) + "/", "")[:300]
        causes = sorted({classify_load_error(root, line) for line in errors}, key=lambda g: (len(g), g))
        return None, f"{len(errors)} error(s) of gap class {', '.join(causes)}; first: {errors[0][:240]}"


def loadable_subset(binary, root, workdir, flags=()):
    """A copy of the root without the files `understudy check` refuses (checked again until it passes),
    and the files left out: what Understudy would serve if it skipped what it cannot load, as issue 30
    asks. None for the copy when no such subset is found."""
    copy = pathlib.Path(workdir, "root")
    shutil.copytree(root, copy)
    dropped = {}
    for _ in range(10):
        check = subprocess.run([binary, "check", *flags, str(copy)], capture_output=True, text=True, timeout=60)
        if check.returncode == 0:
            return copy, dropped
        bad = {}
        for line in (check.stdout + check.stderr).splitlines():
            match = re.match(re.escape(str(copy)) + r"/(.+?):\d+:\d+: error:", line)
            if match:
                bad.setdefault(match.group(1), line.replace(str(copy) + "/", ""))
        if not bad:
            return None, dropped
        for name, line in sorted(bad.items()):
            (copy / name).unlink(missing_ok=True)
            dropped[name] = line
    return None, dropped


def skipped_mappings(port, root):
    """The mappings `GET /__admin/health` lists as skipped: {(file relative to the root, index): reason}."""
    answer = differential.send(port, {"method": "GET", "target": "/__admin/health"})
    try:
        listed = json.loads(answer["body"]).get("skipped", []) if answer.get("status") == 200 else []
    except ValueError:
        listed = []
    prefix = str(root).rstrip("/") + "/"
    return {(m["file"][len(prefix):] if m["file"].startswith(prefix) else m["file"], m["index"]): m["reason"] for m in listed}


def serve_and_record(binary, root, scripts, flags=()):
    """(answers, (mappings listed with an id, mappings listed), skipped mappings) from `understudy serve
    ROOT`, or Nones."""
    understudy, _ = start_understudy(binary, root, explain=False, flags=flags)
    if understudy is None:
        return None, None, {}
    try:
        answers = [[dict(answer, port=understudy.port) for answer in script]
                   for script in differential.record(understudy.port, scripts)]
        listed = admin_mappings(understudy.port)
        return answers, (sum(1 for m in listed if m.get("id")), len(listed)), skipped_mappings(understudy.port, root)
    finally:
        understudy.stop()


def convert_and_record(binary, root, scripts, workdir, flags=()):
    """The answers of the native stubs `understudy convert-wiremock ROOT OUT` writes, served by
    `understudy serve OUT` (without WireMock's flags: native stubs do not read them), and the
    converter's notes; (None, why) when it does not convert or the output does not start."""
    out = pathlib.Path(workdir, "converted")
    converted = subprocess.run([binary, "convert-wiremock", *flags, str(root), str(out)], capture_output=True,
                               text=True, timeout=60)
    if converted.returncode != 0:
        return None, f"convert-wiremock failed: {(converted.stdout + converted.stderr)[:300]}"
    notes = [line for line in converted.stdout.splitlines() if line.startswith("not converted:")]
    understudy, error = start_understudy(binary, out, explain=False)
    if understudy is None:
        return None, f"the converted stubs do not start: {error[:300]}"
    try:
        return [[dict(answer, port=understudy.port) for answer in script]
                for script in differential.record(understudy.port, scripts)], notes
    finally:
        understudy.stop()


def run_root(binary, entry):
    """Every variant of one root: a list of result dicts. `requests`/`agree` count the root as it is (a
    refused root agrees on nothing; `refusals` counts its requests by the class of the refusal);
    `loadableRequests`/`loadableAgree` count the requests of the mappings Understudy can load, served
    from the root without the files it refuses; `classes` sorts their disagreements into gap classes.
    A refused root's request is counted once: under its own file's refusal class, under 14 when it would
    agree but for another file's refusal, or in `classes` when it disagrees anyway."""
    root = make_scripts.ROOTS / entry["name"]
    scripts = json.loads((make_scripts.SCRIPTS / f"{entry['name']}.json").read_text())["scripts"]
    runnable = [accepting_gzip(s) for s in scripts if s["requests"]]
    source = {(file, number): mapping for file, number, mapping in make_scripts.load_mappings(root)}
    results = []
    for label, extra in variants(entry):
        # Understudy takes WireMock's `--global-response-templating` too: each variant starts both so.
        probe, load_error = start_understudy(binary, root, flags=extra)
        if probe:
            probe.stop()
        with tempfile.TemporaryDirectory() as workdir:
            served_root, dropped = (root, {}) if load_error is None else loadable_subset(binary, root, workdir, extra)
            answers, ids, skipped = serve_and_record(binary, served_root, runnable, extra) if served_root else (None, None, {})
            converted, notes = convert_and_record(binary, root, runnable, workdir, extra) if load_error is None else (None, None)
        result = {"root": entry["name"], "variant": label, "mappings": len(source),
                  "underivable": sum(1 for s in scripts if not s["requests"]), "loads": load_error is None,
                  "loadError": load_error, "dropped": sorted(dropped), "ids": ids,
                  "skipped": {f"{file}#{index}": reason for (file, index), reason in sorted(skipped.items())},
                  "skippedClasses": {}, "requests": 0, "agree": 0,
                  "loadableRequests": 0, "loadableAgree": 0, "orderIndependentAgree": 0, "orderDependent": 0,
                  "refusals": {}, "classes": {}, "differences": [],
                  "convertedRequests": 0, "convertedAgree": 0, "convertedOrderIndependentAgree": 0,
                  "convertNotes": notes if converted is not None else [], "convertError": None if converted else notes,
                  "convertedDifferences": []}
        # A project on WireMock 3 renders `transformers: ["response-template"]` without a flag (so
        # does Understudy); the 2.35 jar needs `--local-response-templating` for that.
        local = ["--local-response-templating"] if entry.get("localTemplating") and label == "default" else []
        try:
            wiremock = differential.WireMockProcess(root, extra_args=[*extra, *local])
        except RuntimeError as error:
            result["wiremock"] = f"did not start: {error}"
            results.append(result)
            continue
        try:
            served = len(admin_mappings(wiremock.port))
            result["wiremock"] = f"serves {served} mappings"
            wiremock_answers, by_id = record_wiremock(wiremock.port, runnable, served)
        finally:
            wiremock.stop()
        refusal_gap = classify_load_error(root, (load_error or "").split("; first: ", 1)[-1]) if load_error else None
        for script_index, script in enumerate(runnable):
            loadable = answers is not None and (script["mapping"] is None or script["mapping"][0] not in dropped)
            if answers is None:
                lost = refusal_gap
            elif not loadable:
                lost = classify_load_error(root, dropped[script["mapping"][0]])
            for request_index, request in enumerate(script["requests"]):
                expected = wiremock_answers[script_index][request_index]
                result["requests"] += 1
                if not loadable:
                    result["refusals"][lost] = result["refusals"].get(lost, 0) + 1
                    continue
                actual = answers[script_index][request_index]
                stub = differential.header_values(expected, "Matched-Stub-Id") if "error" not in expected else []
                if stub and varies_by_design(by_id.get(stub[0]), label):
                    expected, actual = by_shape(expected), by_shape(actual)
                dependent = order_dependent(request, source)
                if converted is not None:
                    native = converted[script_index][request_index]
                    if stub and varies_by_design(by_id.get(stub[0]), label):
                        native = by_shape(native)
                    _, native_differences = differential.compare(request, expected, native, MappingsById(by_id), converted=True)
                    result["convertedRequests"] += 1
                    if native_differences:
                        result["convertedDifferences"].append(
                            {"script": script["name"], "request": f"{request['method']} {request['target']}",
                             "differences": native_differences})
                    else:
                        result["convertedAgree"] += 1
                        result["convertedOrderIndependentAgree"] += not dependent
                kind, differences = differential.compare(request, expected, actual, MappingsById(by_id))
                result["loadableRequests"] += 1
                result["orderDependent"] += dependent
                if not differences:
                    result["loadableAgree"] += 1
                    result["orderIndependentAgree"] += not dependent
                    if load_error is None:
                        result["agree"] += 1
                    else:  # lost only because one refused file takes the whole root down
                        result["refusals"]["14"] = result["refusals"].get("14", 0) + 1
                    continue
                stub = differential.header_values(expected, "Matched-Stub-Id") if "error" not in expected else []
                mapping = by_id.get(stub[0]) if stub else source.get(tuple(script["mapping"] or ()))
                gap = classify(root, label, mapping, expected, actual, request, source)
                reason = skipped.get(tuple(script["mapping"] or ()))
                if reason is not None:  # the mapping meant to answer was skipped: the skip's class
                    gap = classify_load_error(root, reason)
                    result["skippedClasses"][gap] = result["skippedClasses"].get(gap, 0) + 1
                differences = [re.sub(r"/tmp/[^/\s]+/root/", "", d) for d in differences]
                result["classes"][gap] = result["classes"].get(gap, 0) + 1
                result["differences"].append({"script": script["name"], "request": f"{request['method']} {request['target']}",
                                              "kind": kind, "gap": gap, "differences": differences})
        results.append(result)
    return results


VARYING_HELPERS = re.compile(r"\{\{\{?\s*(randomValue|randomInt|pickRandom|now|request\.port|request\.baseUrl)\b")
UUID = re.compile(rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def varies_by_design(mapping, variant):
    """Whether a mapping's answer differs between any two servers by design: it is templated (the
    global-templating variant, or the `response-template` transformer) and writes a random value, the
    time or its own server's port. Such answers are compared by shape (see `by_shape`), as the
    differential corpus compares its own with `metadata.differential.bodyPattern`."""
    if not mapping:
        return False
    response = mapping.get("response", {})
    if variant != "global-templating" and "response-template" not in (response.get("transformers") or []):
        return False
    return bool(VARYING_HELPERS.search(json.dumps(response)))


def by_shape(answer):
    """The answer with its server's own port written `<port>` and every UUID `<uuid>`."""
    if "error" in answer:
        return answer
    body = answer["body"].replace(str(answer["port"]).encode(), b"<port>")
    return dict(answer, body=UUID.sub(b"<uuid>", body))


class MappingsById(dict):
    """The mapping lookup `compare` needs: WireMock's mapping for a Matched-Stub-Id (an id it made up
    for a mapping without one is still listed by its admin API)."""

    def __missing__(self, key):
        return {"response": {}}


def _cost(entry):
    """A rough run time: a JVM start per variant, plus the delays its mappings ask for (each is waited
    for on both servers)."""
    root = make_scripts.ROOTS / entry["name"]
    delays = sum(m.get("response", {}).get("fixedDelayMilliseconds", 0) for _, _, m in make_scripts.load_mappings(root))
    return 5.0 * len(variants(entry)) + 2 * delays / 1000.0


def run_all(binary, names=None, workers=4):
    """Every root (or the named ones), four at a time, the longest first: each root has its own servers
    on ephemeral loopback ports, and JVM start-ups and mapping delays are most of the run time."""
    entries = [e for e in index() if not names or e["name"] in names]
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {e["name"]: pool.submit(run_root, binary, e) for e in sorted(entries, key=_cost, reverse=True)}
        return [result for e in entries for result in futures[e["name"]].result()]


def key(result):
    return f"{result['root']}|{result['variant']}"


def _counts(counts):
    return ", ".join(f"{gap}: {n}" for gap, n in sorted(counts.items(), key=lambda kv: -kv[1])) or "–"


def table(results):
    lines = ["| root | WireMock | Understudy loads | mappings skipped | agree / requests | loadable mappings: agree / requests "
             "(order-dependent) | requests lost to the refusal, by class | disagreements on loadable mappings, by class | ids listed "
             "| converted to native stubs: agree / requests |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        loads = "yes" if r["loads"] else f"no: {r['loadError']}".replace("|", "\\|")
        if r["dropped"]:
            loads += f" (loadable subset: without {len(r['dropped'])} file(s))"
        ids = f"{r['ids'][0]}/{r['ids'][1]}" if r["ids"] else "–"
        lines.append(f"| {r['root']} ({r['variant']}) | {r.get('wiremock', '?')} | {loads} | {len(r['skipped'])} | {r['agree']}/{r['requests']} "
                     f"| {r['loadableAgree']}/{r['loadableRequests']} ({r['orderDependent']}) | {_counts(r['refusals'])} | {_counts(r['classes'])} | {ids} "
                     f"| {_converted(r)} |")
    return "\n".join(lines)


def _converted(result):
    if result.get("convertError"):
        return f"no: {result['convertError']}".replace("|", "\\|").replace("\n", " ")[:160]
    return f"{result['convertedAgree']}/{result['convertedRequests']}" if result["loads"] else "–"


def totals(results):
    """(requests, agree, loadable requests, loadable agree, refusals by class, loadable gaps by class)."""
    refusals, gaps = {}, {}
    for r in results:
        for gap, n in r["refusals"].items():
            refusals[gap] = refusals.get(gap, 0) + n
        for gap, n in r["classes"].items():
            gaps[gap] = gaps.get(gap, 0) + n
    return (sum(r["requests"] for r in results), sum(r["agree"] for r in results),
            sum(r["loadableRequests"] for r in results), sum(r["loadableAgree"] for r in results), refusals, gaps)


def summary(results):
    requests, agree, loadable, loadable_agree, refusals, gaps = totals(results)
    lines = [table(results), "", f"total: {agree}/{requests} agree; on loadable mappings {loadable_agree}/{loadable}; "
             f"converted to native stubs {sum(r['convertedAgree'] for r in results)}/{sum(r['convertedRequests'] for r in results)}"]
    lines += [f"  refused, gap {gap} ({CLASSES.get(gap, '?')}): {n}" for gap, n in sorted(refusals.items(), key=lambda kv: -kv[1])]
    lines += [f"  loadable, gap {gap} ({CLASSES.get(gap, '?')}): {n}" for gap, n in sorted(gaps.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


def _percent(part, whole):
    return f"{100.0 * part / max(whole, 1):.1f} %"


def write_results(results, elapsed):
    requests, agree, loadable, loadable_agree, refusals, gaps = totals(results)
    default = [r for r in results if r["variant"] == "default"]
    served = [r for r in default if r.get("wiremock", "").startswith("serves")]
    loaded = [r for r in served if r["loads"]]
    mappings = sum(r["mappings"] for r in default)
    files = sum(len(make_scripts.mapping_files(make_scripts.ROOTS / r["root"])) for r in default)
    with_ids = [r["ids"] for r in default if r["ids"]]
    refused_roots = {}
    for r in default:
        if not r["loads"]:
            causes = r["loadError"].split(" of gap class ", 1)[-1].split(";", 1)[0]
            for gap in causes.split(", "):
                refused_roots[gap] = refused_roots.get(gap, 0) + 1
    combined = dict(gaps)
    for gap, n in refusals.items():
        combined[gap] = combined.get(gap, 0) + n
    out = ["# Real-world WireMock corpus: results",
           "",
           "Generated by `python3 -m Tests.WireMockRealWorld.realworld --write-results` (do not edit by hand); the",
           "corpus and its provenance are described in [README.md](README.md).",
           "",
           f"- {len(default)} roots from {len({e['repository'] for e in index()})} public repositories: {files} mapping files, "
           f"{mappings} mappings, {requests} requests over all variants.",
           f"- WireMock 2.35.1 serves {len(served)} of {len(default)} roots; Understudy starts on {len(loaded)} of them, "
           f"skipping {sum(len(r['skipped']) for r in default)} of their {sum(r['mappings'] for r in loaded)} mappings "
           "(listed below, each with why).",
           f"- All requests: {agree} of {requests} agree ({_percent(agree, requests)}).",
           f"- On the mappings Understudy can load (a refused root served without the files `understudy check` "
           f"refuses): {loadable_agree} of {loadable} agree ({_percent(loadable_agree, loadable)}).",
           f"- The roots Understudy loads, converted by `understudy convert-wiremock` (same flags) and served as native "
           f"stubs: {sum(r['convertedAgree'] for r in results)} of {sum(r['convertedRequests'] for r in results)} requests "
           f"agree ({_percent(sum(r['convertedAgree'] for r in results), sum(r['convertedRequests'] for r in results))}).",
           f"- Mappings listed with an id by Understudy's `GET /__admin/mappings`: {sum(i[0] for i in with_ids)} of "
           f"{sum(i[1] for i in with_ids)} (gap 10).",
           f"- The run took {elapsed:.0f} s on this machine (four roots at a time).",
           "",
           "## Per root",
           "",
           "A `global-templating` row is the same root against WireMock started with `--global-response-templating`",
           "(the project runs it so), and Understudy started with the same flag.",
           "\"Order-dependent\" counts requests that two or more equal-priority mappings accept: WireMock answers",
           "with the one it loaded last, in the order the file system lists the files, so its answer differs",
           "between machines. They are compared and listed but kept out of the floors.",
           "",
           table(results),
           "",
           "## Gaps by frequency (the next session's plan)",
           "",
           "Requests counted over all variants: those lost because Understudy refuses the root (by the class of",
           "the refusal's first error) plus those that disagree on the mappings it can load. Roots refused, by",
           "every class among their errors: " + (_counts(refused_roots) if refused_roots else "none") + ".",
           ""]
    for rank, (gap, n) in enumerate(sorted(combined.items(), key=lambda kv: -kv[1]), 1):
        out.append(f"{rank}. **Gap {gap}: {CLASSES.get(gap, '?')}**: {n} request{'s' if n != 1 else ''} "
                   f"({refusals.get(gap, 0)} lost to refusals, {gaps.get(gap, 0)} disagreeing on loadable mappings)")
    if not combined:
        out.append("None: every request agrees.")
    out += ["", "Gap 10 is measured apart (ids above); classes 12 to 16 are new with this corpus.",
            "A request whose mapping Understudy skipped is counted under the class of the skip's reason.",
            "", "## Mappings Understudy skips (default variant)", ""]
    for r in default:
        for name, reason in r["skipped"].items():
            gap = classify_load_error(make_scripts.ROOTS / r["root"], reason)
            out.append(f"- `{r['root']}` `{name}` (gap {gap}): {reason[:200]}".replace("\n", " "))
    if not any(r["skipped"] for r in default):
        out.append("None.")
    out += ["", "## Every disagreement on loadable mappings", ""]
    for r in results:
        for d in r["differences"]:
            detail = "; ".join(d["differences"])[:220].replace("|", "\\|").replace("\n", " ")
            out.append(f"- `{r['root']}` ({r['variant']}) [{d['script']}] `{d['request'][:90]}` gap {d['gap']}: {detail}")
    if not any(r["differences"] for r in results):
        out.append("None.")
    out += ["", "## Every disagreement of the converted native stubs", ""]
    for r in results:
        for note in r["convertNotes"]:
            out.append(f"- `{r['root']}` ({r['variant']}) {note[:220]}".replace("/tmp/", "").replace("\n", " "))
        for d in r["convertedDifferences"]:
            detail = "; ".join(d["differences"])[:220].replace("|", "\\|").replace("\n", " ")
            out.append(f"- `{r['root']}` ({r['variant']}) [{d['script']}] `{d['request'][:90]}`: {detail}")
    if not any(r["convertedDifferences"] or r["convertNotes"] for r in results):
        out.append("None.")
    out += ["", "## Commands", "", "```sh",
            "python3 -m Tests.WireMockRealWorld.make_scripts            # regenerate scripts/ and PROVENANCE.md files",
            "swift build && python3 -m Tests.WireMockRealWorld.realworld --understudy .build/debug/understudy --write-results",
            "python3 -m Tests.WireMockRealWorld.realworld --write-floors   # after a fix: raise the floors",
            "UNDERSTUDY_BIN=.build/debug/understudy python3 -m unittest Tests/BlackBox/test_wiremock_realworld.py -v",
            "```", ""]
    RESULTS.write_text("\n".join(out))


def write_floors(results):
    floors = {key(r): {"loads": r["loads"], "requests": r["requests"], "agree": r["agree"],
                       "orderIndependentAgree": r["orderIndependentAgree"], "skipped": len(r["skipped"]),
                       "convertedOrderIndependentAgree": r["convertedOrderIndependentAgree"]}
              for r in results}
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
