import CLibevent
import UnderstudyCore

/// A paced body on its way out: the pieces still to write, the loop timer that writes them and
/// the socket watch that notices a client hanging up between pieces. Owned by its
/// ``PendingReply``; when the connection closes, the reply and this object go with it, which
/// frees the timer and the watch at once.
final class ResponseStream {
    /// The evhttp request the pieces are written to.
    let request: OpaquePointer
    /// What is left to write, in order, each due `atMs` after ``startedAt``.
    var pieces: [(atMs: Double, bytes: [UInt8])]
    var next = 0
    /// Monotonic nanoseconds when the headers went out.
    let startedAt: UInt64
    var timer: EventHandle?
    var hangupWatch: EventHandle?
    /// Reused for every piece: evhttp moves its contents out on each write.
    let buffer: OpaquePointer?

    init(request: OpaquePointer, pieces: [(atMs: Double, bytes: [UInt8])], startedAt: UInt64) {
        self.request = request
        self.pieces = pieces
        self.startedAt = startedAt
        self.buffer = evbuffer_new()
    }

    /// Nanoseconds after the start at which piece `index` is due.
    func dueAt(_ index: Int) -> UInt64 {
        startedAt + UInt64(max(0, pieces[index].atMs) * 1_000_000)
    }

    /// The connection is closing under the stream (the client left). When evhttp noticed first
    /// (end of stream while writing), it has detached the unfinished request from the
    /// connection and will not free it: freeing it is then ours. Called from the close callback,
    /// while the request is still valid either way.
    func connectionClosed() {
        timer = nil
        hangupWatch = nil
        if evhttp_request_get_connection(request) == nil {
            evhttp_request_free(request)
        }
    }

    deinit {
        timer = nil
        hangupWatch = nil
        if let buffer { evbuffer_free(buffer) }
    }
}
