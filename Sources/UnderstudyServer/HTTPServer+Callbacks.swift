#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// The C callbacks. Each recovers its Swift owner from the context pointer libevent hands back:
// the server for server-wide callbacks, a `Connection` for per-connection ones. The server's
// connection table keeps every `Connection` alive until evhttp's close callback for it.
extension HTTPServer {
    func installCallbacks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_gencb(http, { request, context in
            guard let request, let context else { return }
            Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().accept(request)
        }, context)
        // evhttp asks us for each new connection's bufferevent, which is the one moment to attach
        // the raw-stream reader before any byte arrives.
        evhttp_set_bevcb(http, { base, context in
            guard let context else { return nil }
            return Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().makeBufferevent(base: base)
        }, context)
        let watch = event_new(base, stopReadEnd, Int16(EV_READ | EV_PERSIST), { fd, _, context in
            var drain = [UInt8](repeating: 0, count: 64)
            while read(fd, &drain, drain.count) > 0 {}
            guard let context else { return }
            Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().beginShutdown()
        }, context)
        stopWatch = EventHandle(watch)
        stopWatch?.add()
        if responder is any JournalBatching {
            batchEnd = EventHandle(event_new(base, -1, 0, { _, _, context in
                guard let context else { return }
                Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().closeJournalBatch()
            }, context))
        }
    }

    /// Before the responder journals a request: journal lines of this loop pass are written
    /// together once its callbacks have run, before any of its responses reach a socket.
    func openJournalBatch() {
        guard !batchOpen, let batchEnd, let batching = responder as? any JournalBatching else { return }
        batchOpen = true
        batching.beginJournalBatch()
        batchEnd.activate()
    }

    func closeJournalBatch() {
        guard batchOpen else { return }
        batchOpen = false
        (responder as? any JournalBatching)?.endJournalBatch()
    }

    /// Creates a connection's bufferevent (as evhttp would: no fd yet, evhttp closes the fd) and
    /// watches its input buffer.
    func makeBufferevent(base: OpaquePointer?) -> OpaquePointer? {
        guard let bufferevent = bufferevent_socket_new(base, -1, 0) else { return nil }
        let connection = Connection(
            bufferevent: bufferevent,
            parser: RequestStreamParser(maxBodyBytes: configuration.maxBodyBytes, maxHeadBytes: configuration.maxHeaderBytes,
                                        reporting: .unknownMethods))
        // An address can be reused once a connection that never sent a byte (so never got a close
        // callback) is gone; the new connection replaces the dead one.
        connections[UnsafeMutableRawPointer(bufferevent)] = connection
        let input = bufferevent_get_input(bufferevent)
        connection.tap = evbuffer_add_cb(input, { buffer, info, context in
            guard let buffer, let info, let context, info.pointee.n_added > 0 else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            connection.server?.inspect(buffer, added: Int(info.pointee.n_added), on: connection)
        }, Unmanaged.passUnretained(connection).toOpaque())
        connection.server = self
        return bufferevent
    }

    /// Feeds newly arrived bytes to the connection's raw-stream reader, in place: the reader
    /// looks at evbuffer's own chunks (`evbuffer_peek`), so nothing is copied or allocated here.
    func inspect(_ buffer: OpaquePointer, added: Int, on connection: Connection) {
        if connection.evcon == nil { attach(connection) }
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
                var position = evbuffer_ptr()
                guard evbuffer_ptr_set(buffer, &position, offset, EVBUFFER_PTR_SET) == 0 else { return }
                var chunk = iovec()  // evbuffer_iovec is a macro for struct iovec
                guard evbuffer_peek(buffer, total - offset, &position, &chunk, 1) > 0,
                      let base = chunk.iov_base, chunk.iov_len > 0 else { return }
                let bytes = UnsafeRawBufferPointer(start: base, count: min(chunk.iov_len, total - offset))
                let (used, events) = connection.parser.inspect(bytes)
                guard used > 0 || !events.isEmpty else { return }
                offset += used
                for event in events {
                    switch event {
                    case .head(let head):
                        connection.heads.append(head)
                    case .refused(let head, let reason):
                        refuse(head, status: 413, reason: reason)
                    }
                }
            }
        }
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

    /// evhttp is about to free the connection (and any request on it).
    func closed(_ connection: Connection) {
        if let pending = connection.current {
            connection.current = nil
            pending.timer = nil
            finishRequest()
        }
        if let tap = connection.tap {
            evbuffer_remove_cb_entry(bufferevent_get_input(connection.bufferevent), tap)
            connection.tap = nil
        }
        connection.server = nil
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
