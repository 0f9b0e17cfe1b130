#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CLibeventTLS
import UnderstudyCore

// The server-wide callbacks and what connections share: accepting, the journal batch, the request
// deadline and in-flight accounting. Each C callback recovers its Swift owner from the context
// pointer libevent hands back: the server for server-wide callbacks, a `Connection` for
// per-connection ones. The server's connection table keeps every `Connection` alive until it closes.
extension HTTPServer {
    func installCallbacks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let watch = event_new(
            base, lifecycle.stopReadEnd, Int16(EV_READ | EV_PERSIST),
            { fd, _, context in
                var drain = [UInt8](repeating: 0, count: 64)
                while read(fd, &drain, drain.count) > 0 {}
                guard let context else { return }
                Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().beginShutdown()
            }, context)
        lifecycle.stopWatch = EventHandle(watch)
        lifecycle.stopWatch?.add()
        LibeventLog.install()
        listeners.acceptResume = EventHandle(
            event_new(
                base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                    guard !server.lifecycle.closed else { return }
                    server.listeners.resumeAccepting()
                }, context))
        table.flushEvent = EventHandle(
            event_new(
                base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().flushReplies()
                }, context))
        batching = responder.transportHooks.journalBatching
        if batching != nil {
            journalBatch.end = EventHandle(
                event_new(
                    base, -1, 0,
                    { _, _, context in
                        guard let context else { return }
                        Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().closeJournalBatch()
                    }, context))
        }
    }

    /// A connection accepted on `port`: its bufferevent (OpenSSL for an HTTPS port, whose input
    /// buffer holds the decrypted bytes, so everything downstream is the same) and its reader.
    func accept(_ fd: Int32, on port: ListeningPort, responder: any HTTPResponder) {
        guard !lifecycle.closed else {
            _ = Glibc.close(fd)
            return
        }
        let made =
            if let tls = port.sslContext {
                understudy_tls_bufferevent_new_socket(OpenSSLLibrary.opened, base, fd, tls)
            } else {
                bufferevent_socket_new(base, fd, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
            }
        guard let bufferevent = made else {
            _ = Glibc.close(fd)
            return
        }
        let connection = Connection(
            bufferevent: bufferevent, fd: fd, responder: responder, secure: port.sslContext != nil,
            port: port, limits: table.limits, maxBodyBytes: configuration.maxBodyBytes)
        connection.server = self
        table.remember(connection)
        connection.start(timeout: table.requestTimeout)
    }

    /// Before the responder journals a request: journal lines of this loop pass are written
    /// together once its callbacks have run, before any of its responses reach a socket.
    func openJournalBatch() {
        guard !journalBatch.open, let end = journalBatch.end, let batching = journalBatch.batching else { return }
        journalBatch.open = true
        batching.beginJournalBatch()
        end.activate()
    }

    func closeJournalBatch() {
        guard journalBatch.open else { return }
        journalBatch.open = false
        journalBatch.batching?.endJournalBatch()
    }

    /// `connection` has output to write: it is written at the end of this loop pass.
    func postFlush(_ connection: Connection) {
        if table.unflushed.isEmpty { table.flushEvent?.activate() }
        table.unflushed.append(connection)
    }

    /// The end of a loop pass: every posted connection writes its output, the journal batch first
    /// (no byte of a reply reaches a socket before its journal line is written). A connection
    /// that reads its next pipelined request while flushing is posted again, and written here too.
    func flushReplies() {
        var index = 0
        while index < table.unflushed.count {
            closeJournalBatch()
            let connection = table.unflushed[index]
            index += 1
            connection.flushNow()
        }
        table.unflushed.removeAll(keepingCapacity: true)
    }

    /// A request's bytes must all arrive within the idle timeout of its first one: the read
    /// timeout restarts with every byte, so a client trickling a head would otherwise hold its
    /// connection forever (slowloris). On expiry the connection is closed.
    /// The timer is made once per connection and stays pending across requests (see
    /// ``Connection/deadline``); a full-length deadline goes in libevent's common-timeout
    /// queue for that length (constant-time add) rather than the timer heap.
    func armRequestDeadline(on connection: Connection) {
        guard let timeout = table.requestTimeout else { return }
        if connection.deadline.timer == nil {
            let context = Unmanaged.passUnretained(connection).toOpaque()
            connection.deadline.timer = EventHandle(
                event_new(
                    base, -1, 0,
                    { _, _, context in
                        guard let context else { return }
                        let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                        connection.deadline.timerPending = false
                        guard connection.deadline.armed, let server = connection.server, !connection.answering else {
                            return
                        }
                        // The timer may have been armed for an earlier request: expire only once this
                        // request's own deadline has passed, else wait out the rest of it.
                        let now = server.clock.nanoseconds()
                        let due =
                            connection.deadline.began &+ UInt64(server.configuration.idleTimeoutSeconds)
                            &* 1_000_000_000
                        if now < due {
                            connection.deadline.timerPending = true
                            connection.deadline.timer?.add(afterSeconds: Double(due - now) / 1_000_000_000)
                            return
                        }
                        // Keep the timer's event alive until this callback returns.
                        withExtendedLifetime((connection, connection.deadline.timer)) { connection.close() }
                    }, context))
        }
        connection.deadline.armed = true
        connection.deadline.began = clock.nanoseconds()
        guard !connection.deadline.timerPending, let timer = connection.deadline.timer else { return }
        connection.deadline.timerPending = true
        timer.add(timeout: timeout)
    }

    /// `count` in-flight requests are done (written out, faulted, or their client gone).
    func finishRequest(count: Int = 1) {
        lifecycle.inFlight -= count
        if lifecycle.draining && lifecycle.inFlight <= 0 {
            event_base_loopbreak(base)
        }
    }
}

extension HTTPServer {
    /// The responder as ``JournalBatching`` (see ``JournalBatch/batching``).
    var batching: (any JournalBatching)? {
        get { journalBatch.batching }
        set { journalBatch.batching = newValue }
    }
}
