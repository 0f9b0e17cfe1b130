#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// While an answer waits (out its `delayMs`, or for a long poll's result), nobody reads the
// connection: evhttp reads the next request only once this one is answered. A client that gives
// up would go unnoticed until the answer is written into a dead socket; meanwhile it would hold
// up a graceful stop, keep a long poll's waiter, and be journaled as answered. So the socket is
// watched for its end of file while the answer waits.
extension HTTPServer {
    /// Watches `connection`'s socket while `pending` waits: an end of file or an error there
    /// means the client has gone (see ``clientLeft(_:)``). Bytes instead (a pipelined request)
    /// just end the watch; evhttp reads them after the answer.
    func watchForHangup(_ pending: PendingReply, on connection: Connection) {
        let fd = bufferevent_getfd(connection.bufferevent)
        guard fd >= 0 else { return }
        let watch = EventHandle(event_new(base, fd, Int16(EV_READ), { fd, _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            // Closing frees the pending reply and this event with it: keep the event alive until its callback returns.
            let watch = connection.current?.hangupWatch
            withExtendedLifetime(watch) {
                var byte: UInt8 = 0
                let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                let gone = peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                if gone {
                    connection.server?.clientLeft(connection)
                } else if peeked < 0 {
                    connection.current?.hangupWatch?.add()  // spurious wake-up: keep watching
                }
            }
        }, Unmanaged.passUnretained(connection).toOpaque()))
        pending.hangupWatch = watch
        watch?.add()
    }

    /// The client of a waiting answer has closed its connection: journal it as gone (nothing was
    /// sent) and close our side; the close callback (`closed(_:)`) then ends the request at once
    /// (cancelling a long poll's wait).
    func clientLeft(_ connection: Connection) {
        guard let pending = connection.current, !pending.sent, let evcon = connection.evcon else { return }
        pending.sent = true
        pending.journal?.commit(.clientGone)
        log(pending, status: nil, fault: nil, outcome: .clientGone)
        evhttp_connection_free(evcon)
    }
}
