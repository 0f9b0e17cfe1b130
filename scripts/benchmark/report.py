"""Turns raw scenario figures into the table of ratios to the baseline, with the issue's targets."""
import math
import os
import re
import statistics

BEGIN = "<!-- BEGIN scripts/bench results: generated, replaced by each recorded run -->"
END = "<!-- END scripts/bench results -->"
MB = 2**20


def _median(values):
    values = [v for v in values if v is not None and not math.isnan(v)]
    return statistics.median(values) if values else None


def _rps(x):
    return "—" if x is None else f"{x:,.0f}".replace(",", " ")


def _ms(x):
    return "—" if x is None else (f"{x:.2f} ms" if x < 10 else f"{x:.1f} ms")


def _mb(x):
    return "—" if x is None else f"{x / MB:.1f} MB"


def _ratio(u, b):
    return None if u is None or b in (None, 0) else u / b


def _fmt_ratio(r):
    return "—" if r is None else f"{r:.2f} ×"


def _verdict(ok):
    return "n/a" if ok is None else ("**met**" if ok else "**NOT met**")


class Table:
    def __init__(self):
        self.rows = []

    def add(self, scenario, metric, baseline, understudy, ratio, target, verdict):
        self.rows.append([scenario, metric, baseline, understudy, ratio, target, verdict])

    def markdown(self):
        header = ["scenario", "metric", "C baseline", "Understudy", "ratio U/B", "target", "verdict"]
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in self.rows]
        return "\n".join(lines)


def _throughput_figures(result, who):
    rounds = result.get(who, [])
    return (_median([r["requests_per_second"] for r in rounds]), _median([r["p99_ms"] for r in rounds]),
            sum(r["non_2xx"] for r in rounds), sum(r["socket_errors"] for r in rounds))


def _throughput_rows(table, label, result, rps_target=None, p99_target=None, changelist_target=None,
                     reference_target=0.95, nginx_target=None, nginx_p99_target=None):
    if "error" in result:
        table.add(label, "req/s", "—", "—", "—", "—", f"failed: {result['error'][:160]}")
        return None
    if "skipped" in result:
        table.add(label, "req/s", "—", "—", "—", "—", f"skipped: {result['skipped'][:160]}")
        return None
    b_rps, b_p99, _, _ = _throughput_figures(result, "baseline")
    u_rps, u_p99, u_bad, _ = _throughput_figures(result, "understudy")
    invalid = f"INVALID: {u_bad} non-2xx answers" if u_bad else None
    ratio = _ratio(u_rps, b_rps)
    ok = None if ratio is None or rps_target is None else ratio >= rps_target
    table.add(label, "req/s (median)", _rps(b_rps), _rps(u_rps), _fmt_ratio(ratio),
              f"≥ {rps_target:.2f} × baseline" if rps_target else "—", invalid or _verdict(ok))
    if result.get("changelist"):
        # The second baseline: the same C server with EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.
        c_rps, c_p99, _, _ = _throughput_figures(result, "changelist")
        c_ratio = _ratio(u_rps, c_rps)
        ok = None if c_ratio is None or changelist_target is None else c_ratio >= changelist_target
        table.add(label, "req/s vs C + changelist", _rps(c_rps), _rps(u_rps), _fmt_ratio(c_ratio),
                  f"≥ {changelist_target:.2f} × (stretch)" if changelist_target else "—", invalid or _verdict(ok))
    if result.get("nginx"):
        # The second anchor (issue 31): nginx, one worker, `return 200`, measured in the same rounds.
        n_rps, n_p99, _, _ = _throughput_figures(result, "nginx")
        n_ratio = _ratio(u_rps, n_rps)
        ok = None if n_ratio is None or nginx_target is None else n_ratio >= nginx_target
        table.add(label, "req/s vs nginx", _rps(n_rps), _rps(u_rps), _fmt_ratio(n_ratio),
                  f"≥ {nginx_target:.2f} × nginx" if nginx_target else "—", invalid or _verdict(ok))
        if nginx_p99_target:
            np_ratio = _ratio(u_p99, n_p99)
            ok = None if np_ratio is None else np_ratio <= nginx_p99_target
            table.add(label, "p99 vs nginx", _ms(n_p99), _ms(u_p99), _fmt_ratio(np_ratio),
                      f"≤ {nginx_p99_target:.1f} × nginx", invalid or _verdict(ok))
    if result.get("reference"):
        # Measured in the same rounds as the 10 000-stub server, so machine noise cancels out.
        r_rps, _, r_bad, _ = _throughput_figures(result, "reference")
        ref_ratio = _ratio(u_rps, r_rps)
        table.add(label, "req/s vs 100 stubs (same rounds)", "—", f"{_rps(u_rps)} vs {_rps(r_rps)}",
                  f"{ref_ratio:.2f} × 100-stub" if ref_ratio else "—", f"≥ {reference_target:.2f} × 100-stub",
                  invalid or (f"INVALID: {r_bad} non-2xx answers" if r_bad else None)
                  or _verdict(None if ref_ratio is None else ref_ratio >= reference_target))
    p_ratio = _ratio(u_p99, b_p99)
    ok = None if p_ratio is None or p99_target is None else p_ratio <= p99_target
    table.add(label, "p99 latency (median)", _ms(b_p99), _ms(u_p99), _fmt_ratio(p_ratio),
              f"≤ {p99_target:.1f} × baseline" if p99_target else "—", invalid or _verdict(ok))
    return u_rps


