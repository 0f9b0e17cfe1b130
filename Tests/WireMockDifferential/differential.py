"""The WireMock differential suite: the same mappings and request scripts against the real WireMock
2.35 standalone jar and against Understudy, compared response by response.

For each request it compares the status, the headers the matched mapping sets, and the body (or, for
faults, how the connection broke). A request WireMock answers without a `Matched-Stub-Id` header is
unmatched; Understudy must then be unmatched too (same status; its body explains the near misses, an
intended difference). Delays are checked as lower bounds on both servers.

Run by hand from the repository root: `python3 -m Tests.WireMockDifferential.differential [--understudy BIN]`
(prints a report).
"""
import base64
import gzip
import glob
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from scripts.lib.understudy_daemon import Daemon

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE / "root"
SCRIPTS = HERE / "scripts.json"
# The templating corpus: both servers run with `--global-response-templating`.
TEMPLATING_ROOT = HERE / "root-templating"
TEMPLATING_SCRIPTS = HERE / "scripts-templating.json"
TEMPLATING_FLAGS = ["--global-response-templating"]


def wiremock_jar():
    """The standalone jar bundled in the PyPI `wiremock` package, or None."""
    try:
        import wiremock  # noqa: F401
    except ImportError:
        return None
    found = sorted(glob.glob(os.path.join(os.path.dirname(wiremock.__file__), "server", "wiremock-standalone-*.jar")))
    return found[-1] if found else None


class WireMockProcess:
    """`java -jar wiremock-standalone.jar --port 0 --root-dir ROOT [EXTRA_ARGS]` on loopback (the
    real-world corpus passes `--global-response-templating` for the projects that run WireMock so).

    The port is the one WireMock reports (`port: N` in its start-up listing), not one picked in advance:
    a port probed free and handed over can be taken by another server in between, and when that server
    is an Understudy (which answers WireMock's admin API too) the harness would compare Understudy with
    itself."""

    _PORT = re.compile(rb"^port:\s+(\d+)", re.MULTILINE)

    def __init__(self, root, timeout=60.0, extra_args=()):
        jar = wiremock_jar()
        if jar is None or shutil.which("java") is None:
            raise RuntimeError("WireMock needs `java` (Debian: default-jre-headless) and `pip install wiremock`")
        self.port = None
        self.log = tempfile.NamedTemporaryFile()
        # C1 only and the serial collector: the JVM starts a third faster, and these short runs never
        # need the optimising compiler (the real-world corpus starts it a score of times).
        self.process = subprocess.Popen(["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar,
                                         "--port", "0", "--bind-address", "127.0.0.1",
                                         "--root-dir", str(root), "--disable-banner", "--no-request-journal",
                                         *extra_args],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if self.port is None:
                found = self._PORT.search(pathlib.Path(self.log.name).read_bytes())
                self.port = int(found.group(1)) if found else None
            if self.port is not None:
                try:
                    if send(self.port, {"method": "GET", "target": "/__admin/mappings"}).get("status") == 200:
                        return
                except OSError:
                    pass
            time.sleep(0.1)  # polling with a deadline: the JVM prints no readiness line we could wait on
        self.stop()
        raise RuntimeError("WireMock did not start")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def send(port, request, timeout=10.0):
    """Sends one request on a fresh connection and reads until the server closes it. Returns
    {"status", "reason", "headers": [(name, value)], "body": bytes, "elapsed"} or {"error": kind}."""
    body = request.get("body", "").encode() if "bodyBase64" not in request else base64.b64decode(request["bodyBase64"])
    # Faults are sent as keep-alive clients send them (the server closes anyway); the rest with
    # `Connection: close`, so reading to the end of the connection reads one whole response.
    head = f"{request['method']} {request['target']} HTTP/1.1\r\n"
    # A script may name the Host (WireMock's `host` matcher); otherwise it is the server's address.
    if not any(name.lower() == "host" for name in request.get("headers", {})):
        head += f"Host: 127.0.0.1:{port}\r\n"
    # A script that names `Connection` itself (a case of its value, issue 43) sends only its own.
    if not request.get("keepAlive") and not any(name.lower() == "connection" for name in request.get("headers", {})):
        head += "Connection: close\r\n"
    for name, value in request.get("headers", {}).items():
        head += f"{name}: {value}\r\n"
    if body or request["method"] in ("POST", "PUT", "PATCH"):
        head += f"Content-Length: {len(body)}\r\n"
    started = time.monotonic()
    data = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head.encode() + b"\r\n" + body)
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except ConnectionResetError:
            return {"error": "connection-reset", "elapsed": time.monotonic() - started}
    elapsed = time.monotonic() - started
    if not data:
        return {"error": "empty-response", "elapsed": elapsed}
    if not data.startswith(b"HTTP/1."):
        return {"error": "not-http", "elapsed": elapsed}
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return {"error": "truncated-head", "elapsed": elapsed}
    lines = data[:head_end].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    status, reason = int(parts[1]), parts[2] if len(parts) > 2 else ""
    headers = [tuple(x.strip() for x in line.split(":", 1)) for line in lines[1:]]
    rest = data[head_end + 4:]
    lowered = {name.lower(): value for name, value in headers}
    if request["method"] == "HEAD" or status in (204, 304):
        body = b""
    elif lowered.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            line_end = rest.find(b"\r\n")
            try:
                size = int(rest[:line_end].split(b";")[0], 16)
            except ValueError:
                return {"error": "malformed-chunk", "elapsed": elapsed}
            if size == 0:
                break
            body += rest[line_end + 2:line_end + 2 + size]
            rest = rest[line_end + 2 + size + 2:]
    elif "content-length" in lowered:
        body = rest[:int(lowered["content-length"])]
        if len(body) < int(lowered["content-length"]):
            return {"error": "truncated-body", "elapsed": elapsed}
    else:
        body = rest
    # A gzipped answer is compared decoded (Java's and zlib's gzip headers differ in the OS byte), with
    # its Content-Encoding and Vary (see `compare`).
    if lowered.get("content-encoding", "").lower() == "gzip" and body:
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError) as error:
            return {"error": f"bad-gzip ({error})", "elapsed": elapsed}
    return {"status": status, "reason": reason, "headers": headers, "body": body, "elapsed": elapsed}


