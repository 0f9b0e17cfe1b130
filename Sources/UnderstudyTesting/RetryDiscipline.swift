import Foundation

/// Whether a client retried as a well-behaved client does, read from the journal: no retry before
/// the wait the server asked for (`Retry-After`, a refusal's `X-RateLimit-Reset`: the journal's
/// `retry` verdict, on the world's clock), the same idempotency key and body on every attempt of
/// one logical request, and backoff gaps that never shrink.
///
/// The journal entries given are split into logical requests: a request that got an answer a
/// client should not retry (anything but a fault, 408, 409, 425, 429 or 5xx) ends one, and the
/// next request starts another. Keys are required on every attempt of a `POST` or `PATCH` that
/// was retried; for other methods, attempts that carry a key must all carry the same one.
///
/// ```swift
/// let report = try await understudy.retryDiscipline(RequestFilter(stub: "create-charge"))
/// XCTAssertEqual(report.problems, [])   // or: await understudy.assertRetryDiscipline(RequestFilter(stub: "create-charge"))
/// ```
public struct RetryDisciplineReport: Sendable, Equatable, CustomStringConvertible {
    /// One broken rule, at one attempt.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Which rule.
        public enum Rule: String, Sendable, Equatable {
            /// The attempt came before the wait the previous answer asked for was over.
            case earlyRetry = "early retry"
            /// A retried `POST`/`PATCH` attempt without an idempotency key.
            case missingKey = "missing idempotency key"
            /// The attempt's key differs from the first attempt's.
            case changedKey = "changed idempotency key"
            /// The attempt's body differs from the first attempt's.
            case changedBody = "changed body"
            /// The wait before the attempt was shorter than the wait before the one before it.
            case shrinkingBackoff = "shrinking backoff"
        }

        /// The journal `seq` of the offending attempt.
        public var seq: Int
        /// The rule it broke.
        public var rule: Rule
        /// What was seen, in words.
        public var detail: String