def build_table(results):
    """The rows and targets of issues 10 and 31: keep-alive ≥ 1.5 × C and ≥ 0.8 × nginx with p99 ≤ 1.2 ×
    nginx's, pipelined (depth 16) ≥ 0.8 × nginx, Connection: close ≥ 1.2 × C, 10 000 stubs within 5 %
    of 100."""
    s = results["scenarios"]
    table = Table()
    if "keepalive" in s:
        _throughput_rows(table, "1 keep-alive, 100 exact stubs, 50 conns", s["keepalive"], 1.5, 1.2, 0.9,
                         nginx_target=0.8, nginx_p99_target=1.2)
    if "pipelined" in s:
        _throughput_rows(table, "1b pipelined (depth 16), 100 exact stubs, 50 conns", s["pipelined"], nginx_target=0.8)
    if "stubs10k" in s:
        _throughput_rows(table, "2 keep-alive, 10 000 exact stubs", s["stubs10k"])
    if "patterns" in s:
        _throughput_rows(table, "2 keep-alive, 100 pathPattern stubs", s["patterns"])
    if "close" in s:
        _throughput_rows(table, "3 Connection: close, 20 conns", s["close"], 1.2)
    if "session" in s:
        _throughput_rows(table, "3 keep-alive through a session port, 100 stubs", s["session"])
    if "startup" in s:
        _startup_rows(table, s["startup"])
    if "memory" in s:
        _memory_rows(table, s["memory"])
    if "soak" in s:
        _soak_rows(table, s["soak"])
    return table


def _startup_rows(table, result):
    if "error" in result:
        table.add("4 start-up", "exec → first 200", "—", "—", "—", "—", f"failed: {result['error'][:160]}")
        return
    b = _median(result.get("baseline", []))
    u100 = _median(result.get("understudy_100", []))
    u10k = _median(result.get("understudy_10000", []))
    r = _ratio(u100, b)
    table.add("4 start-up, 100 stubs", "exec → first 200 (median)", _ms(b), _ms(u100), _fmt_ratio(r),
              "≤ 1.5 × baseline", _verdict(None if r is None else r <= 1.5))
    table.add("4 start-up, 10 000 stubs", "exec → first 200 (median)", _ms(b), _ms(u10k), _fmt_ratio(_ratio(u10k, b)),
              "< 150 ms", _verdict(None if u10k is None else u10k < 150))


def memory_summary(result):
    """Bytes per in-memory journal entry and whether RSS stopped growing once the cap was full."""
    checkpoints = result.get("understudy_checkpoints") or []
    if not checkpoints:
        return None
    cap = max(c["in_memory"] or 0 for c in checkpoints)
    full = [c for c in checkpoints if c["in_memory"] == cap and c["requests"] > cap]
    final = checkpoints[-1]
    per_entry = (final["rss"] - result["understudy_idle"]) / cap if cap else None
    growth = (final["rss"] - full[0]["rss"]) if len(full) >= 2 else None
    # Bounded: after the cap filled, RSS may wobble (allocator) but not grow with the request count.
    bounded = None if growth is None else growth <= max(2 * MB, 0.05 * (full[0]["rss"] - result["understudy_idle"]))
    return {"cap": cap, "per_entry": per_entry, "growth_after_cap": growth, "bounded": bounded,
            "first_full": full[0] if full else None, "final": final}


