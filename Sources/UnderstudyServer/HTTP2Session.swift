#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CNghttp2
import UnderstudyCore

/// The HTTP/2 codec of one connection: an nghttp2 server session on the connection's bufferevent
/// (plain for h2c with prior knowledge, OpenSSL after ALPN picked `h2`), the pattern of nghttp2's
/// own libevent server example. Bytes read go into `nghttp2_session_mem_recv`; frames nghttp2
/// wants sent come out of `nghttp2_session_mem_send` into the bufferevent's output. Each request
/// is an ``HTTP2Stream``, a ``ReplyChannel`` handed to the same ``HTTPServer/handle(_:on:)`` as an
/// HTTP/1.1 request, so the responder, engine, journal and sessions are shared.
///
/// Owned by its ``Connection`` (``Connection/http2``), which owns the bufferevent, its timeouts
/// and its place in the server's table; ``teardown()`` frees the nghttp2 session.
final class HTTP2Session {
    /// The connection whose bufferevent this session reads and writes.
    unowned let connection: Connection
    /// The nghttp2 session; nil once torn down.
    private(set) var session: OpaquePointer?
    /// The open streams, by id.
    var streams: [Int32: HTTP2Stream] = [:]
    /// Inside `nghttp2_session_mem_recv`: nghttp2 forbids sending from its callbacks, so replies
    /// written meanwhile are sent when it returns.
    private var receiving = false
    /// The last-stream id of a `goaway` fault's GOAWAY: the connection closes once no stream up
    /// to it is open.
    var goawayLastStream: Int32?
    /// The stream whose `goaway` fault sent the GOAWAY: not waited for.
    private var goawayFaultedStream: Int32 = 0
    /// A `goaway-now` GOAWAY was queued while nghttp2 was reading: the connection closes once
    /// the read returns and the GOAWAY is out (closing inside nghttp2's callback would free it).
    private var closeOnceSent = false
    /// The highest stream whose request went to the server (the responder, or a 413 refusal):
    /// the highest the server has acted on, which a GOAWAY must not claim less than (RFC 9113 §6.8).
    private(set) var highestDispatched: Int32 = 0

    /// `SETTINGS_MAX_CONCURRENT_STREAMS` as announced and enforced.
    let maxConcurrentStreams: Int
    /// The cap still to be written into the first SETTINGS frame; nil once it is.
    private var capToAnnounce: UInt32?

