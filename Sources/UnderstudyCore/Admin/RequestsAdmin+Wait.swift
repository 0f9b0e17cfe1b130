/// `GET /__admin/requests/wait?count=N&timeoutMs=T&<filters>`: a long poll that answers as soon
/// as at least N journaled entries pass the filters, or at the timeout with what there is.
extension RequestsAdmin {
    /// The longest wait a client may ask for; longer ones are refused rather than silently cut.
    static let maxWaitMilliseconds = 300_000
    /// The wait when `timeoutMs` is not given.
    static let defaultWaitMilliseconds = 5_000

    /// Answers at once when the entries are already there (or the query is bad); otherwise
    /// registers a waiter that the engine completes as it journals, and the transport times out.
    static func wait(_ call: AdminCall) -> HTTPAnswer {
        var count = 1
        var timeoutMs = defaultWaitMilliseconds
        let parsed = JournalFilter.parse(call.request.query, extra: ["count", "timeoutMs"]) { name, value in
            guard let number = Int(value), number >= 0 else {
                return "\(name) must be a whole number (0 or more), found `\(value)`"
            }
            if name == "count" {
                count = number
            } else {
                guard number <= maxWaitMilliseconds else {
                    return "timeoutMs must be at most \(maxWaitMilliseconds) (5 minutes), found \(number)"
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
        let engine = call.engine
        let result = { (timedOut: Bool) in
            render(call, where: filter.matches, limit: filter.limit, extra: [("timedOut", timedOut ? "true" : "false")])
        }
        let seen = engine.journal.count(passing: filter)
        if seen >= count || timeoutMs == 0 {
            return .now(result(seen < count))
        }
        var waiter: JournalWaiter?
        let reply = DeferredReply(
            timeoutSeconds: Double(timeoutMs) / 1000,
            onTimeout: { result(true) },
            onCancel: { [weak engine] in
                guard let engine, let waiter else { return }
                engine.removeWaiter(waiter)
            })
        waiter = JournalWaiter(filter: filter, count: count, seen: seen, reply: reply, result: result)
        engine.addWaiter(waiter!)
        return .later(reply)
    }
}