def _memory_rows(table, result):
    if "error" in result:
        table.add("5 memory", "RSS", "—", "—", "—", "—", f"failed: {result['error'][:160]}")
        return
    idle = result.get("understudy_idle")
    table.add("5 memory", "RSS idle", _mb(result.get("baseline_idle")), _mb(idle),
              _fmt_ratio(_ratio(idle, result.get("baseline_idle"))), "≤ 12 MB",
              _verdict(None if idle is None else idle <= 12 * MB))
    summary = memory_summary(result)
    final = summary["final"]["rss"] if summary else None
    label = f"RSS after {result['requests']:,} requests".replace(",", " ")
    if summary and summary["growth_after_cap"] is not None:
        target = (f"flat once the cap ({summary['cap']:,} entries) is full: "
                  f"{summary['growth_after_cap'] / MB:+.1f} MB from {summary['first_full']['requests']:,} "
                  f"to {summary['final']['requests']:,} requests").replace(",", " ")
    else:
        target = "flat once the cap is full (cap not reached: run more requests)"
    table.add("5 memory", label, _mb(result.get("baseline_after")), _mb(final),
              _fmt_ratio(_ratio(final, result.get("baseline_after"))), target,
              _verdict(summary["bounded"] if summary else None))
    if summary and summary["per_entry"] is not None:
        table.add("5 memory", "bytes per journal entry", "—", f"{summary['per_entry']:,.0f} B".replace(",", " "),
                  "—", "state it", "stated")


def soak_summary(result):
    rates = [i["requests_per_second"] for i in result.get("intervals", [])]
    if not rates:
        return None
    k = 2 if len(rates) >= 4 else 1
    first, last = statistics.mean(rates[:k]), statistics.mean(rates[-k:])
    return {"first": first, "last": last, "ratio": last / first if first else None,
            "min": min(rates), "max": max(rates), "k": k}


def _soak_rows(table, result):
    if "error" in result:
        table.add("6 soak", "req/s over time", "—", "—", "—", "—", f"failed: {result['error'][:160]}")
        return
    summary = soak_summary(result)
    if not summary:
        table.add("6 soak", "req/s over time", "—", "not run", "—", "—", "n/a")
        return
    table.add(f"6 soak, {len(result['intervals'])} × {result['interval_seconds']:g} s, mixed", "req/s first → last",
              "—", f"{_rps(summary['first'])} → {_rps(summary['last'])}",
              f"{summary['ratio']:.2f} × first", "≥ 0.90 × first (no decline)", _verdict(summary["ratio"] >= 0.90))


