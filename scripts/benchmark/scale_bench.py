"""`scripts/bench --scale`: what a request, a connection and a start cost as stubs, sessions and
connections grow (issue 46), each against its anchor in the same run.

- **Instructions per request at 10, 100, 1 000 and 10 000 stubs**, for exact-path, path-pattern and
  templated stubs, counted under callgrind as the gate counts (the request always matches the LAST stub
  of the set, so a scan would show). The C evhttp hello server is counted in the same run.
- **Instructions per request on a session port with 1, 100 and 1 000 live sessions**: the measured
  session holds the gate's 100 exact stubs, the others one stub each and no traffic.
- **RSS per idle keep-alive connection at 10, 100, 1 000 and 10 000 connections**, against nginx (one worker):
  each connection sends one request, reads its answer and stays open; the server's RSS after all are
  idle minus its RSS before, over the count. The daemon keeps 1 000 journal entries in memory and has
  answered 2 000 requests before, so the connections' requests replace entries rather than add them.
- **Start-up with 100 and 10 000 stubs** under callgrind, exec to the first 200, against the C hello.

The gate (`scripts/bench --gate`) counts the instruction points and the 10 000-stub start against the
`scale` budgets and ratios in gate-budget.json; this bench prints everything with the RSS points too, as
the table RESULTS.md opens with.
"""
import http.client
import json
import os
import resource
import selectors
import socket
import sys
import time

from scripts.benchmark import startup_callgrind
from scripts.benchmark import stubgen
from scripts.benchmark.bench_session import BenchSession, ScenarioError
from scripts.benchmark.callgrind_profile import allocations, profile
from scripts.benchmark.session_port import SessionPort
from scripts.lib.understudy_daemon import Daemon

STUB_COUNTS = (10, 100, 1_000, 10_000)
SESSION_COUNTS = (1, 100, 1_000)
CONNECTION_COUNTS = (10, 100, 1_000, 10_000)
JOURNAL_LIMIT = 1_000

# kind: (writes `count` stubs into a directory, the path that matches the last, the body it answers)
KINDS = {
    "exact": (stubgen.exact_path_stubs, stubgen.exact_path, lambda n: b"hello"),
    "patterns": (stubgen.path_pattern_stubs, stubgen.pattern_path, lambda n: b"hello"),
    "templated": (stubgen.templated_stubs, stubgen.exact_path, lambda n: b"hello %d" % n),
}


def point_names(stub_counts=STUB_COUNTS, session_counts=SESSION_COUNTS):
    """Every instruction point's name, e.g. `exact10000`, `sessions1000`."""
    return [f"{kind}{n}" for kind in KINDS for n in stub_counts] + [f"sessions{n}" for n in session_counts]


def _count(session, tools, name, command, path, load, prepare):
    """Ir and allocations per request of one point, its journal checked to hold every request once."""
    out_file, totals, non_2xx, _ = profile(session.out_dir, tools, name, command, path, load["requests"],
                                           session.config.server_cpu, session.config.load_cpu,
                                           warmup=load["warmup"], connections=load["connections"], prepare=prepare)
    if non_2xx:
        raise ScenarioError(f"{name}: {non_2xx} of {load['requests']} answers were not 2xx")
    return {"ir": totals / load["requests"], "allocations": allocations(out_file) / load["requests"]}


def _stub_point(session, tools, kind, count, load):
    write, path_for, body_for = KINDS[kind]
    name = f"{kind}{count}"
    directory = os.path.join(session.tmp, f"scale-{name}")
    if not os.path.isdir(directory):
        write(directory, count)
    path = path_for(count)
    journal = session.journal_path()

    def prepare(server):
        session.check_answer(server, path, body=body_for(count))
        return server.port

    figures = _count(session, tools, name, session.understudy_command(directory, 0, journal), path, load, prepare)
    _check_journal(session, name, journal, load)
    return figures


