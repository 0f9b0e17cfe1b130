/// A paced body on its way out: the pieces still to write and the loop timer that writes them.
/// Owned by its ``PendingReply``; when the connection closes, ``stop()`` frees the timer.
final class ResponseStream {
    /// What is left to write, in order, each due `atMs` after ``startedAt``.
    var pieces: [(atMs: Double, bytes: [UInt8])]
    var next = 0
    /// Monotonic nanoseconds when the head went out.
    let startedAt: UInt64
    /// Whether pieces go out as chunks (RFC 9112 §7.1).
    let chunked: Bool
    var timer: EventHandle?
    /// Whether the connection closes once the body is out (HTTP/1.0, `Connection: close`, a
    /// chunked body an HTTP/1.0 client cannot read).
    var closeAtEnd = false

    init(pieces: [(atMs: Double, bytes: [UInt8])], startedAt: UInt64, chunked: Bool) {
        self.pieces = pieces
        self.startedAt = startedAt
        self.chunked = chunked
    }

    /// Nanoseconds after the start at which piece `index` is due.
    func dueAt(_ index: Int) -> UInt64 {
        startedAt + UInt64(max(0, pieces[index].atMs) * 1_000_000)
    }

    /// The connection is closing under the stream.
    func stop() {
        timer = nil
    }
}
