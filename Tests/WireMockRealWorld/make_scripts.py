"""Writes the request scripts of the real-world corpus: `scripts/<root>.json` for every root listed in
`roots.json`, derived from the root's mappings only (never from either server's answers).

For every mapping: one request its pattern accepts (method; a URL from url/urlPath or a string the
urlPattern/urlPathPattern regex accepts; the query, headers, cookies, basic auth and body its matchers
require), preceded by the requests that walk its scenario to the state it needs, then a few near misses
that change one thing (path, method, a required header, query or body). For every file under `__files/`
(at most five a root): a GET of its path, which WireMock serves as a static web root.

It also writes each root's PROVENANCE.md from `roots.json`.
Regenerate after changing a root or this file (the scripts are committed so that runs are reproducible):
`python3 -m Tests.WireMockRealWorld.make_scripts` from the repository root.
"""
import base64
import json
import pathlib
import re
import urllib.parse

try:  # Python 3.11 renamed the regex parser's modules (the old names warn)
    from re import _constants as sre_constants, _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants
    import sre_parse

HERE = pathlib.Path(__file__).resolve().parent
ROOTS = HERE / "roots"
SCRIPTS = HERE / "scripts"
INDEX = HERE / "roots.json"


def mapping_files(root):
    """The mapping files WireMock reads: every .json under mappings/, in WireMock's (sorted) order."""
    return sorted(pathlib.Path(root, "mappings").rglob("*.json"))


def load_mappings(root):
    """[(file relative to the root, index in the file, mapping)]; files WireMock cannot parse are skipped
    here (the runner reports them through the servers' answers)."""
    found = []
    for path in mapping_files(root):
        try:
            document = json.loads(path.read_text(encoding="utf-8-sig"))
        except ValueError:
            continue
        items = document.get("mappings", [document]) if isinstance(document, dict) else []
        for index, mapping in enumerate(items):
            if isinstance(mapping, dict) and isinstance(mapping.get("request"), dict):
                found.append((str(path.relative_to(root)), index, mapping))
    return found


# --- strings that a regex accepts -------------------------------------------------------------------