    /// The HTTP/2 client connection preface (RFC 9113 §3.4).
    static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    init?(connection: Connection, maxConcurrentStreams: Int) {
        self.connection = connection
        self.maxConcurrentStreams = max(0, maxConcurrentStreams)
        capToAnnounce = UInt32(clamping: max(0, maxConcurrentStreams))
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0 else { return nil }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { session, frame, user in
            guard let frame, let user, understudy_h2_is_request_headers(frame) != 0 else { return 0 }
            let owner = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            let id = understudy_h2_frame_stream_id(frame)
            if let last = owner.goawayLastStream, id > last {
                // Above the last-stream id of a GOAWAY already queued (a `goaway` fault carried out
                // earlier in this same read): ignored, as RFC 9113 §6.8 has the sender of a GOAWAY do
                // (nghttp2 does so itself only once the GOAWAY is sent). Never processed, so never
                // journaled, and no stub's sequence moves for it; the client learns from the GOAWAY
                // that it may retry it.
                return 0
            }
            if owner.connection.server?.lifecycle.draining ?? true {
                // The server is stopping: the shutdown notice is out (or on its way), and a stream the
                // client opened before reading it is refused, not processed, so safe to retry
                // (RFC 9113 §8.7). Never journaled: no request was read.
                _ = nghttp2_submit_rst_stream(session, 0, id, UInt32(UNDERSTUDY_H2_REFUSED_STREAM))
                return Int32(UNDERSTUDY_H2_ERR_TEMPORAL_CALLBACK_FAILURE)
            }
            guard owner.streams.count < owner.maxConcurrentStreams else {
                // Over the announced cap: the stream is refused, not processed, so the client may
                // retry it (RFC 9113 §5.1.2, `REFUSED_STREAM`); the connection and its other
                // streams carry on. Never journaled: no request was read.
                _ = nghttp2_submit_rst_stream(session, 0, id, UInt32(UNDERSTUDY_H2_REFUSED_STREAM))
                return Int32(UNDERSTUDY_H2_ERR_TEMPORAL_CALLBACK_FAILURE)
            }
            owner.beginStream(id)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let user, let name, let value else { return 0 }
            let owner = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            guard let stream = owner.streams[understudy_h2_frame_stream_id(frame)] else { return 0 }
            let accepted = stream.addHeader(
                UnsafeBufferPointer(start: name, count: nameLength),
                UnsafeBufferPointer(start: value, count: valueLength),
                limit: owner.connection.codec.head.limits.maxFieldBytes)
            // Too many header bytes: nghttp2 resets this stream and carries on with the others.
            return accepted ? 0 : Int32(UNDERSTUDY_H2_ERR_TEMPORAL_CALLBACK_FAILURE)
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            guard let user, let data else { return 0 }
            let owner = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            owner.streams[streamID]?.addBody(
                UnsafeBufferPointer(start: data, count: length),
                limit: owner.connection.server?.configuration.maxBodyBytes ?? 0)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user, understudy_h2_ends_stream(frame) != 0 else { return 0 }
            let owner = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            owner.requestComplete(understudy_h2_frame_stream_id(frame))
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, user in
            guard let user else { return 0 }
            let owner = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            owner.streams.removeValue(forKey: streamID)?.end()
            return 0
        }
        let option = understudy_h2_new_option()
        defer { nghttp2_option_del(option) }
        var made: OpaquePointer?
        guard nghttp2_session_server_new2(&made, callbacks, Unmanaged.passUnretained(self).toOpaque(), option) == 0
        else {
            return nil
        }
        session = made
        // nghttp2 would enforce an acknowledged stream cap itself, with a connection error (GOAWAY
        // PROTOCOL_ERROR) where RFC 9113 §5.1.2 has a server refuse the extra stream. So nghttp2 is
        // given no cap (the largest value) and the SETTINGS frame is rewritten to announce the real
        // one as it goes out (`announce(_:in:)`); `on_begin_headers` refuses what is over it.
        _ = understudy_h2_submit_settings(made, UInt32.max)
    }

    deinit {
        if let session { nghttp2_session_del(session) }
    }

    /// Whether the first bytes in `input` are HTTP/2's preface: true, false, or nil while they are
    /// a prefix of it.
    static func startsWithPreface(_ input: OpaquePointer?) -> Bool? {
        let count = min(evbuffer_get_length(input), preface.count)
        guard count > 0, let bytes = evbuffer_pullup(input, count) else { return nil }
        return startsWithPreface(UnsafeBufferPointer(start: bytes, count: count))
    }

    /// Whether `bytes` (the first bytes a client sent, at most the preface's length) are HTTP/2's
    /// preface: nil while they are a proper prefix of it (or empty), so more must be read first.
    static func startsWithPreface(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let count = min(bytes.count, preface.count)
        guard count > 0 else { return nil }
        for index in 0..<count where bytes[index] != preface[index] { return false }
        return count == preface.count ? true : nil
    }

    // MARK: - Reading

    /// New bytes are in the input buffer: feed them to nghttp2, then send what it queued.
    func readable() {
        guard let session, !connection.closed else { return }
        if evbuffer_get_length(bufferevent_get_output(connection.bufferevent)) > Connection.backlogLimit {
            // A client that sends requests but does not read the answers: stop reading (so nghttp2
            // queues no more of them) until the output drains.
            connection.pauseReading()
            return
        }
        let input = bufferevent_get_input(connection.bufferevent)
        while true {
            let length = evbuffer_get_contiguous_space(input)
            guard length > 0, let data = evbuffer_pullup(input, length) else { break }
            receiving = true
            let read = nghttp2_session_mem_recv(session, data, length)
            receiving = false
            guard read >= 0 else {
                // A broken preface or frame, or a flood nghttp2 refused: it has queued its GOAWAY.
                evbuffer_drain(input, evbuffer_get_length(input))
                flush()
                connection.closeAfterFlush()
                return
            }
            evbuffer_drain(input, read)
            if connection.closed { return }
        }
        flush()
    }

    private func beginStream(_ id: Int32) {
        streams[id] = HTTP2Stream(session: self, id: id, responder: connection.responder, secure: connection.secure)
    }

