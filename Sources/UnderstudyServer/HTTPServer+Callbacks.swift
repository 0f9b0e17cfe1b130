#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CLibeventTLS
import Synchronization
import UnderstudyCore

// The C callbacks. Each recovers its Swift owner from the context pointer libevent hands back:
// the server for server-wide callbacks, a `Connection` for per-connection ones. The server's
// connection table keeps every `Connection` alive until evhttp's close callback for it.
extension HTTPServer {
    func installCallbacks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_gencb(http, { request, context in
            guard let request, let context else { return }
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            server.accept(request, responder: server.responder)
        }, context)
        // evhttp asks us for each new connection's bufferevent, which is the one moment to attach
        // the raw-stream reader before any byte arrives.
        evhttp_set_bevcb(http, { base, context in
            guard let context else { return nil }
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            return server.makeBufferevent(base: base, responder: server.responder)
        }, context)
        let watch = event_new(base, stopReadEnd, Int16(EV_READ | EV_PERSIST), { fd, _, context in
            var drain = [UInt8](repeating: 0, count: 64)
            while read(fd, &drain, drain.count) > 0 {}
            guard let context else { return }
            Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().beginShutdown()
        }, context)
        stopWatch = EventHandle(watch)
        stopWatch?.add()
        installListenerBackoff(context: context)
        batching = responder as? any JournalBatching
        if batching != nil {
            batchEnd = EventHandle(event_new(base, -1, 0, { _, _, context in
                guard let context else { return }
                Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().closeJournalBatch()
            }, context))
        }
    }

    /// Out of descriptors, accept() fails at once on every loop pass while connections wait in
    /// the backlog: the loop would spin and libevent would log each failure. Instead the listener
    /// pauses for a moment and libevent's log is rate-limited.
    func installListenerBackoff(context: UnsafeMutableRawPointer) {
        LibeventLog.install()
        guard let boundSocket, let listener = evhttp_bound_socket_get_listener(boundSocket) else { return }
        acceptResume = EventHandle(event_new(base, -1, 0, { _, _, context in
            guard let context else { return }
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            guard !server.closed else { return }
            if let bound = server.boundSocket, let listener = evhttp_bound_socket_get_listener(bound) {
                evconnlistener_enable(listener)
            }
            for port in server.sessionPorts.values { port.resumeAccepting() }
            for port in server.tlsPorts.values { port.resumeAccepting() }
        }, context))
        watchAcceptErrors(of: listener)
    }

    /// Out of descriptors, `listener` (the main port's or a session's) pauses and every listener
    /// resumes 100 ms later.
    func watchAcceptErrors(of listener: OpaquePointer) {
        // The error callback's argument is evhttp's (the listener's own user data), so the
        // server is found through the listener.
        ListenerOwners[listener] = self
        evconnlistener_set_error_cb(listener, { listener, _ in
            let code = errno
            guard let listener, let server = ListenerOwners[listener] else { return }
            if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                evconnlistener_disable(listener)
                server.acceptResume?.add(afterSeconds: 0.1)
                LibeventLog.note("accept() failed: \(String(cString: strerror(code))); pausing new connections for 100 ms")
            } else {
                LibeventLog.note("accept() failed: \(String(cString: strerror(code)))")
            }
        })
    }

    func forgetListener() {
        guard let boundSocket, let listener = evhttp_bound_socket_get_listener(boundSocket) else { return }
        ListenerOwners[listener] = nil
    }

    /// Before the responder journals a request: journal lines of this loop pass are written
    /// together once its callbacks have run, before any of its responses reach a socket.
    func openJournalBatch() {
        guard !batchOpen, let batchEnd, let batching else { return }
        batchOpen = true
        batching.beginJournalBatch()
        batchEnd.activate()
    }

    func closeJournalBatch() {
        guard batchOpen else { return }
        batchOpen = false
        batching?.endJournalBatch()
    }

    /// Creates a connection's bufferevent (as evhttp would: no fd yet, evhttp closes the fd) and
    /// watches its input buffer. With `tls` (an OpenSSL context) it is a TLS bufferevent, whose
    /// input buffer holds the decrypted bytes, so everything downstream is the same.
    func makeBufferevent(base: OpaquePointer?, responder: any HTTPResponder, tls: OpaquePointer? = nil) -> OpaquePointer? {
        let made = if let tls { understudy_tls_bufferevent_new(base, tls) } else { bufferevent_socket_new(base, -1, 0) }
        guard let bufferevent = made else { return nil }
        let connection = Connection(
            bufferevent: bufferevent, responder: responder, secure: tls != nil,
            parser: RequestStreamParser(maxBodyBytes: configuration.maxBodyBytes, maxHeadBytes: configuration.maxHeaderBytes,
                                        reporting: .unknownMethods))
        // An address can be reused once a connection that never sent a byte (so never got a close
        // callback) is gone; the new connection replaces the dead one.
        connections[UnsafeMutableRawPointer(bufferevent)] = connection
        let input = bufferevent_get_input(bufferevent)
        connection.tap = evbuffer_add_cb(input, { buffer, info, context in
            guard let buffer, let info, let context, info.pointee.n_added > 0 else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            guard let server = connection.server else { return }
            if server.readingConnection !== connection { server.readingConnection = connection }
            server.inspect(buffer, added: Int(info.pointee.n_added), on: connection)
        }, Unmanaged.passUnretained(connection).toOpaque())
        connection.server = self
        return bufferevent
    }

    /// Feeds newly arrived bytes to the connection's raw-stream reader, in place: the reader
    /// looks at evbuffer's own chunks (`evbuffer_peek`), so nothing is copied or allocated here.
    func inspect(_ buffer: OpaquePointer, added: Int, on connection: Connection) {
        if connection.evcon == nil { attach(connection) }
        if !connection.deadlineArmed && !connection.answering { armRequestDeadline(on: connection) }
        let total = evbuffer_get_length(buffer)
        var offset = total - added
        while offset < total {
            switch connection.parser.need {
            case .nothing:
                return
            case .skip(let remaining):
                let count = min(remaining, total - offset)
                connection.parser.skip(count)
                offset += count
            case .inspect:
                var chunk = iovec()  // evbuffer_iovec is a macro for struct iovec
                // Usually the buffer was empty before these bytes came (evhttp had taken the last
                // request), so the chunk to look at is the first one and needs no position.
                if offset == 0 {
                    guard evbuffer_peek(buffer, total, nil, &chunk, 1) > 0 else { return }
                } else {
                    var position = evbuffer_ptr()
                    guard evbuffer_ptr_set(buffer, &position, offset, EVBUFFER_PTR_SET) == 0,
                          evbuffer_peek(buffer, total - offset, &position, &chunk, 1) > 0 else { return }
                }
                guard let base = chunk.iov_base, chunk.iov_len > 0 else { return }
                let bytes = UnsafeRawBufferPointer(start: base, count: min(chunk.iov_len, total - offset))
                let (used, event) = connection.parser.inspect(bytes)
                offset += used
                if let event {
                    found(event)
                } else if used == 0 {
                    return
                }
            }
        }

        /// Rare (a head evhttp will hand over nameless, or a refusal): kept out of the loop above.
        @inline(never)
        func found(_ event: RequestStreamParser.Event) {
            switch event {
            case .head(let head):
                connection.heads.append(head)
            case .refused(let head, let reason):
                refuse(head, status: 413, reason: reason, responder: connection.responder, secure: connection.secure)
            }
        }
    }

    /// A request's bytes must all arrive within the idle timeout of its first one: libevent's
    /// read timeout restarts with every byte, so a client trickling a head would otherwise hold
    /// its connection forever (slowloris). On expiry the connection is closed.
    /// The timer is made once per connection and stays pending across requests (see
    /// ``Connection/requestDeadline``); a full-length deadline goes in libevent's common-timeout
    /// queue for that length (constant-time add) rather than the timer heap.
    func armRequestDeadline(on connection: Connection) {
        guard let timeout = requestTimeout else { return }
        if connection.requestDeadline == nil {
            let context = Unmanaged.passUnretained(connection).toOpaque()
            connection.requestDeadline = EventHandle(event_new(base, -1, 0, { _, _, context in
                guard let context else { return }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                connection.deadlineTimerPending = false
                guard connection.deadlineArmed, let server = connection.server, !connection.answering,
                      let evcon = connection.evcon else { return }
                // The timer may have been armed for an earlier request: expire only once this
                // request's own deadline has passed, else wait out the rest of it.
                let now = server.clock.nanoseconds()
                let due = connection.requestBegan &+ UInt64(server.configuration.idleTimeoutSeconds) &* 1_000_000_000
                if now < due {
                    connection.deadlineTimerPending = true
                    connection.requestDeadline?.add(afterSeconds: Double(due - now) / 1_000_000_000)
                    return
                }
                connection.deadlineArmed = false
                server.expire(connection, evcon: evcon)
            }, context))
        }
        connection.deadlineArmed = true
        connection.requestBegan = clock.nanoseconds()
        guard !connection.deadlineTimerPending, let timer = connection.requestDeadline else { return }
        connection.deadlineTimerPending = true
        timer.add(timeout: timeout)
    }

    /// Closes a connection whose request did not arrive in time (its close callback tidies up).
    func expire(_ connection: Connection, evcon: OpaquePointer) {
        // Keep the timer's event alive until this callback returns.
        let timer = connection.requestDeadline
        connection.deadlineArmed = false
        connection.deadlineTimerPending = false
        connection.requestDeadline = nil
        withExtendedLifetime(timer) { evhttp_connection_free(evcon) }
    }

    /// Learns the evhttp connection behind a bufferevent (evhttp's own callbacks carry it as
    /// their argument) and asks to hear when it closes.
    func attach(_ connection: Connection) {
        var context: UnsafeMutableRawPointer?
        bufferevent_getcb(connection.bufferevent, nil, nil, nil, &context)
        guard let context else { return }
        let evcon = OpaquePointer(context)
        connection.evcon = evcon
        evhttp_connection_set_closecb(evcon, { _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            connection.server?.closed(connection)
        }, Unmanaged.passUnretained(connection).toOpaque())
    }

    /// evhttp is about to free the connection (and any request on it). A request still waiting
    /// for its answer never gets one: its client is gone.
    func closed(_ connection: Connection) {
        connection.deadlineArmed = false
        connection.deadlineTimerPending = false
        connection.requestDeadline = nil
        if let pending = connection.current {
            connection.current = nil
            if !pending.sent {
                pending.sent = true
                pending.journal?.commit(.clientGone)
                log(pending, status: nil, fault: nil, outcome: .clientGone)
            }
            pending.timer = nil
            pending.stream?.connectionClosed()
            pending.hangupWatch = nil
            pending.deferral?.cancel()  // the client left before a long poll was answered
            finishRequest()
        } else if connection.writing {
            finishRequest()  // an answer sent at once, cut off mid-write
        }
        connection.writing = false
        if let tap = connection.tap {
            evbuffer_remove_cb_entry(bufferevent_get_input(connection.bufferevent), tap)
            connection.tap = nil
        }
        connection.server = nil
        if readingConnection === connection { readingConnection = nil }
        connections.removeValue(forKey: UnsafeMutableRawPointer(connection.bufferevent))
    }

    /// One in-flight request is done (answered, faulted, or its client gone).
    func finishRequest() {
        inFlight -= 1
        if draining && inFlight == 0 {
            event_base_loopbreak(base)
        }
    }
}

/// Servers by listener address, for the listener's error callback. Touched only on loop threads,
/// each server's own entry only by its own thread, set at start-up and removed in `close()`.
enum ListenerOwners {
    /// Listener address to server address (plain integers, so the table is Sendable).
    private static let table = Mutex<[UInt: UInt]>([:])

    static subscript(listener: OpaquePointer) -> HTTPServer? {
        get {
            let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(listener)))
            guard let address = table.withLock({ $0[key] }),
                  let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
            return Unmanaged<HTTPServer>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(listener)))
            let value = newValue.map { UInt(bitPattern: Int(bitPattern: Unmanaged.passUnretained($0).toOpaque())) }
            table.withLock { $0[key] = value }
        }
    }
}
