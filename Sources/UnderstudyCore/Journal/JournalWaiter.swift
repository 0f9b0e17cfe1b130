import UnderstudyHTTP

/// A pending `GET /__admin/requests/wait`: answers once `count` journal entries pass `filter`.
///
/// It counts matches as entries are journaled, so waiting costs nothing per request beyond the
/// filter check, and nothing at all while no one waits.
final class JournalWaiter {
    let filter: JournalFilter
    let count: Int
    /// Matching entries in the journal now (recounted when the journal is cleared or reset).
    var seen: Int
    let reply: DeferredReply
    /// The answer, made by the admin handler that registered the wait (`true`: timed out).
    let result: (Bool) -> HTTPResponse

    init(filter: JournalFilter, count: Int, seen: Int, reply: DeferredReply, result: @escaping (Bool) -> HTTPResponse) {
        self.filter = filter
        self.count = count
        self.seen = seen
        self.reply = reply
        self.result = result
    }
}

extension JournalRecorder {
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
            waiter.reply.answer(waiter.result(false))
        }
    }

    /// After the journal was cleared or reset, each waiter counts what is left.
    func recountWaiters() {
        for waiter in waiters {
            waiter.seen = journal.count(passing: waiter.filter)
        }
    }
}