    /// A stream's request is whole (END_STREAM on its HEADERS or DATA): hand it to the server.
    private func requestComplete(_ id: Int32) {
        guard let stream = streams[id], !stream.dispatched, let server = connection.server else { return }
        // Opened before a `goaway` fault's GOAWAY but whole only after it, above its last-stream id:
        // the client was told it was not processed, so it is not (RFC 9113 §6.8).
        if let last = goawayLastStream, id > last { return }
        stream.dispatched = true
        highestDispatched = max(highestDispatched, id)
        let request = stream.makeRequest()
        if let limit = stream.refusal {
            let (response, journal) = stream.responder.rejectAwaitingDelivery(request, status: 413, reason: limit)
            server.lifecycle.inFlight += 1
            stream.writeReply(response, journal: journal, closeAfter: false, refusal: limit)
            return
        }
        server.handle(request, on: stream)
        // A `goaway` fault due now is carried out now, not on the next loop pass: the streams the
        // client sent after this one in the same read are then above its last-stream id and are
        // ignored as they are parsed, instead of being answered (and moving stubs' sequences) by a
        // server whose GOAWAY then says it did not process them.
        if let pending = stream.current, !pending.sent, pending.response.delayMs <= 0,
            pending.response.proxy == nil, let fault = pending.response.fault, fault == .goaway || fault == .goawayNow
        {
            withExtendedLifetime(pending) { server.replies.send(pending, on: stream) }
        }
    }

    /// The last-stream id a `goaway` fault on stream `faulted` sends: `stated` (the stub's, resolved),
    /// raised to `highestDispatched` when the stub named it by position (`previous`, `this`) and a
    /// later stream was already handed to the server (it arrived during the fault's delay): RFC 9113
    /// §6.8 has the id be the highest stream the sender might have acted on, and that one was. A
    /// number is sent as given.
    static func lastStream(
        covering stated: Int32, for choice: GoawayLastStream, faulted: Int32, highestDispatched: Int32
    ) -> Int32 {
        if case .id = choice { return stated }
        return highestDispatched > faulted ? max(stated, highestDispatched) : stated
    }

    // MARK: - Writing

