#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CNghttp2
import UnderstudyCore

/// One HTTP/2 stream: its request as it arrives, then the ``ReplyChannel`` its answer goes out
/// on. The head is an nghttp2 HEADERS submission; the body is read by nghttp2 from ``outgoing``
/// through a data provider that defers while a paced body waits for its next piece, so DATA
/// frames are paced on the loop like HTTP/1.1 chunks and one waiting stream holds no other.
/// HTTP/2 has no reason phrase: a stub's `statusMessage` is not sent (nor journaled).
///
/// Owned by its session's table from its first HEADERS until nghttp2 closes it (``end()``).
final class HTTP2Stream: ReplyChannel {
    weak var session: HTTP2Session?
    let id: Int32
    let responder: any HTTPResponder
    let secure: Bool
    var current: PendingReply?
    var closed = false

    /// The request as it arrives.
    var arriving = HTTP2ArrivingRequest()
    /// The request has gone to the server.
    var dispatched = false
    /// The answer's body as nghttp2 reads it.
    var outgoing = HTTP2OutgoingBody()
    /// An answer was submitted: the request counts as in flight until the stream closes.
    private var holdsInFlight = false

    init(session: HTTP2Session, id: Int32, responder: any HTTPResponder, secure: Bool) {
        self.session = session
        self.id = id
        self.responder = responder
        self.secure = secure
    }

    var server: HTTPServer? { closed ? nil : session?.connection.server }
    var requestMethod: String { arriving.method }
    var requestTarget: String { arriving.path }
    var isHeadRequest: Bool { arriving.method == "HEAD" }
    /// Why the request is refused (its body is over the limit), once it is.
    var refusal: String? { arriving.refusal }

    // MARK: - The request

    /// One header field (or pseudo-header) of the request; false when the header bytes pass `limit`.
    func addHeader(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        arriving.addHeader(name, value, limit: limit)
    }

    /// A piece of the request body; past `limit` the request is refused (413) once it ends.
    func addBody(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        arriving.addBody(bytes, limit: limit)
    }

    /// The engine's request (see ``HTTP2ArrivingRequest/makeRequest(streamID:secure:)``).
    func makeRequest() -> HTTPRequest {
        arriving.makeRequest(streamID: id, secure: secure)
    }

    // MARK: - ReplyChannel

    func writeReply(_ response: HTTPResponse, journal: JournalTicket?, closeAfter: Bool, refusal: String?) {
        let carriesBody = !isHeadRequest && response.status >= 200 && response.status != 204 && response.status != 304
        let hasBody = carriesBody && !response.body.isEmpty
        if hasBody {
            outgoing.bytes = response.body
            outgoing.ended = true
        }
        submitHead(
            response, length: carriesBody ? response.body.count : nil, journal: journal,
            journalBody: carriesBody ? response.body : [], refusal: refusal, withBody: hasBody)
        holdsInFlight = true
        session?.flush()
    }

    func writeStreamHead(_ response: HTTPResponse, chunked: Bool, closeAfter: Bool, journal: JournalTicket?)
        -> (chunked: Bool, closing: Bool)
    {
        // DATA frames frame the pieces: a known length is still announced, an open-ended one is not.
        submitHead(
            response, length: chunked ? nil : response.body.count, journal: journal, journalBody: [], refusal: nil,
            withBody: true)
        session?.flush()
        return (false, false)
    }

    func writePiece(_ bytes: [UInt8], chunked: Bool) {
        guard !closed, !bytes.isEmpty else { return }
        outgoing.bytes.append(contentsOf: bytes)
        resume()
    }

    func finishStream(chunked: Bool, closing: Bool) {
        outgoing.ended = true
        holdsInFlight = true
        answered()
        resume()
    }

    func answered() {
        current = nil
    }