def header_values(response, name):
    return [v for n, v in response["headers"] if n.lower() == name.lower()]


def load_mappings(root):
    """Every mapping of the corpus by id."""
    mappings = {}
    for path in sorted(pathlib.Path(root, "mappings").rglob("*.json")):
        document = json.loads(path.read_text())
        for mapping in document.get("mappings", [document]):
            mappings[mapping["id"]] = mapping
    return mappings


def delay_floor(mapping):
    """The least delay WireMock's rules allow for the mapping, in seconds."""
    response = mapping["response"]
    floor = response.get("fixedDelayMilliseconds", 0)
    distribution = response.get("delayDistribution")
    if distribution and distribution["type"] == "uniform":
        floor += distribution["lower"]
    return floor / 1000.0


def compare(request, expected, actual, mappings, converted=False):
    """Differences between WireMock's answer (`expected`) and Understudy's, as a list of strings,
    and the kind of outcome ("matched", "unmatched", "fault"). `converted`: Understudy serves the native
    stubs `convert-wiremock` wrote, which name a missing body file whose tags WireMock leaves unrendered
    (templating off) with single braces (native templates cannot escape `{{`), so the file a missing-file
    page names is not compared."""
    if "error" in expected:
        kind = "fault"
        if "error" not in actual:
            return kind, [f"WireMock broke the connection ({expected['error']}), Understudy answered {actual['status']}"]
        return kind, [] if expected["error"] == actual["error"] else [f"fault {expected['error']} ≠ {actual['error']}"]
    if "error" in actual:
        return "fault", [f"Understudy broke the connection ({actual['error']}), WireMock answered {expected['status']}"]
    if request["target"].startswith("/__admin"):
        # A script's admin call (a delete, a reset) is there for what it does to the answers after it;
        # the two admin APIs' bodies differ by design, their statuses must not.
        return "admin", [] if actual["status"] == expected["status"] else [f"admin status {actual['status']} ≠ {expected['status']}"]
    stub_ids = header_values(expected, "Matched-Stub-Id")
    if not stub_ids and expected["status"] != 404:
        return "no mapping", compare_unmapped(expected, actual, converted)
    if not stub_ids:
        differences = []
        if actual["status"] != expected["status"]:
            differences.append(f"unmatched: status {actual['status']} ≠ WireMock's {expected['status']}")
        if request["method"] != "HEAD" and not actual["body"].startswith(b"No stub matched"):
            differences.append("unmatched on WireMock, but Understudy answered from a stub: " + actual["body"][:80].decode(errors="replace"))
        return "unmatched", differences
    mapping = mappings[stub_ids[0]]
    response = mapping["response"]
    differences = []
    if actual["status"] != expected["status"]:
        differences.append(f"status {actual['status']} ≠ {expected['status']}")
    if "statusMessage" in response and actual["reason"] != expected["reason"]:
        differences.append(f"reason {actual['reason']!r} ≠ {expected['reason']!r}")
    # Content-Encoding and Vary as Jetty's gzip handler sets them, whether or not the mapping names them
    # (not for converted stubs: the native format has no Jetty default, so they send neither).
    names = set(response.get("headers", {}))
    if not converted:
        names |= {"Content-Encoding", "Vary"}
    for name in sorted(names):
        if header_values(actual, name) != header_values(expected, name):
            differences.append(f"header {name}: {header_values(actual, name)} ≠ {header_values(expected, name)}")
    # A body that varies by design (random values, the time, the port) is held to the shape its
    # mapping's `metadata.differential.bodyPattern` gives, on both servers.
    shape = mapping.get("metadata", {}).get("differential", {}).get("bodyPattern")
    if shape is not None:
        for who, answer in (("WireMock", expected), ("Understudy", actual)):
            if not re.fullmatch(shape, answer["body"].decode(errors="replace")):
                differences.append(f"{who}'s body {answer['body'][:80]!r} does not match {shape!r}")
    elif actual["body"] != expected["body"]:
        differences.append(f"body {actual['body'][:80]!r} ≠ {expected['body'][:80]!r}")
    floor = delay_floor(mapping)
    if floor:
        for who, answer in (("WireMock", expected), ("Understudy", actual)):
            if answer["elapsed"] < floor:
                differences.append(f"{who} answered after {answer['elapsed']*1000:.0f} ms, before the {floor*1000:.0f} ms delay")
    return "matched", differences


