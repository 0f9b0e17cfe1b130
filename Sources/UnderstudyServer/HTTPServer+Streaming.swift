#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// Paced bodies (`dribble`, `bytesPerSecond`, `events`): the head goes out with
// evhttp_send_reply_start, each piece with evhttp_send_reply_chunk on a loop timer, and
// evhttp_send_reply_end finishes. Nothing blocks: a thousand streams are a thousand timers.
extension HTTPServer {
    /// Starts writing a paced response; false when it has no body to pace (HEAD, 204, 304), so
    /// the caller sends it as usual.
    func startStream(_ pending: PendingReply, on connection: Connection) -> Bool {
        let request = pending.request
        let response = pending.response
        guard let streaming = response.streaming,
              Self.carriesBody(status: response.status, command: evhttp_request_get_command(request)) else { return false }
        let isEvents: Bool
        if case .events = streaming { isEvents = true } else { isEvents = false }
        // Events are open-ended: chunked. A body is chunked when its headers ask for it, else
        // sent with its declared length.
        let chunked = isEvents || response.headers.values(for: "Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
        if let output = evhttp_request_get_output_headers(request) {
            var hasDate = false
            for field in response.headers
            where !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") && !HTTPHeaders.namesMatch(field.name, "Content-Length") {
                evhttp_add_header(output, field.name, field.value)
                if !hasDate && HTTPHeaders.namesMatch(field.name, "Date") { hasDate = true }
            }
            if !hasDate {
                dateHeader.withCurrentValue { _ = evhttp_add_header(output, "Date", $0) }
            }
            // Without Content-Length, evhttp_send_reply_start chooses chunked transfer (HTTP/1.1).
            if !chunked {
                Self.withDecimal(response.body.count) { _ = evhttp_add_header(output, "Content-Length", $0) }
            }
            if draining || pending.closeAfter {
                evhttp_remove_header(output, "Connection")
                evhttp_add_header(output, "Connection", "close")
            }
        }
        evhttp_request_set_on_complete_cb(request, { _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            connection.current = nil
            connection.server?.finishRequest()
        }, Unmanaged.passUnretained(connection).toOpaque())
        log(pending, status: response.status, fault: nil)
        let stream = ResponseStream(request: request, pieces: streaming.pieces(body: response.body), startedAt: clock.nanoseconds())
        pending.stream = stream
        ReasonPhrase.withCString(response.status, reason: response.reason) { evhttp_send_reply_start(request, Int32(response.status), $0) }
        // The head is in the connection's output buffer, not yet on the socket: the journal entry
        // is written now, before the first byte, with the head evhttp completed and the whole body.
        journalAnswer(pending, carriesBody: true)
        watchStreamHangup(stream, on: connection)
        writeDuePieces(of: pending, on: connection)
        return true
    }

    /// Writes every piece that is due, then waits on a timer for the next, or ends the reply.
    func writeDuePieces(of pending: PendingReply, on connection: Connection) {
        guard let stream = pending.stream, connection.current === pending else { return }
        let now = clock.nanoseconds()
        while stream.next < stream.pieces.count, stream.dueAt(stream.next) <= now {
            let bytes = stream.pieces[stream.next].bytes
            stream.pieces[stream.next].bytes = []
            stream.next += 1
            guard let buffer = stream.buffer, !bytes.isEmpty else { continue }
            bytes.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
            evhttp_send_reply_chunk(stream.request, buffer)
        }
        if stream.next >= stream.pieces.count {
            stream.timer = nil
            stream.hangupWatch = nil
            evhttp_send_reply_end(stream.request)  // the on-complete callback drops the pending reply
            return
        }
        if stream.timer == nil {
            stream.timer = EventHandle(event_new(base, -1, 0, { _, _, context in
                guard let context else { return }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                guard let server = connection.server, let pending = connection.current, let stream = pending.stream else { return }
                // Ending the reply drops the pending reply and this timer: keep both alive until we return.
                withExtendedLifetime((pending, stream.timer)) { server.writeDuePieces(of: pending, on: connection) }
            }, Unmanaged.passUnretained(connection).toOpaque()))
        }
        stream.timer?.add(afterSeconds: Double(stream.dueAt(stream.next) - now) / 1_000_000_000)
    }

    /// evhttp reads nothing while it writes a reply, so a client that leaves between pieces
    /// would be noticed only at the next write. A read event on the socket notices at once:
    /// end of stream or an error frees the connection (and with it the stream and its timer).
    func watchStreamHangup(_ stream: ResponseStream, on connection: Connection) {
        let fd = bufferevent_getfd(connection.bufferevent)
        guard fd >= 0 else { return }
        let watch = EventHandle(event_new(base, fd, Int16(EV_READ), { fd, _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            let stream = connection.current?.stream
            withExtendedLifetime((stream, stream?.hangupWatch)) {
                var byte: UInt8 = 0
                let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                let gone = peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                if gone, stream != nil, let evcon = connection.evcon {
                    evhttp_connection_free(evcon)
                } else if peeked < 0 {
                    stream?.hangupWatch?.add()  // spurious wake-up: keep watching
                }
                // Bytes (a pipelined request) end the watch; evhttp reads them after the reply.
            }
        }, Unmanaged.passUnretained(connection).toOpaque()))
        stream.hangupWatch = watch
        watch?.add()
    }
}