    /// The HEADERS a fault sends first, exactly as they go out: `:status` (HTTP/2 has no reason
    /// phrase), the stub's fields with lower-case names and no connection-specific field, a `date`
    /// unless the stub has one, and a `content-length` only for `flow-control-stall` (whose body
    /// never comes); the head-then-break faults (`rst-stream-after-headers`, `close-after-headers`,
    /// `malformed-response-chunk`) announce no length. A `GOAWAY`'s last-stream id is the stub's,
    /// raised by ``HTTP2Session/lastStream(covering:for:faulted:highestDispatched:)`` to cover streams
    /// already acted on.
    func plan(_ fault: Fault, for response: HTTPResponse) -> FaultPlan {
        var plan = FaultPlan(head: nil, frame: FaultParameters.frame(of: fault, response.faultParameters, stream: id))
        if let frame = plan.frame, let last = frame.lastStreamID, let session {
            plan.frame?.lastStreamID = HTTP2Session.lastStream(
                covering: last, for: response.faultParameters?.lastStream ?? .previous, faulted: id,
                highestDispatched: session.highestDispatched)
        }
        guard fault.sendsHead else { return plan }
        var fields = HTTPHeaders()
        var hasDate = false
        for field in response.headers where !Self.isDropped(field.name) {
            let name = String(
                decoding: field.name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            if name == "date" { hasDate = true }
            fields.append(name: name, value: field.value)
        }
        if !hasDate, let server {
            fields.append(name: "date", value: server.table.dateHeader.withCurrentValue { String(cString: $0) })
        }
        if fault == .flowControlStall { fields.append(name: "content-length", value: String(response.body.count)) }
        plan.head = (min(max(response.status, 200), 999), nil, fields)
        return plan
    }

    func perform(_ fault: Fault, response: HTTPResponse, plan: FaultPlan) {
        guard let session, let handle = session.session, !closed else { return }
        // The error code and last-stream id as the journal recorded them (`ReplyScheduler.carryOut`).
        let code = plan.frame?.errorCode.code ?? UInt32(UNDERSTUDY_H2_INTERNAL_ERROR)
        let head = plan.head ?? (status: 200, reason: nil, headers: HTTPHeaders())
        switch fault {
        case .rstStream, .rstStreamRefused, .rstStreamCancel:
            _ = nghttp2_submit_rst_stream(handle, 0, id, code)
        case .rstStreamAfterHeaders:
            // The HEADERS must be on their way first: nghttp2 sends a queued RST_STREAM ahead of them.
            submitPlannedHead(head.headers, status: head.status, withBody: false)
            session.flush()
            _ = nghttp2_submit_rst_stream(handle, 0, id, code)
        case .goaway, .goawayNow:
            session.goAway(
                lastStream: plan.frame?.lastStreamID ?? max(0, id - 2), errorCode: code,
                closeNow: fault == .goawayNow, faulted: id)
            return
        case .flowControlStall:
            outgoing.stalled = true
            submitPlannedHead(head.headers, status: head.status, withBody: true)
        // The HTTP/1.1 faults break the whole connection, as a network failure would every stream on it.
        case .connectionReset:
            let fd = bufferevent_getfd(session.connection.bufferevent)
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            session.connection.close(reset: true)
            return
        case .emptyResponse:
            session.flush()
            session.connection.closeAfterFlush()
            return
        case .malformedResponse:
            session.writeRawThenClose(ReplyScheduler.garbage)
            return
        case .randomDataThenClose:
            session.writeRawThenClose(ReplyScheduler.brokenChunk)
            return
        case .closeAfterHeaders:
            submitPlannedHead(head.headers, status: head.status, withBody: false)
            session.writeRawThenClose([])
            return
        case .malformedResponseChunk:
            submitPlannedHead(head.headers, status: head.status, withBody: false)
            session.writeRawThenClose(ReplyScheduler.brokenChunk)
            return
        }
        session.flush()
    }

    // MARK: - Writing

    /// HTTP/2 forbids connection-specific fields (RFC 9113 §8.2.2); the transport frames the body.
    private static func isDropped(_ name: String) -> Bool {
        switch name.utf8.count {
        case 7: return HTTPHeaders.namesMatch(name, "upgrade")
        case 10: return HTTPHeaders.namesMatch(name, "connection") || HTTPHeaders.namesMatch(name, "keep-alive")
        case 14: return HTTPHeaders.namesMatch(name, "content-length")
        case 16: return HTTPHeaders.namesMatch(name, "proxy-connection")
        case 17: return HTTPHeaders.namesMatch(name, "transfer-encoding")
        default: return false
        }
    }

    /// Submits the HEADERS (with a data provider when `withBody`) and commits the journal entry
    /// from the fields submitted, before any of it is sent.
    private func submitHead(
        _ response: HTTPResponse, length: Int?, journal: JournalTicket?, journalBody: [UInt8],
        refusal: String?, withBody: Bool
    ) {
        guard let session, let handle = session.session, !closed else {
            journal?.commit(.clientGone)
            return
        }
        let status = min(max(response.status, 200), 999)
        withHead(response, status: status, length: length) { nameValues, raw in
            if let journal {
                if let refusal {
                    journal.commit(.refused(status: status, rawHeaders: raw, body: journalBody, reason: refusal))
                } else {
                    journal.commit(.answered(status: status, rawHeaders: raw, body: journalBody))
                }
            }
            let context = Unmanaged.passUnretained(session).toOpaque()
            _ = understudy_h2_submit_response(
                handle, id, nameValues.baseAddress, nameValues.count, context,
                withBody ? Self.readBody : nil)
        }
    }

    /// A fault's HEADERS with exactly `fields` (its ``plan(_:for:)``, already journaled): without
    /// END_STREAM, and with a data provider when `withBody` (`flow-control-stall`'s, which never
    /// gives a byte).
    private func submitPlannedHead(_ fields: HTTPHeaders, status: Int, withBody: Bool) {
        guard let session, let handle = session.session else { return }
        var response = HTTPResponse(status: status)
        response.headers = fields
        withHead(response, status: status, length: nil, verbatim: true) { nameValues, _ in
            if withBody {
                _ = understudy_h2_submit_response(
                    handle, id, nameValues.baseAddress, nameValues.count, Unmanaged.passUnretained(session).toOpaque(),
                    Self.readBody)
            } else {
                _ = understudy_h2_submit_headers_only(handle, id, nameValues.baseAddress, nameValues.count)
            }
        }
    }

    /// nghttp2's name/value array and the journal's raw fields over the same bytes: `:status`
    /// first, then the response's fields as sent (lower-case names, no connection-specific field),
    /// a `date` unless it has one, and `content-length` when `length` is known; `verbatim`: the
    /// response's fields alone, as given (a fault's planned head). One byte buffer holds them all;
    /// the arrays of pointers into it live on the stack.
    private func withHead(
        _ response: HTTPResponse, status: Int, length: Int?, verbatim: Bool = false,
        _ body: (UnsafeBufferPointer<nghttp2_nv>, UnsafeBufferPointer<RawHeaderField>) -> Void
    ) {
        let headers = response.headers
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + headers.count * 48)
        bytes.append(contentsOf: ":status".utf8)
        bytes.append(UInt8(truncatingIfNeeded: status / 100) &+ 0x30)
        bytes.append(UInt8(truncatingIfNeeded: status / 10 % 10) &+ 0x30)
        bytes.append(UInt8(truncatingIfNeeded: status % 10) &+ 0x30)
        withUnsafeTemporaryAllocation(of: (Int, Int, Int, Int).self, capacity: headers.count + 3) { offsets in
            offsets[0] = (0, 7, 7, 3)
            var count = 1
            var hasDate = false
            for field in headers where verbatim || !Self.isDropped(field.name) {
                if field.name.utf8.count == 4 && HTTPHeaders.namesMatch(field.name, "date") { hasDate = true }
                let nameStart = bytes.count
                for byte in field.name.utf8 { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
                let valueStart = bytes.count
                bytes.append(contentsOf: field.value.utf8)
                offsets[count] = (nameStart, valueStart - nameStart, valueStart, bytes.count - valueStart)
                count += 1
            }
            if !hasDate, !verbatim, let server {
                let nameStart = bytes.count
                bytes.append(contentsOf: "date".utf8)
                server.table.dateHeader.withCurrentValue { value in
                    bytes.append(
                        contentsOf: UnsafeBufferPointer(
                            start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                            count: strlen(value)))
                }
                offsets[count] = (nameStart, 4, nameStart + 4, bytes.count - nameStart - 4)
                count += 1
            }
            if let length {
                let nameStart = bytes.count
                bytes.append(contentsOf: "content-length".utf8)
                bytes.append(contentsOf: String(length).utf8)
                offsets[count] = (nameStart, 14, nameStart + 14, bytes.count - nameStart - 14)
                count += 1
            }
            bytes.withUnsafeBufferPointer { storage in
                let base = storage.baseAddress!
                withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: count) { nameValues in
                    withUnsafeTemporaryAllocation(of: RawHeaderField.self, capacity: count) { raw in
                        for index in 0..<count {
                            let (name, nameLength, value, valueLength) = offsets[index]
                            nameValues.initializeElement(
                                at: index, to: understudy_h2_nv(base + name, nameLength, base + value, valueLength))
                            raw.initializeElement(
                                at: index,
                                to: RawHeaderField(
                                    name: UnsafeBufferPointer(start: base + name, count: nameLength),
                                    value: UnsafeBufferPointer(start: base + value, count: valueLength)))
                        }
                        // The journal's fields leave out `:status` (it records the status on its own).
                        body(
                            UnsafeBufferPointer(rebasing: nameValues[..<count]),
                            UnsafeBufferPointer(rebasing: raw[1..<count]))
                    }
                }
            }
        }
    }