    /// Moves every frame nghttp2 has queued into the output buffer (up to the backlog limit; the
    /// rest when it drains), and closes the connection once nghttp2 is done with it.
    func flush() {
        guard !receiving, let session, !connection.closed else { return }
        let output = bufferevent_get_output(connection.bufferevent)
        while evbuffer_get_length(output) < Connection.backlogLimit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count < 0 {
                connection.close()
                return
            }
            guard count > 0, let data else { break }
            if let cap = capToAnnounce {
                var bytes = Array(UnsafeBufferPointer(start: data, count: count))
                if Self.announce(cap, in: &bytes) { capToAnnounce = nil }
                evbuffer_add(output, bytes, count)
            } else {
                evbuffer_add(output, data, count)
            }
        }
        if evbuffer_get_length(output) == 0, connection.queued > 0 {
            // Streams that ended with nothing left to send (reset by the client): no flush will come.
            let count = connection.queued
            connection.queued = 0
            connection.server?.finishRequest(count: count)
        }
        if closeOnceSent || nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 {
            connection.closeAfterFlush()
        } else if let last = goawayLastStream,
            !streams.keys.contains(where: { $0 <= last && $0 != goawayFaultedStream })
        {
            connection.closeAfterFlush()  // after a `goaway` fault, once the streams it let finish have
        } else if connection.server?.lifecycle.draining ?? true, streams.isEmpty {
            // The server is stopping and nothing is left in flight here: the final GOAWAY names the
            // highest stream the server acted on (not nghttp2's last processed one, which counts the
            // streams refused during the drain), then the connection closes once it is out.
            _ = nghttp2_submit_goaway(session, 0, highestDispatched, UInt32(UNDERSTUDY_H2_NO_ERROR), nil, 0)
            goawayLastStream = highestDispatched
            goawayFaultedStream = 0
            flush()
        }
    }

    /// The server begins to stop (SIGTERM): a GOAWAY goes out now, as RFC 9113 §6.8 has a server
    /// do as shutdown begins, so the client opens no more streams here. It is the graceful-shutdown
    /// notice (last-stream id 2^31-1, `NO_ERROR`): streams in flight still finish, and one the client
    /// opened before reading it is refused with `REFUSED_STREAM` (see `on_begin_headers`). Once no
    /// stream is left, ``flush()`` sends the final GOAWAY naming the highest stream acted on, and
    /// closes. The connection holds the server's stop (as a queued reply does) until that is written.
    func drain() {
        guard let session, !connection.closed, let server = connection.server else { return }
        _ = nghttp2_submit_shutdown_notice(session)
        connection.queued += 1
        server.lifecycle.inFlight += 1
        flush()
    }

    /// Writes `cap` as the `SETTINGS_MAX_CONCURRENT_STREAMS` value of the first SETTINGS frame (not
    /// an ACK) in `frames`; false when there is none in them.
    static func announce(_ cap: UInt32, in frames: inout [UInt8]) -> Bool {
        var offset = 0
        while offset + 9 <= frames.count {
            let length = Int(frames[offset]) << 16 | Int(frames[offset + 1]) << 8 | Int(frames[offset + 2])
            let end = min(frames.count, offset + 9 + length)
            if frames[offset + 3] == 0x4 && frames[offset + 4] & 0x1 == 0 {
                var entry = offset + 9
                while entry + 6 <= end {
                    if frames[entry] == 0 && frames[entry + 1] == 0x3 {  // SETTINGS_MAX_CONCURRENT_STREAMS
                        for index in 0..<4 {
                            frames[entry + 2 + index] = UInt8(truncatingIfNeeded: cap >> (24 - 8 * index))
                        }
                        return true
                    }
                    entry += 6
                }
            }
            offset += 9 + length
        }
        return false
    }

    /// The output buffer has drained: send more.
    func flushed() {
        flush()
        if connection.reading == .paused && !connection.closed {
            connection.resumeReading()
            readable()
        }
    }

    // MARK: - Faults on the connection

    /// GOAWAY naming `lastStream`; with `closeNow`, the connection closes once it is out, else once
    /// the streams up to `lastStream` have finished, but for `faulted`, the stream whose fault this
    /// is: it is never answered (even when `lastStream` names it), and dies with the connection.
    func goAway(lastStream: Int32, errorCode: UInt32, closeNow: Bool, faulted: Int32) {
        guard let session else { return }
        _ = nghttp2_submit_goaway(session, 0, lastStream, errorCode, nil, 0)
        goawayLastStream = lastStream
        goawayFaultedStream = faulted
        if closeNow { closeOnceSent = true }
        // Inside nghttp2's read (a fault carried out as its request completed), this sends nothing:
        // the read's own flush sends the GOAWAY, then closes for `closeNow`.
        flush()
    }

    /// Sends what nghttp2 has queued, then `bytes` (not HTTP/2: the client's framing breaks), then closes.
    func writeRawThenClose(_ bytes: [UInt8]) {
        flush()
        bytes.withUnsafeBytes {
            _ = evbuffer_add(bufferevent_get_output(connection.bufferevent), $0.baseAddress, $0.count)
        }
        connection.closeAfterFlush()
    }

    // MARK: - Events and closing

    /// libevent reports end of stream, an error or a timeout.
    func event(_ events: Int16) {
        if events & Int16(BEV_EVENT_TIMEOUT) != 0 && events & Int16(BEV_EVENT_READING) != 0 && !streams.isEmpty {
            // Idle while answers wait (delays, long polls, paced bodies): not the client's fault.
            connection.enableReading()
            return
        }
        connection.close()  // end of stream, an error, or idle: the streams' clients are gone
    }

    /// Answers every pending long poll with what it has (the server is stopping).
    func expireDeferredReplies() {
        for stream in Array(streams.values) { stream.current?.deferral?.expire() }
    }

    /// The server stops with answers still waiting (the grace period ran out): they are never sent,
    /// journaled as `shutdown` like HTTP/1.1's.
    func shutDownPendingStreams() {
        guard let server = connection.server else { return }
        for stream in streams.values {
            guard let pending = stream.current, !pending.sent else { continue }
            pending.sent = true
            pending.journal?.commit(.shutdown)
            server.log(pending, status: nil, fault: nil, outcome: .shutdown)
            stream.current?.deferral?.cancel()
        }
    }

    /// The connection is closing: every open stream ends (journaled as gone if unanswered) and
    /// the nghttp2 session is freed.
    func teardown() {
        let open = streams
        streams = [:]
        for stream in open.values { stream.end() }
        if let session { nghttp2_session_del(session) }
        session = nil
    }
}
