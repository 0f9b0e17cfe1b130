#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// While an answer waits out its `delayMs`, nobody reads the connection: evhttp reads the next
// request only once this one is answered. A client that gives up would go unnoticed until the
// answer is written into a dead socket, and meanwhile it would hold up a graceful stop and be
// journaled as answered. So the socket is watched for its end-of-file during the delay.
extension HTTPServer {
    /// Watches `connection`'s socket until `pending` is answered; an EOF or an error there means
    /// the client has gone (see ``clientLeft(_:)``).
    func watchForHangUp(_ pending: PendingReply, on connection: Connection) {
        let fd = bufferevent_getfd(connection.bufferevent)
        guard fd >= 0 else { return }
        let context = Unmanaged.passUnretained(connection).toOpaque()
        let watch = EventHandle(event_new(base, fd, Int16(EV_READ | EV_PERSIST), { fd, _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            guard let server = connection.server, let pending = connection.current else { return }
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count > 0 {
                // Bytes of a pipelined request: they are evhttp's to read after this answer, and
                // an EOF behind them cannot be seen without reading them; stop watching (the
                // watch is level-triggered and would fire again at once).
                pending.hangUpWatch?.remove()
                return
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            server.clientLeft(connection)
        }, context))
        pending.hangUpWatch = watch
        watch?.add()
    }

    /// The client of a delayed answer has closed its connection: journal it as gone (nothing
    /// was sent), drop the answer and close our side, which ends the request at once.
    func clientLeft(_ connection: Connection) {
        guard let pending = connection.current, !pending.sent, let evcon = connection.evcon else { return }
        pending.sent = true
        pending.journal?.commit(.clientGone)
        log(pending, status: nil, fault: nil, outcome: .clientGone)
        // The close callback (`closed(_:)`) finishes the request and frees the watch and timer;
        // keep them alive until this callback, which runs inside the watch, returns.
        withExtendedLifetime((pending.timer, pending.hangUpWatch)) {
            evhttp_connection_free(evcon)
        }
    }
}