    /// There is more body (or its end): let nghttp2 read on, and send.
    private func resume() {
        guard let session, let handle = session.session, !closed else { return }
        if outgoing.deferred {
            outgoing.deferred = false
            _ = nghttp2_session_resume_data(handle, id)
        }
        session.flush()
    }

    /// nghttp2's data provider: copies what is ready of the body, defers when nothing is.
    static let readBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, user in
        guard let user, let buffer, let flags else { return Int(UNDERSTUDY_H2_ERR_CALLBACK_FAILURE) }
        let owner = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
        guard let stream = owner.streams[streamID] else { return Int(UNDERSTUDY_H2_ERR_TEMPORAL_CALLBACK_FAILURE) }
        var eof = false
        let count = stream.outgoing.read(into: buffer, length: length, endOfBody: &eof)
        if eof { flags.pointee |= UInt32(UNDERSTUDY_H2_DATA_FLAG_EOF) }
        return count
    }

    // MARK: - Closing

    /// The stream is closed (by nghttp2, or with its connection): an answer still waiting never
    /// goes out (journaled as the client gone), and what it held in flight is released.
    func end() {
        guard !closed else { return }
        let server = self.server
        closed = true
        if let pending = current {
            current = nil
            if !pending.sent {
                pending.sent = true
                pending.journal?.commit(.clientGone)
                server?.log(pending, status: nil, fault: nil, outcome: .clientGone)
            }
            pending.timer = nil
            pending.stream?.stop()
            pending.deferral?.cancel()
            // A reply written from inside its send (nghttp2 can close the stream before `answered`)
            // is counted once, below.
            if !holdsInFlight { server?.finishRequest(count: 1) }
        }
        if holdsInFlight {
            holdsInFlight = false
            // nghttp2 closes a stream as its last frame is queued, before the bytes leave: like an
            // HTTP/1.1 reply, it counts as in flight (for a graceful stop) until the output is flushed.
            if let connection = session?.connection, !connection.closed {
                connection.queued += 1
            } else {
                server?.finishRequest(count: 1)
            }
        }
    }
}

