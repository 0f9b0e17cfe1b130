import Foundation

/// One-line checks on the journal, for XCTest and Swift Testing alike. Each records a failure at
/// the caller's line (never throws), prints the relevant journal entries as a table, and returns
/// what it found for further checks.
extension Understudy {
    /// The requests `matcher` matches must number `count`.
    ///
    /// `await understudy.verify(.exactly(2), .get("/weather"))`
    @discardableResult
    public func verify(
        _ count: RequestCount, _ matcher: RequestMatcher,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> [RecordedRequest] {
        await checking(fileID: fileID, filePath: filePath, line: line, column: column) {
            let found = try await admin.find(matching: matcher)
            guard count.accepts(found.count) else {
                return (
                    found,
                    "expected \(count) request(s) matching \(matcher.summary), found \(found.count)\n"
                        + (found.isEmpty
                            ? "journal:\n" + JournalTable.render(try await recent())
                            : JournalTable.render(found))
                )
            }
            return (found, nil)
        }
    }

    /// Requests matching each of `matchers` happened in this order (possibly on different paths,
    /// with other requests between): there is one for each, each later than the one before.
    /// Returns the chain found (the earliest possible).
    @discardableResult
    public func verifyOrder(
        _ matchers: RequestMatcher...,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> [RecordedRequest] {
        await checking(fileID: fileID, filePath: filePath, line: line, column: column) {
            var chain: [RecordedRequest] = []
            var found: [[RecordedRequest]] = []
            for matcher in matchers { found.append(try await admin.find(matching: matcher)) }
            for (index, matcher) in matchers.enumerated() {
                let after = chain.last?.seq ?? 0
                guard let next = found[index].first(where: { $0.seq > after }) else {
                    let relevant = Self.merged(found)
                    let steps = matchers.enumerated().map { "  \($0.offset + 1). \($0.element.summary)" }.joined(
                        separator: "\n")
                    return (
                        chain,
                        "requests out of order: no request matching step \(index + 1) (\(matcher.summary))"
                            + (chain.isEmpty ? "" : " after #\(after)") + "\nexpected in order:\n\(steps)\n"
                            + JournalTable.render(relevant, mark: Set(chain.map(\.seq)))
                    )
                }
                chain.append(next)
            }
            return (chain, nil)
        }
    }

    /// The first request matching `second` after the first request matching `first` came at
    /// least `gap` later, on the daemon's clock (`elapsedMs`): for example, a retry waited out
    /// `Retry-After`. Returns the two requests.
    @discardableResult
    public func verifyGap(
        atLeast gap: Duration, between first: RequestMatcher, and second: RequestMatcher,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> [RecordedRequest] {
        await checking(fileID: fileID, filePath: filePath, line: line, column: column) {
            let firsts = try await admin.find(matching: first)
            let seconds = try await admin.find(matching: second)
            let relevant = Self.merged([firsts, seconds])
            guard let start = firsts.first, let end = seconds.first(where: { $0.seq > start.seq }) else {
                return (
                    [],
                    "no request matching \(second.summary) after one matching \(first.summary)\n"
                        + JournalTable.render(relevant.isEmpty ? try await recent() : relevant)
                )
            }
            let wanted = gap.milliseconds
            let actual = end.elapsedMs - start.elapsedMs
            guard actual >= wanted else {
                return (
                    [start, end],
                    "gap between #\(start.seq) and #\(end.seq) was \(Self.format(actual)) ms, expected at least \(Self.format(wanted)) ms\n"
                        + JournalTable.render(relevant, mark: [start.seq, end.seq])
                )
            }
            return ([start, end], nil)
        }
    }

    /// Attempt `attempt` (1-based) among the requests matching `request` — counted from the first
    /// request matching `anchor`, when given — also matches `expected`: for example, the retry
    /// after the token refresh carried the new token:
    ///
    /// `await understudy.verify(attempt: 1, of: .get("/profile"), after: .post("/token"),
    ///                          matches: .get("/profile").header("Authorization", "Bearer t2"))`
    @discardableResult
    public func verify(
        attempt: Int, of request: RequestMatcher, after anchor: RequestMatcher? = nil,
        matches expected: RequestMatcher,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> RecordedRequest? {
        let found: [RecordedRequest] = await checking(fileID: fileID, filePath: filePath, line: line, column: column) {
            var attempts = try await admin.find(matching: request)
            var anchorEntries: [RecordedRequest] = []
            if let anchor {
                anchorEntries = try await admin.find(matching: anchor)
                guard let first = anchorEntries.first else {
                    return (
                        [],
                        "no request matching \(anchor.summary) to count attempts after\n"
                            + JournalTable.render(attempts)
                    )
                }
                attempts = attempts.filter { $0.seq > first.seq }
            }
            let headerNames = Array((expected.headers ?? [:]).keys).sorted()
            let relevant = Self.merged([attempts, Array(anchorEntries.prefix(1))])
            let place = "attempt \(attempt) of \(request.summary)" + (anchor.map { " after \($0.summary)" } ?? "")
            guard attempt >= 1, attempt <= attempts.count else {
                return (
                    [],
                    "no \(place): only \(attempts.count) such request(s)\n"
                        + JournalTable.render(relevant, headers: headerNames)
                )
            }
            let entry = attempts[attempt - 1]
            guard try await admin.find(matching: expected).contains(where: { $0.seq == entry.seq }) else {
                var text =
                    "\(place) (#\(entry.seq)) does not match \(expected.summary)\n"
                    + JournalTable.render(relevant, mark: [entry.seq], headers: headerNames)
                if expected.body != nil {
                    text += "\n  #\(entry.seq) body: \(entry.body ?? "<\(entry.bodyData.count) bytes>")"
                }
                return ([entry], text)
            }
            return ([entry], nil)
        }
        return found.first
    }

    /// No request passing `filter` is in the journal, nor arrives within `window`: the journal's
    /// long poll (`requests/wait`) waits for one, so this waits the whole window only when the
    /// check passes. Use `filter.since` to look only after a point (`seq` of the last request you
    /// expected), for example to prove that no late retry came.
    @discardableResult
    public func verifyNoRequests(
        _ filter: RequestFilter, within window: Duration,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> [RecordedRequest] {
        await checking(fileID: fileID, filePath: filePath, line: line, column: column) {
            let answer = try await admin.requestsAfterWaiting(filter, count: 1, timeout: window.milliseconds / 1000)
            guard answer.timedOut, answer.requests.isEmpty else {
                return (
                    answer.requests,
                    "expected no request passing \(filter.summary) within \(Self.format(window.milliseconds)) ms, got \(answer.requests.count)\n"
                        + JournalTable.render(answer.requests)
                )
            }
            return ([], nil)
        }
    }

    /// `verifyNoRequests` for `method` (any, when `nil`) on `path` (any, when `nil`) after `since`.
    @discardableResult
    public func verifyNoRequests(
        method: String? = nil, path: String? = nil, since: Int? = nil, within window: Duration,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> [RecordedRequest] {
        await verifyNoRequests(
            RequestFilter(method: method, path: path, since: since), within: window,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    // MARK: Plumbing

    /// Runs a check; records its failure message (or an unreadable journal) at the caller's line.
    private func checking<Found>(
        fileID: String, filePath: StaticString, line: UInt, column: UInt,
        _ check: () async throws -> ([Found], String?)
    ) async -> [Found] {
        do {
            let (found, failure) = try await check()
            if let failure {
                Self.recordFailure(failure, fileID: fileID, filePath: filePath, line: line, column: column)
            }
            return found
        } catch {
            Self.recordFailure(
                "could not read the journal: \(error)", fileID: fileID, filePath: filePath, line: line, column: column)
            return []
        }
    }

    /// The last 20 journal entries, for context when nothing matched.
    private func recent() async throws -> [RecordedRequest] {
        Array(try await admin.requests().suffix(20))
    }

    /// Entries of several finds, once each, in journal order.
    static func merged(_ lists: [[RecordedRequest]]) -> [RecordedRequest] {
        var seen = Set<Int>()
        return lists.joined().sorted { $0.seq < $1.seq }.filter { seen.insert($0.seq).inserted }
    }

    static func format(_ milliseconds: Double) -> String {
        String(format: "%.1f", milliseconds)
    }
}

extension Duration {
    /// This duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}

extension RequestFilter {
    var summary: String {
        var parts: [String] = []
        if let method { parts.append(method) }
        if let path { parts.append(path) }
        if let stub { parts.append("stub=\(stub)") }
        if let matched { parts.append("matched=\(matched)") }
        if let since { parts.append("after #\(since)") }
        return parts.isEmpty ? "(any)" : parts.joined(separator: " ")
    }
}
