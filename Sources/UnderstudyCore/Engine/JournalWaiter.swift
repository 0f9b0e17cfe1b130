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

    init(filter: JournalFilter, count: Int, seen: Int, reply: DeferredReply) {
        self.filter = filter
        self.count = count
        self.seen = seen
        self.reply = reply
    }
}
