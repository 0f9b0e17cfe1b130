"""Journal entries as a compact table for failure messages, as the Swift test kit prints them."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

Entry = Mapping[str, Any]


def _format_ms(milliseconds: float) -> str:
    tenths = round(milliseconds * 10) / 10
    return str(int(tenths)) if tenths == int(tenths) else str(tenths)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def journal_table(entries: Sequence[Entry], mark: Iterable[int] = (), headers: Sequence[str] = ()) -> str:
    """One line per journal entry: seq, `+ms` from the first entry shown (the daemon's clock), method,
    path, status, stub and a note (unmatched, fault, rate-limited, response #N, client gone, delay).

    `mark` puts a `▶` before the entries with those `seq`s; `headers` adds a column per request header.
    """
    if not entries:
        return "  (no requests)"
    marked = set(mark)
    origin = min(float(entry.get("elapsedMs", 0)) for entry in entries)
    rows: list[list[str]] = [["", "seq", "+ms", "method", "path", "status", "stub", "note", *headers]]
    for entry in entries:
        notes: list[str] = []
        if not entry.get("matched"):
            notes.append("unmatched")
        if entry.get("fault"):
            notes.append(f"fault {entry['fault']}")
        if entry.get("rateLimited"):
            notes.append("rate-limited")
        if entry.get("matched") and entry.get("responseIndex") is not None:
            notes.append(f"response #{entry['responseIndex']}")
        if entry.get("outcome") == "client-gone":
            notes.append("client gone")
        if entry.get("delayMs"):
            notes.append(f"delayed {_format_ms(float(entry['delayMs']))} ms")
        target = entry.get("path", "") + (f"?{entry['query']}" if entry.get("query") is not None else "")
        status = entry.get("status")
        request_headers = entry.get("headers") or {}
        rows.append(
            [
                "▶" if entry.get("seq") in marked else "",
                str(entry.get("seq", "")),
                _format_ms(float(entry.get("elapsedMs", 0)) - origin),
                entry.get("method", ""),
                _clip(target, 48),
                "-" if status is None else str(status),
                _clip(entry.get("stub") or "-", 24),
                ", ".join(notes),
                *(_clip(", ".join(request_headers.get(name.lower(), [])) or "-", 40) for name in headers),
            ]
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(widths[column]) if column in (1, 2, 5) else cell.ljust(widths[column])
            for column, cell in enumerate(row)
        ]
        lines.append(("  " + " ".join(cells)).rstrip())
    return "\n".join(lines)