def jetty_page(body):
    """A Jetty error page without what WireMock itself does not keep stable: the Java stack trace's frames
    (`\tat …` and `\t... N more` lines), the servlet's instance name (its hash code, new every run) and
    where the root sits on disk (the directory before `__files/` in a missing file's path, which is the
    output directory for the stubs `convert-wiremock` writes)."""
    body = re.sub(rb"\n\t(at |\.\.\. )[^\n]*", b"", body)
    body = re.sub(rb"/[^ \"<>]*/__files/", b"ROOT/__files/", body)
    return re.sub(rb"(Servlet)-[0-9a-f]+", rb"\1-ID", body)


def compare_unmapped(expected, actual, converted=False):
    """WireMock's answers that no mapping gives (no `Matched-Stub-Id`) and that are not a miss: a file of
    `__files/` served as a static web root, a directory of it refused (403), or the 500 of a mapping whose
    body file is missing. Status, Content-Type and body must be the same, Jetty's error pages compared as
    `jetty_page` leaves them; the 500 also closes the connection (`Connection: close`) in both."""
    differences = []
    if actual["status"] != expected["status"]:
        differences.append(f"status {actual['status']} ≠ WireMock's {expected['status']} (no mapping)")
    if header_values(actual, "Content-Type") != header_values(expected, "Content-Type"):
        differences.append(f"header Content-Type: {header_values(actual, 'Content-Type')} ≠ {header_values(expected, 'Content-Type')}")
    if expected["status"] >= 400:
        page = (lambda body: re.sub(rb"FileNotFoundException: [^\n<\"]* \(No such", b"FileNotFoundException: FILE (No such",
                                    jetty_page(body))) if converted else jetty_page
        if page(actual["body"]) != page(expected["body"]):
            differences.append(f"error page {page(actual['body'])[:300]!r} ≠ {page(expected['body'])[:300]!r}")
        wanted = [v.lower() for v in header_values(expected, "Connection")]
        if [v.lower() for v in header_values(actual, "Connection")] != wanted:
            differences.append(f"header Connection: {header_values(actual, 'Connection')} ≠ {header_values(expected, 'Connection')}")
    elif actual["body"] != expected["body"]:
        differences.append(f"body {actual['body'][:80]!r} ≠ {expected['body'][:80]!r}")
    return differences


