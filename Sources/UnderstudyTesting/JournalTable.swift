/// Journal entries as a compact table for failure messages: one line per request, `+ms` from
/// the first entry shown on the daemon's clock, and only the columns that say something.
enum JournalTable {
    static func render(_ entries: [RecordedRequest], mark: Set<Int> = [], headers: [String] = []) -> String {
        guard !entries.isEmpty else { return "  (no requests)" }
        let origin = entries.map(\.elapsedMs).min() ?? 0
        var rows: [[String]] = [["", "seq", "+ms", "method", "path", "status", "stub", "note"] + headers]
        for entry in entries {
            var notes: [String] = []
            if entry.outbound != nil {
                notes.append("outbound")
            } else if !entry.matched {
                notes.append("unmatched")
            }
            if let fault = entry.fault { notes.append("fault \(fault)") }
            if entry.rateLimited { notes.append("rate-limited") }
            if let index = entry.responseIndex, entry.matched { notes.append("response #\(index)") }
            if entry.outcome == .clientGone { notes.append("client gone") }
            if let delay = entry.delayMs, delay > 0 { notes.append("delayed \(format(delay)) ms") }
            if let idempotency = entry.idempotency { notes.append("key \(idempotency.outcome)") }
            if let retry = entry.retry {
                notes.append(
                    retry.isEarly
                        ? "EARLY by \(format(retry.earlyByMs ?? 0)) ms (asked \(format(retry.askedMs)))"
                        : "waited \(format(retry.waitedMs)) of \(format(retry.askedMs)) ms")
            }
            let target = entry.path + (entry.query.map { "?\($0)" } ?? "")
            rows.append(
                [
                    mark.contains(entry.seq) ? "▶" : "", String(entry.seq), format(entry.elapsedMs - origin),
                    entry.method, clip(target, 48), entry.status.map(String.init) ?? "-", clip(entry.stub ?? "-", 24),
                    notes.joined(separator: ", "),
                ]
                    + headers.map { clip(entry.headers[$0.lowercased()]?.joined(separator: ", ") ?? "-", 40) })
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            "  "
                + row.enumerated().map { column, cell in
                    column == 1 || column == 2 || column == 5
                        ? String(repeating: " ", count: widths[column] - cell.count) + cell
                        : cell + String(repeating: " ", count: widths[column] - cell.count)
                }.joined(separator: " ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    private static func format(_ milliseconds: Double) -> String {
        let tenths = (milliseconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    private static func clip(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