        public var description: String { "seq \(seq): \(rule.rawValue): \(detail)" }
    }

    /// The entries checked, in `seq` order.
    public let attempts: [RecordedRequest]
    /// Every broken rule, in `seq` order; empty when the client behaved.
    public let problems: [Problem]

    /// Checks `entries` (the attempts of one or more logical requests, in any order).
    ///
    /// - Parameters:
    ///   - entries: the journal entries to check, in any order.
    ///   - idempotencyHeader: the header keys travel in.
    ///   - backoffSlackMs: how much shorter than the one before a backoff gap may be (a client with
    ///     full jitter draws waits below its cap); 0 by default.
    public init(_ entries: [RecordedRequest], idempotencyHeader: String = "Idempotency-Key", backoffSlackMs: Double = 0)
    {
        attempts = entries.sorted { $0.seq < $1.seq }
        var problems: [Problem] = []
        for logical in Self.logicalRequests(attempts) {
            problems += Self.check(logical, header: idempotencyHeader, slack: backoffSlackMs)
        }
        problems.sort { $0.seq < $1.seq }
        self.problems = problems
    }

    /// The problems, then the attempts as a journal table with the offending ones marked `▶`.
    public var description: String {
        let lines = problems.map { "  \($0)" }.joined(separator: "\n")
        let table = JournalTable.render(attempts, mark: Set(problems.map(\.seq)), headers: ["Idempotency-Key"])
        return "\(problems.count) retry discipline problem(s):\n\(lines)\n\(table)"
    }

    /// Answers a client should retry: the request may not have been carried out, or not yet.
    private static func invitesRetry(_ entry: RecordedRequest) -> Bool {
        guard let status = entry.status, entry.fault == nil else { return true }
        return status >= 500 || [408, 409, 425, 429].contains(status)
    }

    private static func logicalRequests(_ entries: [RecordedRequest]) -> [[RecordedRequest]] {
        var groups: [[RecordedRequest]] = []
        var current: [RecordedRequest] = []
        for entry in entries {
            current.append(entry)
            if !invitesRetry(entry) {
                groups.append(current)
                current = []
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    private static func check(_ attempts: [RecordedRequest], header: String, slack: Double) -> [Problem] {
        guard let first = attempts.first else { return [] }
        var problems: [Problem] = []
        for entry in attempts {
            if let retry = entry.retry, retry.isEarly {
                problems.append(
                    Problem(
                        seq: entry.seq, rule: .earlyRetry,
                        detail: "came \(ms(retry.waitedMs)) ms after an answer that asked for \(ms(retry.askedMs)) ms "
                            + "(\(ms(retry.earlyByMs ?? retry.askedMs - retry.waitedMs)) ms early"
                            + (retry.verdict == "refused" ? ", refused again)" : ")")))
            }
        }
        let keys = attempts.map { $0.header(header) }
        let unsafe = ["POST", "PATCH"].contains(first.method.uppercased())
        if attempts.count > 1 {
            for (entry, key) in zip(attempts, keys) where key == nil && (unsafe || keys.contains { $0 != nil }) {
                problems.append(
                    Problem(
                        seq: entry.seq, rule: .missingKey,
                        detail: "\(entry.method) \(entry.path) attempt without \(header): a retry may act twice"))
            }
        }
        let firstKey = keys.first { $0 != nil } ?? nil
        for (entry, key) in zip(attempts, keys) {
            if let key, let firstKey, key != firstKey {
                problems.append(
                    Problem(
                        seq: entry.seq, rule: .changedKey,
                        detail: "\(header) \(key), the first attempt sent \(firstKey)"))
            }
            if entry.bodyData != first.bodyData {
                problems.append(
                    Problem(
                        seq: entry.seq, rule: .changedBody,
                        detail:
                            "\(entry.bodyData.count) bytes, the first attempt (seq \(first.seq)) sent \(first.bodyData.count)"
                    ))
            }
        }
        // Backoff gaps: the waits the client chose itself (not after an answer that asked for one).
        var previousBackoff: Double?
        for (before, entry) in zip(attempts, attempts.dropFirst()) where entry.retry == nil {
            let gap = entry.elapsedMs - before.elapsedMs
            if let previous = previousBackoff, gap + slack < previous {
                problems.append(
                    Problem(
                        seq: entry.seq, rule: .shrinkingBackoff,
                        detail: "waited \(ms(gap)) ms, after a backoff of \(ms(previous)) ms"))
            }
            previousBackoff = gap
        }
        return problems
    }

    private static func ms(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension Understudy {
    /// The retry discipline of the requests `filter` selects (see ``RetryDisciplineReport``).
    public func retryDiscipline(
        _ filter: RequestFilter, idempotencyHeader: String = "Idempotency-Key", backoffSlackMs: Double = 0
    ) async throws -> RetryDisciplineReport {
        RetryDisciplineReport(
            try await admin.requests(filter), idempotencyHeader: idempotencyHeader, backoffSlackMs: backoffSlackMs)
    }

    /// Fails the current test (XCTest or Swift Testing) if the requests `filter` selects broke the
    /// retry discipline: an early retry, a changed or missing idempotency key or body between
    /// attempts of one logical request, or a shrinking backoff. The message lists each problem and
    /// prints the attempts as a journal table, the offending ones marked. Also fails if the journal
    /// cannot be read.
    public func assertRetryDiscipline(
        _ filter: RequestFilter, idempotencyHeader: String = "Idempotency-Key", backoffSlackMs: Double = 0,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        do {
            let report = try await retryDiscipline(
                filter, idempotencyHeader: idempotencyHeader, backoffSlackMs: backoffSlackMs)
            guard !report.problems.isEmpty else { return }
            Self.recordFailure(report.description, fileID: fileID, filePath: filePath, line: line, column: column)
        } catch {
            Self.recordFailure(
                "could not read the journal for the retry discipline: \(error)", fileID: fileID, filePath: filePath,
                line: line, column: column)
        }
    }
}