def reset(port):
    send(port, {"method": "POST", "target": "/__admin/reset"})


def record(port, scripts):
    """Every script's answers from one server, resetting state before each script."""
    results = []
    for script in scripts:
        reset(port)
        results.append([send(port, request) for request in script["requests"]])
    return results


def run(binary, understudy_paths=None, wiremock_results=None, root=ROOT, scripts_path=SCRIPTS, flags=(), skip=(),
        converted=False):
    """Runs the corpus (`root` and its scripts) against WireMock (unless its results are given, for every
    script) and Understudy, both with `flags`; returns a report dict with counts by outcome and every
    difference. Scripts named in `skip` are left out (and their given WireMock results with them)."""
    scripts = json.loads(pathlib.Path(scripts_path).read_text())["scripts"]
    if wiremock_results is not None:
        wiremock_results = [r for script, r in zip(scripts, wiremock_results) if script["name"] not in skip]
    scripts = [script for script in scripts if script["name"] not in skip]
    mappings = load_mappings(root)
    if wiremock_results is None:
        wiremock = WireMockProcess(root, extra_args=flags)
        try:
            wiremock_results = record(wiremock.port, scripts)
        finally:
            wiremock.stop()
    understudy = Daemon(command=[binary, "serve", "--port", "0", "--quiet", *flags,
                                 *map(str, understudy_paths or [root])])
    try:
        understudy_results = record(understudy.port, scripts)
    finally:
        understudy.stop()
    report = {"mappings": len(mappings), "requests": 0, "outcomes": {}, "differences": [], "wiremock": wiremock_results}
    for script, expected_list, actual_list in zip(scripts, wiremock_results, understudy_results):
        for request, expected, actual in zip(script["requests"], expected_list, actual_list):
            kind, differences = compare(request, expected, actual, mappings, converted)
            report["requests"] += 1
            counts = report["outcomes"].setdefault(kind, {"total": 0, "agree": 0})
            counts["total"] += 1
            if differences:
                report["differences"].append({"script": script["name"], "request": f"{request['method']} {request['target']}",
                                              "kind": kind, "differences": differences})
            else:
                counts["agree"] += 1
    return report


def summary(report):
    lines = [f"{report['mappings']} mappings, {report['requests']} requests"]
    for kind, counts in sorted(report["outcomes"].items()):
        lines.append(f"  {kind}: {counts['agree']}/{counts['total']} agree")
    for difference in report["differences"]:
        lines.append(f"  DIFF [{difference['script']}] {difference['request']} ({difference['kind']}): " + "; ".join(difference["differences"]))
    return "\n".join(lines)


if __name__ == "__main__":
    binary = sys.argv[sys.argv.index("--understudy") + 1] if "--understudy" in sys.argv else str(
        pathlib.Path(subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True,
                                    cwd=HERE.parents[1]).stdout.strip(), "understudy"))
    started = time.monotonic()
    report = run(binary)
    print(summary(report))
    print("templating corpus (--global-response-templating):")
    print(summary(run(binary, root=TEMPLATING_ROOT, scripts_path=TEMPLATING_SCRIPTS, flags=TEMPLATING_FLAGS)))
    print(f"took {time.monotonic() - started:.1f} s")