def details(results):
    """Absolute figures per round, the journal check and the time series behind the table."""
    s = results["scenarios"]
    out = []
    for name in ("keepalive", "pipelined", "stubs10k", "patterns", "close", "session"):
        result = s.get(name)
        if not result or "error" in result or "skipped" in result:
            continue
        out.append(f"**{name}** (`GET {result['path']}`, {result['connections']} connections"
                   f"{', Connection: close' if result['close'] else ', keep-alive'}):")
        for who in ("baseline", "changelist", "nginx", "understudy", "reference"):
            rounds = result.get(who, [])
            if rounds:
                cells = ", ".join(f"{_rps(r['requests_per_second'])} req/s p50 {_ms(r['p50_ms'])} p99 {_ms(r['p99_ms'])}"
                                  + (f" ({r['non_2xx']} non-2xx)" if r["non_2xx"] else "")
                                  + (f" ({r['socket_errors']} socket errors)" if r["socket_errors"] else "")
                                  for r in rounds)
                label = {"reference": f"understudy, 100 stubs (`GET {result.get('reference_path')}`)",
                         "changelist": "baseline with the epoll changelist flag",
                         "nginx": "nginx, one worker, `return 200`",
                         "understudy": "understudy, session port" if result.get("session_port") else "understudy",
                         }.get(who, who)
                out.append(f"- {label}: {cells}")
        if result.get("understudy"):
            measured = sum(r["requests"] for r in result["understudy"])
            lines = result.get("journal_lines", 0)
            verdict = "every measured request is there" if lines >= measured else "**entries missing**"
            out.append(f"- journal file: {lines:,} lines for {measured:,} measured requests (plus warm-up): {verdict}; "
                       f"RSS after {_mb(result.get('understudy_rss_after'))}".replace(",", " "))
        out.append("")
    startup = s.get("startup")
    if startup and "error" not in startup:
        out.append("**start-up** (ms, exec → first 200, each start in turn):")
        for name, values in startup.items():
            out.append(f"- {name}: median {_median(values):.2f}, min {min(values):.2f}, max {max(values):.2f} "
                       f"({', '.join(f'{v:.1f}' for v in values)})")
        out.append("")
    memory = s.get("memory")
    if memory and "error" not in memory and memory.get("understudy_checkpoints"):
        out.append(f"**memory** (understudy, 100 stubs, journal file on, default cap): start "
                   f"{_mb(memory['understudy_start'])}, idle {_mb(memory['understudy_idle'])}")
        out.append("")
        out.append("| requests | RSS | entries in memory | req/s in chunk |")
        out.append("|---|---|---|---|")
        for c in memory["understudy_checkpoints"]:
            out.append(f"| {c['requests']:,} | {_mb(c['rss'])} | {c['in_memory']:,} | {_rps(c['rps'])} |".replace(",", " "))
        out.append(f"\njournal file: {memory.get('journal_lines', 0):,} lines for {memory['requests']:,} requests".replace(",", " "))
        out.append("")
    soak = s.get("soak")
    if soak and "error" not in soak and soak.get("intervals"):
        out.append("**soak** (understudy, mixed sequence / scenario / pattern / rate-limited paths):")
        out.append("")
        out.append("| until | req/s | p99 | non-2xx (429s expected) | RSS | entries in memory |")
        out.append("|---|---|---|---|---|---|")
        for i, interval in enumerate(soak["intervals"]):
            out.append(f"| {(i + 1) * soak['interval_seconds']:g} s | {_rps(interval['requests_per_second'])} | "
                       f"{_ms(interval['p99_ms'])} | {interval['non_2xx']} | {_mb(interval['rss'])} | "
                       f"{interval['in_memory']} |")
        out.append(f"\njournal file: {soak.get('journal_lines', 0):,} lines".replace(",", " "))
        out.append("")
    for name, result in s.items():
        if "error" in result:
            out.append(f"**{name} failed**: {result['error']}")
            out.append("")
    return "\n".join(out)


def header(results):
    m = results["machine"]
    c = results["config"]
    lines = [
        f"- date: {results['date']}",
        f"- command: `{results['command']}`",
        f"- machine: {m['nproc']} cores, {m['cpu']}, {m['memory_gb']} GB; `{m['uname']}`",
        f"- tools: libevent {m['libevent']}, {m['wrk']}, {m['swift']}",
        f"- commit: {m['commit']}{' (with uncommitted changes)' if m['dirty'] else ''}",
        f"- Understudy built with: `{m.get('build', 'swift build -c release --product understudy')}`",
        f"- settings: {c['rounds']} rounds × {c['duration']:g} s per server (after {c['warmup']:g} s warm-up), "
        f"interleaved baseline/Understudy; {c['starts']} starts per start-up case; "
        f"{_rps(c['memory_requests'])} requests for memory; soak {c['soak_seconds']:g} s in {c['soak_interval']:g} s "
        f"intervals; server on CPU {c['server_cpu']}, wrk on CPU {c['load_cpu']}",
        f"- load average (1 min): {results['load_before']:.2f} before, {results['load_after']:.2f} after",
    ]
    if results.get("note"):
        lines.append(f"- note: {results['note']}")
    return "\n".join(lines)


def render(results):
    return "\n\n".join([header(results), build_table(results).markdown(), details(results)]).rstrip() + "\n"


def record(results_path, text):
    """Replaces the generated block of RESULTS.md, keeping the hand-written sections around it."""
    existing = open(results_path).read() if os.path.exists(results_path) else f"# Benchmark results\n\n{BEGIN}\n{END}\n"
    block = f"{BEGIN}\n\n{text}\n{END}"
    if BEGIN in existing and END in existing:
        updated = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, existing, flags=re.S)
    else:
        updated = existing.rstrip() + "\n\n" + block + "\n"
    with open(results_path, "w") as handle:
        handle.write(updated)