def _create_idle_sessions(server, count):
    """`count` sessions of one stub each, created over one kept-alive admin connection."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    try:
        for index in range(count):
            body = json.dumps({"name": f"idle-{index}", "stubs": stubgen.exact_path_stub_objects(1, prefix="i")})
            connection.request("POST", "/__admin/sessions", body=body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            answer = response.read()
            if response.status != 201:
                raise ScenarioError(f"creating idle session {index + 1} of {count} answered {response.status}: "
                                    f"{answer[:200]!r}")
    finally:
        connection.close()


def _session_point(session, tools, count, load):
    name = f"sessions{count}"
    path = stubgen.exact_path(100)
    journal = session.journal_path()

    def prepare(server):
        _create_idle_sessions(server, count - 1)
        port = SessionPort(server, stubgen.exact_path_stub_objects(100))
        session.check_answer(port, path)
        return port.port

    command = session.understudy_command(session.stub_dirs["empty"], 0, journal,
                                         extra=("--max-sessions", str(max(count, 1) + 10)))
    figures = _count(session, tools, name, command, path, load, prepare)
    _check_journal(session, name, journal, load)
    return figures


def _check_journal(session, name, journal, load):
    # Every answered request in the file exactly once: the check, the warm-up and the counted load
    # (admin calls, the sessions' creation among them, are not journaled).
    lines = session.count_lines(journal)
    expected = 1 + load["warmup"] + load["requests"]
    if lines != expected:
        raise ScenarioError(f"{name}: the journal file holds {lines} lines for {expected} requests")
    os.remove(journal)


def measure_points(session, tools, load, names):
    """{name: {"ir", "allocations"}} for each point in `names` (see `point_names`)."""
    figures = {}
    for name in names:
        if name.startswith("sessions"):
            figures[name] = _session_point(session, tools, int(name[len("sessions"):]), load)
        else:
            kind = next(k for k in KINDS if name.startswith(k) and name[len(k):].isdigit())
            figures[name] = _stub_point(session, tools, kind, int(name[len(kind):]), load)
        session.log(f"   {name:16} {figures[name]['ir']:9,.0f} Ir/request "
                    f"({figures[name]['allocations']:.1f} allocations)")
    return figures


def _raise_descriptor_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < wanted:
        try:  # root (CI) may raise the hard limit too
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
        except (ValueError, OSError):
            pass
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _open_idle(port, count, path, deadline_seconds=120):
    """`count` connections, each with one request answered and then left open; returns the sockets."""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    selector = selectors.DefaultSelector()
    sockets = []
    waiting = {}
    deadline = time.monotonic() + deadline_seconds
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(request)
            sock.setblocking(False)
            sockets.append(sock)
            waiting[sock.fileno()] = b""
            selector.register(sock, selectors.EVENT_READ)
            # Read what has arrived so far, so the server's socket buffers do not pile up.
            _drain(selector, waiting, timeout=0)
        while waiting and time.monotonic() < deadline:
            _drain(selector, waiting, timeout=1)
        if waiting:
            raise ScenarioError(f"{len(waiting)} of {count} connections got no whole answer within {deadline_seconds} s")
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    finally:
        selector.close()
    return sockets


def _drain(selector, waiting, timeout):
    for key, _ in selector.select(timeout):
        sock = key.fileobj
        data = sock.recv(4096)
        if not data:
            raise ScenarioError("the server closed an idle connection while it was being opened")
        seen = waiting[sock.fileno()] + data
        head, separator, body = seen.partition(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        if separator and length is not None and len(body) >= length:
            if not head.startswith(b"HTTP/1.1 200"):
                raise ScenarioError(f"an idle connection's request answered {head.splitlines()[0]!r}")
            del waiting[sock.fileno()]
            selector.unregister(sock)
        else:
            waiting[sock.fileno()] = seen


def _rss_per_connection(session, server, count, path):
    """(RSS before in KiB, RSS with `count` idle connections in KiB, bytes per connection)."""
    status, _ = server.get(path)
    if status != 200:
        raise ScenarioError(f"{server.name}: GET {path} answered {status}")
    # Twice the journal's in-memory limit first (below), so its ring is full and an idle connection's
    # request replaces an entry instead of adding one: what is measured is the connection's memory,
    # not the journal's (the `memory` scenario measures a journal entry's). The same load for nginx.
    session.fixed_load(server, 2 * JOURNAL_LIMIT, [path], connections=10)
    before = server.rss_kb()
    sockets = _open_idle(server.port, count, path)
    try:
        after = server.rss_kb()
        if not server.alive():
            raise ScenarioError(f"{server.name} exited with {count} connections open")
    finally:
        for sock in sockets:
            sock.close()
    return before, after, (after - before) * 1024 / count


def _understudy_rss(session, count, path):
    journal = session.journal_path()
    server = Daemon(command=session.understudy_command(session.stub_dirs["exact100"], 0, journal,
                                                       extra=("--idle-timeout", "600",
                                                              "--journal-limit", str(JOURNAL_LIMIT))),
                    cpu=session.config.server_cpu, name="understudy",
                    stderr_path=os.path.join(session.out_dir, "scale.understudy.log"), append_log=True, timeout=60)
    try:
        return _rss_per_connection(session, server, count, path)
    finally:
        server.stop()
        if os.path.exists(journal):
            os.remove(journal)


def _nginx_rss(session, count, path):
    port = session.free_port()
    nginx = Daemon(command=session.nginx_command(port, worker_connections=count + 100),
                   cpu=session.config.server_cpu, name="nginx",
                   stderr_path=os.path.join(session.out_dir, "scale.nginx.log"), append_log=True, ready_port=port)
    try:
        return _rss_per_connection(session, nginx, count, path)
    finally:
        nginx.stop()


def measure_connections(session, counts=CONNECTION_COUNTS, anchor=True):
    """{count: {"understudy": (...), "nginx": (...)}} as `_rss_per_connection` returns, a fresh server
    per point (freed memory is not always given back, so a second point on one server would start
    from the first's high-water mark). nginx only with `anchor`."""
    wanted = max(counts)
    limit = _raise_descriptor_limit(wanted + 200)  # inherited by the servers started below
    if limit < wanted + 100:
        raise ScenarioError(f"the open-file limit is {limit}: {wanted:,} connections need {wanted + 100:,} "
                            f"(`ulimit -n`; root can raise the hard limit)")
    path = stubgen.exact_path(100)
    results = {}
    for count in counts:
        results[count] = {"understudy": _understudy_rss(session, count, path)}
        if anchor and session.has_nginx():
            results[count]["nginx"] = _nginx_rss(session, count, path)
        for name, (before, after, per) in results[count].items():
            session.log(f"   {name:10} RSS {before:,} KiB -> {after:,} KiB with {count:,} idle connections: "
                        f"{per:,.0f} bytes each")
    return results


def connections_table(results, budget=None):
    """Markdown rows of `measure_connections`' results; returns (text, failed) against `budget`
    (bytes per connection at the largest count)."""
    lines = ["| idle connections | Understudy RSS before → with them | bytes per connection | nginx | ratio |",
             "|---|---|---|---|---|"]
    failed = False
    for count, servers in results.items():
        before, after, per = servers["understudy"]
        nginx = servers.get("nginx")
        over = budget is not None and count == max(results) and per > budget
        failed |= over
        lines.append(f"| {count:,} | {before:,} → {after:,} KiB | {per:,.0f}" + (" **OVER**" if over else "")
                     + (f" (≤ {budget:,})" if budget is not None and count == max(results) else "")
                     + (f" | {nginx[2]:,.0f} | {per / nginx[2]:.2f} × |" if nginx and nginx[2] > 0 else " | — | — |"))
    return "\n".join(lines), failed


def ratio_failures(figures, ratios):
    """[(description, value, ceiling)] for each ratio in `ratios` ({"exact10000/exact100": 1.2}) over its ceiling."""
    over = []
    for key, ceiling in ratios.items():
        top, bottom = key.split("/")
        if top in figures and bottom in figures:
            value = figures[top]["ir"] / figures[bottom]["ir"]
            if value > ceiling:
                over.append((key, value, ceiling))
    return over


def points_table(figures, hello, budgets=None, ratios=None):
    """Markdown: one row per kind, a column per count, then the ratios. Returns (text, failed)."""
    budgets = budgets or {}
    failed = False
    lines = ["| stubs | " + " | ".join(f"{n:,}" for n in STUB_COUNTS) + " | 10,000 / 100 |",
             "|---|" + "---|" * (len(STUB_COUNTS) + 1)]

    def cell(name):
        nonlocal failed
        if name not in figures:
            return "—"
        value = figures[name]["ir"]
        limit = budgets.get(name)
        over = limit is not None and value > limit
        failed |= over
        return f"{value:,.0f}" + (" **OVER**" if over else "") + (f" (≤ {limit:,})" if limit else "")

    for kind in KINDS:
        top, bottom = f"{kind}{STUB_COUNTS[-1]}", f"{kind}100"
        growth = (f"{figures[top]['ir'] / figures[bottom]['ir']:.2f} ×"
                  if top in figures and bottom in figures else "—")
        ceiling = (ratios or {}).get(f"{top}/{bottom}")
        lines.append(f"| {kind} | " + " | ".join(cell(f"{kind}{n}") for n in STUB_COUNTS) + f" | {growth}"
                     + (f" (≤ {ceiling:.1f} ×)" if ceiling else "") + " |")
    lines += ["", "| live sessions | " + " | ".join(f"{n:,}" for n in SESSION_COUNTS) + " |",
              "|---|" + "---|" * len(SESSION_COUNTS),
              "| Ir/request on the session port | " + " | ".join(cell(f"sessions{n}") for n in SESSION_COUNTS) + " |"]
    over = ratio_failures(figures, ratios or {})
    for key, value, ceiling in over:
        lines.append(f"\n**{key} = {value:.2f} ×, over its ceiling {ceiling:.2f} ×**")
    failed |= bool(over)
    if hello:
        lines.append(f"\n(C evhttp hello in the same run: {hello:,.0f} Ir/request)")
    return "\n".join(lines), failed


def run(config, tools, understudy):
    from scripts.benchmark.gate import load_budget, measure_hello
    budget = load_budget()
    load = budget.get("scale", {}).get("load", budget["load"])
    session = BenchSession(config, tools, understudy)
    try:
        session.log(f"== instructions per request as stubs and sessions grow: {load['requests']} requests over "
                    f"{load['connections']} keep-alive connections after {load['warmup']} unmeasured, under callgrind")
        hello = measure_hello(session, tools, load)
        figures = measure_points(session, tools, load, point_names())
        session.log("== RSS per idle keep-alive connection, 10 to 10 000 connections")
        connections = measure_connections(session)
        session.log("== start-up under callgrind: exec -> first 200")
        starts = startup_callgrind.measure(session, ("exact100", "exact10000"))
    except ScenarioError as error:
        print(f"scripts/bench --scale: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        session.close()
    scale = budget.get("scale", {})
    print("\n### Instructions per keep-alive request as stubs grow (callgrind)\n")
    text, failed = points_table(figures, hello, scale.get("budgets"), scale.get("ratios"))
    print(text)
    print("\n### RSS per idle keep-alive connection (each with one request answered)\n")
    text, over_rss = connections_table(connections, scale.get("rssPerConnection"))
    print(text)
    failed |= over_rss
    text, over = startup_callgrind.table(starts, budget.get("startup", {}))
    print("\n### Start-up: instructions from exec to the first 200\n")
    print(text)
    return 1 if failed or over else 0
