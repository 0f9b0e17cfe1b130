/// `GET /__admin/requests/wait?count=N&timeoutMs=T&<filters>`: a long poll that answers as soon
/// as at least N journaled entries pass the filters, or at the timeout with what there is.
extension StubEngine {
    /// The longest wait a client may ask for; longer ones are refused rather than silently cut.
    static let maxWaitMilliseconds = 300_000
    /// The wait when `timeoutMs` is not given.
    static let defaultWaitMilliseconds = 5_000

    /// Answers at once when the entries are already there (or the query is bad); otherwise
    /// registers a waiter that ``record(_:)`` completes, and the transport times out.
    func waitForRequests(_ query: String?) -> HTTPAnswer {
        var count = 1
        var timeoutMs = Self.defaultWaitMilliseconds
        let parsed = JournalFilter.parse(query, extra: ["count", "timeoutMs"]) { name, value in
            guard let number = Int(value), number >= 0 else {
                return "\(name) must be a whole number (0 or more), found `\(value)`"
            }
            if name == "count" {
                count = number
            } else {
                guard number <= Self.maxWaitMilliseconds else {
                    return "timeoutMs must be at most \(Self.maxWaitMilliseconds) (5 minutes), found \(number)"
                }
                timeoutMs = number
            }
            return nil
        }
        let filter: JournalFilter
        switch parsed {
        case .success(let value): filter = value
        case .failure(let invalid): return .now(AdminResponse.error(400, invalid.message))
        }
        let seen = countMatching(filter)
        if seen >= count || timeoutMs == 0 {
            return .now(waitResult(filter, timedOut: seen < count))
        }
        var waiter: JournalWaiter?
        let reply = DeferredReply(
            timeoutSeconds: Double(timeoutMs) / 1000,
            onTimeout: { [unowned self] in self.waitResult(filter, timedOut: true) },
            onCancel: { [weak self] in
                guard let self, let waiter else { return }
                self.waiters.removeAll { $0 === waiter }
            })
        waiter = JournalWaiter(filter: filter, count: count, seen: seen, reply: reply)
        waiters.append(waiter!)
        return .later(reply)
    }

    /// Called for each new entry while someone waits: completes the waiters it satisfies.
    func wakeWaiters(for entry: JournalEntry) {
        var done: [JournalWaiter] = []
        for waiter in waiters where waiter.filter.matches(entry) {
            waiter.seen += 1
            if waiter.seen >= waiter.count { done.append(waiter) }
        }
        guard !done.isEmpty else { return }
        waiters.removeAll { waiter in done.contains { $0 === waiter } }
        for waiter in done {
            waiter.reply.answer(waitResult(waiter.filter, timedOut: false))
        }
    }

    /// After the journal was cleared or reset, each waiter counts what is left.
    func recountWaiters() {
        for waiter in waiters {
            waiter.seen = countMatching(waiter.filter)
        }
    }

    private func countMatching(_ filter: JournalFilter) -> Int {
        var seen = 0
        journal.forEach { if filter.matches($0) { seen += 1 } }
        return seen
    }

    private func waitResult(_ filter: JournalFilter, timedOut: Bool) -> HTTPResponse {
        renderRequests(where: filter.matches, limit: filter.limit, extra: [("timedOut", timedOut ? "true" : "false")])
    }
}
