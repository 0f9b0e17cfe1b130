import CLibevent

extension HTTPServer {
    /// Stops accepting, lets in-flight responses (delayed ones included) finish, and leaves the
    /// loop when they have, or when the grace period runs out. HTTP/2 connections are told at once
    /// (GOAWAY) and refuse new streams meanwhile; see docs/http2.md.
    func beginShutdown() {
        guard !lifecycle.draining, !lifecycle.closed else { return }
        lifecycle.draining = true
        listeners.stopAccepting()
        // Long polls answer now with what they have rather than hold the stop for their timeout.
        expireDeferredReplies()
        // Each HTTP/2 connection announces the stop with a GOAWAY now, busy or idle (RFC 9113 §6.8),
        // and holds the stop until its GOAWAY is written (`HTTP2Session.drain`).
        for connection in table.connections {  // a copy: a drained idle connection may close
            connection.http2?.drain()
        }
        if lifecycle.inFlight <= 0 {
            event_base_loopbreak(base)
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        lifecycle.graceTimer = EventHandle(
            event_new(
                base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    event_base_loopbreak(Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().base)
                }, context))
        lifecycle.graceTimer?.add(afterSeconds: configuration.shutdownGraceSeconds)
    }
}