def _sample(parsed):
    out = []
    for op, arg in parsed:
        if op is sre_constants.LITERAL:
            out.append(chr(arg))
        elif op is sre_constants.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op is sre_constants.ANY:
            out.append("a")
        elif op is sre_constants.IN:
            out.append(_sample_class(arg))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            low, _high, sub = arg
            out.append(_sample(sub) * max(low, 1))
        elif op is sre_constants.SUBPATTERN:
            out.append(_sample(arg[-1]))
        elif op is sre_constants.BRANCH:
            out.append(_sample(arg[1][0]))
        elif op is sre_constants.CATEGORY:
            out.append(_category(arg))
        elif op in (sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            continue
        elif op is sre_constants.GROUPREF:
            continue
        else:
            raise ValueError(f"cannot sample {op}")
    return "".join(out)


def _category(category):
    return {sre_constants.CATEGORY_DIGIT: "1", sre_constants.CATEGORY_WORD: "a", sre_constants.CATEGORY_SPACE: " ",
            sre_constants.CATEGORY_NOT_DIGIT: "a", sre_constants.CATEGORY_NOT_WORD: "-",
            sre_constants.CATEGORY_NOT_SPACE: "a"}.get(category, "a")


def _sample_class(items):
    if items and items[0][0] is sre_constants.NEGATE:
        excluded = {chr(arg) for op, arg in items[1:] if op is sre_constants.LITERAL}
        return next(c for c in "abcxyz019" if c not in excluded)
    for op, arg in items:
        if op is sre_constants.LITERAL:
            return chr(arg)
        if op is sre_constants.RANGE:
            return chr(arg[0])
        if op is sre_constants.CATEGORY:
            return _category(arg)
    return "a"


def sample(regex):
    """A short string the (Java-style) regex accepts as a whole, or None when none is found."""
    try:
        candidate = _sample(sre_parse.parse(regex))
    except (ValueError, re.error, StopIteration):
        return None
    try:
        return candidate if re.fullmatch(regex, candidate, re.DOTALL) else None
    except re.error:
        return None


# --- values that string matchers accept --------------------------------------------------------------

def satisfying(matcher):
    """A value the WireMock string matcher accepts, or None for `absent` (send nothing)."""
    if not isinstance(matcher, dict):
        return str(matcher)
    if matcher.get("absent") is True:
        return None
    for key in ("equalTo", "contains", "equalToIgnoreCase"):
        if key in matcher:
            return str(matcher[key])
    if "matches" in matcher:
        return sample(str(matcher["matches"])) or "a"
    if "doesNotMatch" in matcher:
        return "zz-" + "does-not-match"
    if "doesNotContain" in matcher:
        return "zz-" + "does-not-contain"
    if "hasExactly" in matcher or "includes" in matcher:
        values = matcher.get("hasExactly") or matcher.get("includes")
        return satisfying(values[0]) if values else ""
    if "or" in matcher:
        return satisfying(matcher["or"][0])
    if "and" in matcher:
        return satisfying(matcher["and"][0])
    return "a"


_PLACEHOLDERS = {'"${json-unit.any-string}"': '"abc"', '"${json-unit.any-number}"': "42",
                 '"${json-unit.any-boolean}"': "true", '"${json-unit.ignore}"': '"ignored"'}


def _json_text(value):
    text = value if isinstance(value, str) else json.dumps(value)
    for placeholder, replacement in _PLACEHOLDERS.items():
        text = text.replace(placeholder, replacement)
    return text


_STEP = re.compile(r"\.([\w-]+)|\[(\d+)\]|\[\*\]|\[\?\(@\.([\w-]+)\s*(=~|==)\s*(.+?)\)\]")


def _json_path_body(expression, leaf="x"):
    """A JSON document in which the (simple) JSONPath expression finds `leaf`: steps `.key`, `[n]`, `[*]`
    and the filters `[?(@.k == 'v')]` and `[?(@.k =~ /re/)]`; None for anything else."""
    expression = expression.strip()
    if not expression.startswith("$"):
        return None
    steps, position = [], 1
    while position < len(expression):
        match = _STEP.match(expression, position)
        if not match:
            return None
        steps.append(match)
        position = match.end()
    value = leaf
    for step in reversed(steps):
        key, index, field, operator, operand = step.groups()
        if key is not None:
            value = {key: value}
        elif index is not None:
            value = [{} for _ in range(int(index))] + [value]
        elif field is None:
            value = [value]
        else:
            if operator == "=~":
                regex = re.fullmatch(r"/(.*)/i?", operand.strip())
                wanted = sample(regex.group(1)) if regex else None
            else:
                wanted = operand.strip().strip("'\"")
            if wanted is None:
                return None
            # An object, as the real clients of this corpus send (Jayway applies a filter to an object
            # as to a one-element list); the sub-matcher's value rides along in another field.
            if isinstance(value, dict):
                value = dict(value, **{field: wanted})
            else:
                value = {field: wanted} if value == "x" and leaf == "x" else {field: wanted, "text": value}
    return json.dumps(value)


def _merge(left, right):
    """Two documents made for two JSONPath expressions, as one that both find their values in."""
    if isinstance(left, dict) and isinstance(right, dict):
        return {**left, **{k: _merge(left[k], v) if k in left else v for k, v in right.items()}}
    if isinstance(left, list) and isinstance(right, list):
        longer, shorter = (left, right) if len(left) >= len(right) else (right, left)
        return [_merge(longer[i], shorter[i]) if i < len(shorter) and shorter[i] != {} else longer[i]
                for i in range(len(longer))]
    return right


def body_for(patterns):
    """(body, content type) satisfying the bodyPatterns, or (None, None) when none can be made."""
    for pattern in patterns:
        if "equalToJson" in pattern:
            return _json_text(pattern["equalToJson"]), "application/json"
        if "equalToXml" in pattern:
            return pattern["equalToXml"], "application/xml"
        if "equalTo" in pattern:
            return str(pattern["equalTo"]), None
    bodies = []
    for pattern in patterns:
        if "matchesJsonPath" in pattern:
            expression = pattern["matchesJsonPath"]
            # The value the path must find: a sub-matcher's (nested, or beside the expression as some
            # real mappings write it), else anything.
            inner = expression if isinstance(expression, dict) else pattern
            leaf = next((str(inner[k]) for k in ("equalTo", "contains") if k in inner), "x")
            expression = expression.get("expression") if isinstance(expression, dict) else expression
            made = _json_path_body(expression or "", leaf)
            if made is None:
                return None, None
            bodies.append(json.loads(made))
        elif "contains" in pattern:
            return str(pattern["contains"]), None
        elif "matches" in pattern:
            return sample(str(pattern["matches"])), None
    if bodies:
        merged = bodies[0]
        for body in bodies[1:]:
            merged = _merge(merged, body)
        return json.dumps(merged), "application/json"
    return None, None


def _target(request):
    """The request target the URL matchers accept, before query parameters are added."""
    if "url" in request:
        return request["url"]
    if "urlPath" in request:
        return request["urlPath"]
    for key in ("urlPathPattern", "urlPattern"):
        if key in request:
            # A request target starts with "/" (Jetty answers any other 400 before WireMock
            # matches), so a pattern like `.*` is sampled as the path it accepts, not as "a".
            found = sample(request[key])
            if found is not None and not found.startswith("/"):
                rooted = "/" + found
                try:
                    found = rooted if re.fullmatch(request[key], rooted, re.DOTALL) else found
                except re.error:
                    pass
            return found
    return "/"


def matching_request(mapping):
    """The request the mapping's pattern accepts, or None when one cannot be derived."""
    request = mapping["request"]
    method = request.get("method", "ANY")
    target = _target(request)
    if target is None:
        return None
    query = {}
    for name, matcher in (request.get("queryParameters") or {}).items():
        value = satisfying(matcher)
        if value is not None:
            query[name] = value
    if query:
        target += ("&" if "?" in target else "?") + urllib.parse.urlencode(query)
    headers = {}
    for name, matcher in (request.get("headers") or {}).items():
        value = satisfying(matcher)
        if value is not None:
            headers[name] = value
    if isinstance(request.get("host"), dict):
        headers["Host"] = satisfying(request["host"]) or "localhost"
    cookies = [f"{name}={satisfying(matcher)}" for name, matcher in (request.get("cookies") or {}).items()
               if satisfying(matcher) is not None]
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    credentials = request.get("basicAuthCredentials") or request.get("basicAuth")
    if isinstance(credentials, dict):
        token = base64.b64encode(f"{credentials.get('username', '')}:{credentials.get('password', '')}".encode()).decode()
        headers["Authorization"] = "Basic " + token
    built = {"method": "GET" if method in ("ANY", None) else method, "target": target, "headers": headers}
    if request.get("bodyPatterns"):
        body, content_type = body_for(request["bodyPatterns"])
        if body is None:
            return None
        built["body"] = body
        if content_type and not any(n.lower() == "content-type" for n in headers):
            headers["Content-Type"] = content_type
    return built


def near_misses(mapping, request):
    """Requests that change one thing the pattern checks, so that this mapping should not match."""
    pattern = mapping["request"]
    misses = [dict(request, target=request["target"].split("?")[0].rstrip("/") + "/zz-no-such-path"
                   + ("?" + request["target"].split("?", 1)[1] if "?" in request["target"] else ""))]
    if pattern.get("method") not in (None, "ANY"):
        other = "DELETE" if request["method"] != "DELETE" else "GET"
        misses.append(dict(request, method=other))
    required = [n for n, m in (pattern.get("headers") or {}).items() if satisfying(m) is not None]
    if required:
        misses.append(dict(request, headers={n: v for n, v in request["headers"].items() if n != required[0]}))
    elif pattern.get("queryParameters") and "?" in request["target"]:
        misses.append(dict(request, target=request["target"].split("?")[0]))
    elif pattern.get("bodyPatterns"):
        misses.append(dict(request, body=""))
    return misses


def scenario_walk(mapping, everything):
    """The requests that bring the mapping's scenario from Started to the state the mapping requires."""
    scenario, required = mapping.get("scenarioName"), mapping.get("requiredScenarioState")
    if not scenario or required in (None, "Started"):
        return []
    transitions = [m for _, _, m in everything if m.get("scenarioName") == scenario and m.get("newScenarioState")]
    frontier, seen = [("Started", [])], {"Started"}
    while frontier:
        state, path = frontier.pop(0)
        for step in transitions:
            if step.get("requiredScenarioState", "Started") == state and step["newScenarioState"] not in seen:
                made = matching_request(step)
                if made is None:
                    continue
                walk = path + [made]
                if step["newScenarioState"] == required:
                    return walk
                seen.add(step["newScenarioState"])
                frontier.append((step["newScenarioState"], walk))
    return []


def static_file_requests(root, limit=5):
    """GETs of files under __files/, which WireMock serves without a stub."""
    files = sorted(p for p in pathlib.Path(root, "__files").rglob("*") if p.is_file())[:limit]
    return [{"method": "GET", "target": "/" + urllib.parse.quote(str(p.relative_to(pathlib.Path(root, "__files")))),
             "headers": {}} for p in files]


def scripts_for(root):
    everything = load_mappings(root)
    scripts = []
    for file, index, mapping in everything:
        made = matching_request(mapping)
        name = f"{file}#{index}"
        if made is None:
            scripts.append({"name": name, "mapping": [file, index], "underivable": True, "requests": []})
            continue
        walk = scenario_walk(mapping, everything)
        requests = walk + [made] + near_misses(mapping, made)
        scripts.append({"name": name, "mapping": [file, index], "setup": len(walk), "requests": requests})
    statics = static_file_requests(root)
    if statics:
        scripts.append({"name": "__files (static web root)", "mapping": None, "setup": 0, "requests": statics})
    return scripts


def provenance(entry):
    """The root's PROVENANCE.md, from its entry in roots.json (the one place the facts are kept)."""
    lines = [f"# Provenance: {entry['name']}", "",
             f"- Repository: https://github.com/{entry['repository']}",
             f"- Path in the repository: `{entry['path']}`",
             f"- Licence: {entry['licence']}",
             f"- Global response templating: {'yes' if entry['templating'] else 'no'} ({entry['templatingSource']})",
             *([f"- Local response templating (`transformers: [\"response-template\"]` renders; the 2.35 jar is started "
                f"with `--local-response-templating`): {entry['localTemplating']}"] if entry.get("localTemplating") else []),
             "- Copied verbatim (bytes, line endings and all) from the public-code search index; each file is the",
             "  version the index stored, at the commit below. Where the commits differ, this set of files may",
             "  never have stood together at one commit of the project.", "", "| file | commit |", "|---|---|"]
    lines += [f"| `{name}` | {commit} |" for name, commit in sorted(entry["files"].items())]
    if entry["omitted"]:
        lines += ["", "Not kept:", ""] + [f"- {item}" for item in entry["omitted"]]
    return "\n".join(lines) + "\n"


def main():
    SCRIPTS.mkdir(exist_ok=True)
    for entry in json.loads(INDEX.read_text())["roots"]:
        root = ROOTS / entry["name"]
        (root / "PROVENANCE.md").write_text(provenance(entry))
        scripts = scripts_for(root)
        (SCRIPTS / f"{entry['name']}.json").write_text(json.dumps({"root": entry["name"], "scripts": scripts}, indent=1,
                                                                  ensure_ascii=False) + "\n")
        requests = sum(len(s["requests"]) for s in scripts)
        print(f"{entry['name']}: {len(scripts)} scripts, {requests} requests")


if __name__ == "__main__":
    main()