/// An HTTP/2 request as its HEADERS and DATA arrive: a value, so the session's request logic can be
/// driven without nghttp2 or a socket (`Tests/UnderstudyTransportTests`).
struct HTTP2ArrivingRequest {
    var method = ""
    var path = ""
    var authority: String?
    var headers = HTTPHeaders()
    var headerBytes = 0
    /// How many `cookie` fields arrived: more than one are joined for the engine (RFC 9113 §8.2.3).
    var cookieFields = 0
    var body: [UInt8] = []
    /// Why the request is refused (its body is over the limit), once it is.
    private(set) var refusal: String?

    /// One header field (or pseudo-header) of the request; false when the header bytes pass `limit`.
    mutating func addHeader(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool
    {
        headerBytes += name.count + value.count + 32
        guard headerBytes <= limit else { return false }
        let text = String(decoding: value, as: UTF8.self)
        if name.first == UInt8(ascii: ":") {
            switch String(decoding: name, as: UTF8.self) {
            case ":method": method = text
            case ":path": path = text
            case ":authority": authority = text
            default: break  // :scheme: the port says whether it is TLS
            }
        } else {
            // HTTP/2 field names are lower-case (nghttp2 refuses others), so a byte compare will do.
            if name.elementsEqual("cookie".utf8) { cookieFields += 1 }
            headers.append(name: String(decoding: name, as: UTF8.self), value: text)
        }
        return true
    }

    /// A piece of the request body; past `limit` the request is refused (413) once it ends.
    mutating func addBody(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        guard refusal == nil else { return }
        if body.count + bytes.count > limit {
            refusal = "the request body is larger than the \(limit)-byte limit"
            body = []
            return
        }
        body.append(contentsOf: bytes)
    }

    /// The engine's request. `:authority` becomes the `host` field HTTP/1.1 would have carried
    /// (RFC 9113 §8.3.1), first, unless the client also sent `host`. Split `cookie` fields are
    /// joined with `"; "` into one (RFC 9113 §8.2.3), so matchers and templates see the one `Cookie`
    /// an HTTP/1.1 client sends; the journal keeps them as received (``HTTPRequest/receivedHeaders``).
    mutating func makeRequest(streamID id: Int32, secure: Bool) -> HTTPRequest {
        var fields = headers
        if let authority, !headers.contains("host") {
            fields = HTTPHeaders([HTTPHeaders.Field(name: "host", value: authority)] + Array(headers))
        }
        let received = fields
        if cookieFields > 1 { fields = fields.joiningCookieFields() }
        var request = RequestTarget.request(method: method, target: path.isEmpty ? "/" : path, headers: fields)
        if cookieFields > 1 { request.receivedHeaders = received }
        request.body = body
        request.streamID = id
        if secure { request.isSecure = true }
        body = []
        headers = HTTPHeaders()
        return request
    }
}

/// An HTTP/2 answer's body as nghttp2's data provider reads it: what is ready, whether the end has
/// come, and whether the provider deferred (to be resumed when there is more).
struct HTTP2OutgoingBody {
    var bytes: [UInt8] = []
    var sentOffset = 0
    /// The whole body is in `bytes` (or was sent).
    var ended = false
    /// The data provider returned `NGHTTP2_ERR_DEFERRED`: resume it when there is more.
    var deferred = false
    /// `flow-control-stall`: the body never comes.
    var stalled = false

    /// What ``read(into:length:endOfBody:)`` returns when no byte is ready: nghttp2's `NGHTTP2_ERR_DEFERRED`.
    static let deferral = Int(UNDERSTUDY_H2_ERR_DEFERRED)

    /// Copies up to `length` ready bytes into `buffer`; returns how many, or nghttp2's
    /// `NGHTTP2_ERR_DEFERRED` when none is ready. `endOfBody` is set when the last byte is copied.
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, length: Int, endOfBody: inout Bool) -> Int {
        if stalled {
            deferred = true
            return Self.deferral
        }
        let available = bytes.count - sentOffset
        let count = min(available, length)
        if count > 0 {
            let offset = sentOffset
            bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + offset, count: count) }
            sentOffset += count
        }
        if sentOffset == bytes.count {
            bytes = []
            sentOffset = 0
            if ended {
                endOfBody = true
                return count
            }
        }
        if count == 0 {
            deferred = true
            return Self.deferral
        }
        return count
    }
}
