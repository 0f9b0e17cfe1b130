/// A journal whose file writes can be held back for the rest of an event-loop pass and made
/// together, with one `write(2)` instead of one per request.
///
/// The transport opens a batch before it hands a request over and closes it once the pass's
/// callbacks have run. libevent writes responses to sockets only when a later pass finds them
/// writable, so every line of a batch is in the file before the response of its request is on
/// the wire: a client that has its response can still read its request back from the file.
public protocol JournalBatching: AnyObject {
    /// Until ``endJournalBatch()``, lines may be collected instead of written one by one.
    func beginJournalBatch()
    /// Writes whatever was collected; lines are written one by one again.
    func endJournalBatch()
}
