#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

extension HTTPServer {
    /// evhttp has parsed a request: build the engine's view of it, ask the responder, then
    /// answer now, on a timer, or when the responder's deferred reply comes. The journal entry
    /// is written when the answer goes out (see ``send(_:on:)``), so it records what was sent.
    func accept(_ request: OpaquePointer, responder: any HTTPResponder) {
        let receivedAt = clock.nanoseconds()
        guard let evcon = evhttp_request_get_connection(request) else { return }
        let bufferevent = evhttp_connection_get_bufferevent(evcon)
        // Usually the connection whose bytes were just read (see `readingConnection`); else the table.
        let connection = readingConnection.flatMap { $0.bufferevent == bufferevent ? $0 : nil }
            ?? bufferevent.flatMap { connections[UnsafeMutableRawPointer($0)] }
        if let connection, connection.evcon == nil { attach(connection) }
        connection?.cancelDeadline()

        let uri = evhttp_request_get_uri(request)
        let target = uri.map { String(cString: $0) } ?? "/"
        // The raw-stream reader keeps heads only for methods evhttp does not know (it hands
        // those over nameless); every other request is described by evhttp's own parse.
        let knownMethod = Self.knownMethodName(evhttp_request_get_command(request))
        let head = knownMethod == nil ? connection?.takeHead(target: target) : nil
        let method = knownMethod ?? head?.method ?? "UNKNOWN"
        let (headers, contentLengths) = evhttp_request_get_input_headers(request).map { list in
            connection?.headerCache.headers(of: list) ?? Self.fields(of: list)
        } ?? (HTTPHeaders(), 0)
        var body = Self.drain(evhttp_request_get_input_buffer(request))
        var closeAfter = false
        var refusal: String?

        // libevent 2.1 reads no body for methods it does not know; take a declared one from the
        // connection's buffer when it has fully arrived, else refuse (the stream is out of step).
        if let head, !head.isKnownToLibevent, head.chunked || (head.declaredLength ?? 0) > 0 {
            let input = bufferevent.map { bufferevent_get_input($0) }
            if !head.chunked, let input, let length = head.declaredLength, evbuffer_get_length(input) >= length {
                body = Self.drain(input, count: length)
            } else {
                closeAfter = true
                refusal = "a body on method \(method) must use Content-Length and arrive with its headers (libevent 2.1 does not read bodies of methods it does not know)"
            }
        }

        // RFC 9112 §6.3: differing Content-Length values make the framing ambiguous (a smuggling
        // risk); refuse and close. Identical repeats are harmless.
        if refusal == nil, contentLengths > 1, let conflict = Self.conflictingContentLengths(headers) {
            closeAfter = true
            refusal = "conflicting Content-Length values: \(conflict)"
        }

        var engineRequest = Self.makeRequest(method: method, target: target, uri: uri, headers: headers, body: body)
        if let connection, connection.secure { engineRequest.isSecure = true }
        openJournalBatch()
        let response: HTTPResponse
        let journal: JournalTicket?
        if let refusal {
            (response, journal) = responder.rejectAwaitingDelivery(engineRequest, status: 400, reason: refusal)
        } else {
            switch responder.answerAwaitingDelivery(engineRequest) {
            case (.now(let answer), let ticket):
                (response, journal) = (answer, ticket)
            case (.later(let deferral), _):
                answerLater(deferral, request: request, method: method, target: target, receivedAt: receivedAt, on: connection)
                return
            }
        }

        inFlight += 1
        if let connection, response.delayMs <= 0, response.fault == nil, response.streaming == nil {
            // Answered at once, the usual case: written now, with nothing to keep for later
            // (no ``PendingReply``); the connection counts as writing until evhttp is done.
            transmit(response, for: request, journal: journal, closeAfter: closeAfter,
                     logAs: (method, target, receivedAt), on: connection)
            return
        }
        let pending = PendingReply(request: request, response: response, journal: journal, method: method, target: target,
                                   receivedAt: receivedAt, closeAfter: closeAfter)
        guard let connection else {
            // Not a connection we created (cannot happen with our bufferevent callback); answer plainly.
            send(pending, on: nil)
            return
        }
        connection.current = pending
        if response.delayMs > 0 || response.fault != nil {
            // Faults too go through the loop: closing a connection from inside evhttp's own
            // callback would free it under evhttp's feet.
            schedule(pending, on: connection, afterMilliseconds: response.delayMs)
        } else {
            send(pending, on: connection)  // a paced body, started now
        }
    }

    /// A request the responder answers later (a long poll): it stays in flight, holding its
    /// connection, until the responder answers, the timeout fires (``DeferredReply/expire()``),
    /// or the client hangs up (`closed(_:)` cancels it). Exactly one of those sends, at most once.
    func answerLater(_ deferral: DeferredReply, request: OpaquePointer, method: String, target: String,
                receivedAt: UInt64, on connection: Connection?) {
        let pending = PendingReply(request: request, response: HTTPResponse(status: 500), method: method, target: target,
                                   receivedAt: receivedAt, closeAfter: false)
        inFlight += 1
        guard let connection else {
            deferral.cancel()
            pending.response = HTTPResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                            body: Array("cannot wait on this connection\n".utf8))
            send(pending, on: nil)
            return
        }
        pending.deferral = deferral
        connection.current = pending
        if let seconds = deferral.timeoutSeconds {
            let timer = EventHandle(event_new(base, -1, 0, { _, _, context in
                guard let context else { return }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                // Sending drops the pending reply and its timer: keep this event alive until its callback returns.
                let timer = connection.current?.timer
                withExtendedLifetime(timer) { connection.current?.deferral?.expire() }
            }, Unmanaged.passUnretained(connection).toOpaque()))
            pending.timer = timer
            timer?.add(afterSeconds: seconds)
        }
        watchForHangup(pending, on: connection)
        deferral.attach { [weak self, weak connection, weak pending] response in
            guard let self, let connection, let pending, connection.current === pending else { return }
            pending.deferral = nil
            pending.response = response
            pending.timer = nil
            pending.hangupWatch = nil
            self.send(pending, on: connection)
        }
        // A wait that arrives on a kept-alive connection while the server drains answers at once.
        if draining { deferral.expire() }
    }

    /// Answers every pending long poll with what it has (the server is stopping).
    func expireDeferredReplies() {
        for connection in Array(connections.values) {
            connection.current?.deferral?.expire()
        }
    }

    /// Answers after `milliseconds` on a loop timer, so other requests carry on meanwhile.
    func schedule(_ pending: PendingReply, on connection: Connection, afterMilliseconds milliseconds: Double) {
        let context = Unmanaged.passUnretained(connection).toOpaque()
        let timer = EventHandle(event_new(base, -1, 0, { _, _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            guard let server = connection.server, let pending = connection.current else { return }
            // libevent measures timers from the time it cached at the top of the loop iteration,
            // so a timer can fire a little before `delayMs` has passed since the request arrived;
            // a delay is a promise of "no earlier than", so wait out the remainder.
            let now = server.clock.nanoseconds()
            if now < pending.dueAt {
                pending.timer?.add(afterSeconds: Double(pending.dueAt - now) / 1_000_000_000)
                return
            }
            if pending.response.fault == nil { server.openJournalBatch() }
            server.send(pending, on: connection)
        }, context))
        pending.timer = timer
        pending.dueAt = pending.receivedAt + UInt64(max(0, milliseconds) * 1_000_000)
        timer?.add(afterSeconds: milliseconds / 1000)
        if milliseconds > 0 { watchForHangup(pending, on: connection) }
    }

    /// Writes the response (or carries out its fault).
    func send(_ pending: PendingReply, on connection: Connection?) {
        guard !pending.sent else { return }
        pending.sent = true
        pending.hangupWatch = nil
        let response = pending.response
        if let fault = response.fault, let connection {
            carryOut(fault, for: pending, on: connection)
            return
        }
        if response.streaming != nil, let connection, startStream(pending, on: connection) { return }
        guard let connection else {
            // Not our connection (cannot happen): evhttp may free the request as it replies.
            let request = pending.request
            let carriesBody = Self.carriesBody(status: response.status, command: evhttp_request_get_command(request))
            addHeaders(of: response, to: request, carriesBody: carriesBody, closeAfter: pending.closeAfter)
            log(pending, status: response.status, fault: nil)
            if carriesBody, !response.body.isEmpty, let output = evhttp_request_get_output_buffer(request) {
                response.body.withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
            }
            journalAnswer(pending, carriesBody: carriesBody)
            ReasonPhrase.withCString(response.status, reason: response.reason) { evhttp_send_reply(request, Int32(response.status), $0, nil) }
            finishRequest()
            return
        }
        transmit(response, for: pending.request, journal: pending.journal, closeAfter: pending.closeAfter,
                 logAs: (pending.method, pending.target, pending.receivedAt), on: connection)
    }

    /// Writes `response` to `request` on `connection`, whose ``Connection/writing`` stays set
    /// until evhttp has written it all (its on-complete callback), and commits the journal entry.
    func transmit(_ response: HTTPResponse, for request: OpaquePointer, journal: JournalTicket?, closeAfter: Bool,
                  logAs entry: (method: String, target: String, receivedAt: UInt64), on connection: Connection) {
        // No body for HEAD, 1xx, 204 or 304. libevent 2.1 would write whatever is in the output
        // buffer regardless, and on a kept-alive connection the client would read those bytes as
        // the start of the next response.
        let carriesBody = Self.carriesBody(status: response.status, command: evhttp_request_get_command(request))
        // The stub's own fields skip evhttp's list when nothing in it depends on them (see
        // `HTTPServer+ReplyHead.swift`); evhttp then lists only what it decides on.
        let direct = Self.writableDirectly(response.headers)
        addHeaders(of: response, to: request, carriesBody: carriesBody, closeAfter: closeAfter, ownFields: !direct)
        connection.writing = true
        evhttp_request_set_on_complete_cb(request, { _, context in
            guard let context else { return }
            let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
            connection.current = nil
            connection.writing = false
            connection.server?.finishRequest()
        }, Unmanaged.passUnretained(connection).toOpaque())
        if accessLog != nil {
            log(method: entry.method, target: entry.target, stubID: response.stubID, receivedAt: entry.receivedAt,
                status: response.status, fault: nil)
        }
        // The head and body go into the connection's output buffer, which reaches the socket
        // only on a later pass of the loop (when the socket is writable): the journal entry,
        // committed in `reply`, is still written before the first byte.
        reply(response, to: request, journal: journal, carriesBody: carriesBody, directFields: direct, on: connection)
        if connection.secure { coalesceTLSOutput(of: connection) }
    }

    /// The response's own fields unless `ownFields` is false (all but `Transfer-Encoding`: evhttp
    /// frames the body), then a `Date` and a `Content-Length` unless it has them, and
    /// `Connection: close` when the connection must close.
    func addHeaders(of response: HTTPResponse, to request: OpaquePointer, carriesBody: Bool, closeAfter: Bool,
                    ownFields: Bool = true) {
        guard let output = evhttp_request_get_output_headers(request) else { return }
        var hasDate = false, hasLength = false
        for field in response.headers where ownFields && !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
            // `withCString` explicitly: passing a small `String` as a C string argument copies
            // it into a new array, where `withCString` uses the stack.
            field.name.withCString { name in field.value.withCString { _ = evhttp_add_header(output, name, $0) } }
            if !hasDate && HTTPHeaders.namesMatch(field.name, "Date") { hasDate = true }
            if !hasLength && HTTPHeaders.namesMatch(field.name, "Content-Length") { hasLength = true }
        }
        if !hasDate {
            dateHeader.withCurrentValue { _ = evhttp_add_header(output, "Date", $0) }
        }
        // evhttp formats the Content-Length it adds with snprintf; give it the same value.
        if !hasLength && carriesBody {
            Self.withDecimal(response.body.count) { _ = evhttp_add_header(output, "Content-Length", $0) }
        }
        if draining || closeAfter {
            evhttp_remove_header(output, "Connection")
            evhttp_add_header(output, "Connection", "close")
        }
    }

    /// Commits the journal entry of an answer: its status, the head as evhttp holds it (lent as
    /// raw bytes, no `String` made) and the body sent.
    func journalAnswer(_ pending: PendingReply, carriesBody: Bool) {
        guard let journal = pending.journal else { return }
        let status = pending.response.status, body = carriesBody ? pending.response.body : []
        if let reason = pending.response.reason { journal.sentReason = reason }
        Self.withOutputFields(of: pending.request, after: nil) { fields in
            journal.commit(.answered(status: status, rawHeaders: fields, body: body))
        }
    }

    /// Calls `body` with the request's output header fields as evhttp holds them, after `direct`
    /// (a response's own fields written without evhttp, `Transfer-Encoding` left out), lent as
    /// raw bytes valid only during the call, from allocations on the stack.
    static func withOutputFields<Result>(of request: OpaquePointer, after direct: HTTPHeaders?,
                                         _ body: (UnsafeBufferPointer<RawHeaderField>) -> Result) -> Result {
        let list = evhttp_request_get_output_headers(request)
        var count = direct?.count ?? 0
        var field = list.flatMap { understudy_keyvalq_first($0) }
        while let current = field {
            count += 1
            field = understudy_keyval_next(current)
        }
        guard let direct else { return withFields(count: count, direct: nil, list: list, body) }
        var directBytes = 0
        for field in direct { directBytes += field.name.utf8.count + field.value.utf8.count }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: directBytes) { bytes in
            withFields(count: count, direct: bytes.baseAddress.map { (direct, $0) }, list: list, body)
        }
    }

    /// ``withOutputFields(of:after:_:)``'s fields: `direct`'s copied to its bytes, then `list`'s.
    private static func withFields<Result>(count: Int, direct: (HTTPHeaders, UnsafeMutablePointer<UInt8>)?,
                                           list: UnsafeMutablePointer<evkeyvalq>?,
                                           _ body: (UnsafeBufferPointer<RawHeaderField>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: RawHeaderField.self, capacity: count) { raw in
            var filled = 0
            if let (fields, start) = direct {
                // Copied out of the strings (a small string has no storage to point into).
                var next = start
                for field in fields where !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
                    let name = Self.copy(field.name, to: &next), value = Self.copy(field.value, to: &next)
                    raw.initializeElement(at: filled, to: RawHeaderField(name: name, value: value))
                    filled += 1
                }
            }
            var field = list.flatMap { understudy_keyvalq_first($0) }
            while let current = field, filled < count {
                if let key = current.pointee.key, let value = current.pointee.value {
                    raw.initializeElement(at: filled, to: RawHeaderField(name: Self.bytes(key), value: Self.bytes(value)))
                    filled += 1
                }
                field = understudy_keyval_next(current)
            }
            defer { raw.baseAddress?.deinitialize(count: filled) }
            return body(UnsafeBufferPointer(rebasing: raw[..<filled]))
        }
    }

    /// Copies `text`'s UTF-8 to `next`, moves `next` past it, and returns the copy.
    private static func copy(_ text: String, to next: inout UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var text = text
        let start = next
        text.withUTF8 { utf8 in
            if let source = utf8.baseAddress { next.update(from: source, count: utf8.count) }
            next += utf8.count
        }
        return UnsafeBufferPointer(start: start, count: next - start)
    }

    /// A C string's bytes, without the NUL.
    static func bytes(_ text: UnsafeMutablePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
    }

    /// Journals a request evhttp refuses on its own (evhttp sends the refusal itself and never
    /// calls back), while the refusal has not been written yet.
    func refuse(_ head: RequestHead, status: Int, reason: String, responder: any HTTPResponder, secure: Bool = false) {
        let start = clock.nanoseconds()
        openJournalBatch()
        var request = head.request()
        request.isSecure = secure
        let (response, journal) = responder.rejectAwaitingDelivery(request, status: status, reason: reason)
        if let reason = LibeventErrorPage.nonstandardReason(status) { journal?.sentReason = reason }
        journal?.commit(LibeventErrorPage.delivery(status: status))
        accessLog?(AccessLogEntry(method: head.method, target: head.target, status: response.status,
                                  stubID: response.stubID, fault: nil, milliseconds: clock.milliseconds(since: start)))
    }

    func log(_ pending: PendingReply, status: Int?, fault: Fault?, outcome: ReplyOutcome = .answered) {
        log(method: pending.method, target: pending.target, stubID: pending.response.stubID, receivedAt: pending.receivedAt,
            status: status, fault: fault, outcome: outcome)
    }

    func log(method: String, target: String, stubID: String?, receivedAt: UInt64, status: Int?, fault: Fault?,
             outcome: ReplyOutcome = .answered) {
        guard let accessLog else { return }
        accessLog(AccessLogEntry(method: method, target: target, status: status, stubID: stubID, fault: fault,
                                 outcome: outcome, milliseconds: clock.milliseconds(since: receivedAt)))
    }


    /// Whether a response carries a body (and so a Content-Length, which evhttp adds exactly
    /// then): not for HEAD, 1xx, 204 or 304 (RFC 9110 §6.4.1).
    static func carriesBody(status: Int, command: evhttp_cmd_type) -> Bool {
        command != EVHTTP_REQ_HEAD && status >= 200 && status != 204 && status != 304
    }

    /// Calls `body` with `value` (non-negative) as a NUL-terminated decimal string on the stack.
    static func withDecimal<Result>(_ value: Int, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 24) { digits in
            var position = 23
            digits[position] = 0
            var rest = max(0, value)
            repeat {
                position -= 1
                digits[position] = CChar(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            return body(digits.baseAddress! + position)
        }
    }

    /// The method name for evhttp's command bits; nil for the bit libevent 2.1 gives every
    /// method it does not know.
    static func knownMethodName(_ command: evhttp_cmd_type) -> String? {
        switch command {
        case EVHTTP_REQ_GET: return "GET"
        case EVHTTP_REQ_POST: return "POST"
        case EVHTTP_REQ_HEAD: return "HEAD"
        case EVHTTP_REQ_PUT: return "PUT"
        case EVHTTP_REQ_DELETE: return "DELETE"
        case EVHTTP_REQ_OPTIONS: return "OPTIONS"
        case EVHTTP_REQ_TRACE: return "TRACE"
        case EVHTTP_REQ_CONNECT: return "CONNECT"
        case EVHTTP_REQ_PATCH: return "PATCH"
        default: return nil
        }
    }

    /// The engine's request, the target split at its first `?`. An origin-form target (the usual
    /// case) is split on evhttp's C string (`uri`, the same bytes as `target`): no `?`, and the
    /// path is `target` itself; absolute-form is reduced to origin-form first.
    static func makeRequest(method: String, target: String, uri: UnsafePointer<CChar>?, headers: HTTPHeaders,
                            body: [UInt8]) -> HTTPRequest {
        guard let uri, uri.pointee == CChar(UInt8(ascii: "/")) else {
            return makeRequest(method: method, target: RequestHead.originForm(target), headers: headers, body: body)
        }
        guard let question = strchr(uri, Int32(UInt8(ascii: "?"))) else {
            return HTTPRequest(method: method, path: target, query: nil, headers: headers, body: body)
        }
        let path = UnsafeRawBufferPointer(start: uri, count: uri.distance(to: question))
        return HTTPRequest(method: method, path: String(decoding: path, as: UTF8.self),
                           query: String(cString: question + 1), headers: headers, body: body)
    }

    /// ``makeRequest(method:target:uri:headers:body:)`` for an origin-form `target` alone.
    static func makeRequest(method: String, target: String, headers: HTTPHeaders, body: [UInt8]) -> HTTPRequest {
        guard let offset = target.firstUTF8Offset(of: UInt8(ascii: "?")) else {
            return HTTPRequest(method: method, path: target, query: nil, headers: headers, body: body)
        }
        let utf8 = target.utf8
        let mark = utf8.index(utf8.startIndex, offsetBy: offset)
        return HTTPRequest(method: method, path: String(target[..<mark]), query: String(target[utf8.index(after: mark)...]),
                           headers: headers, body: body)
    }

    /// The differing Content-Length values, when a request carries more than one value.
    static func conflictingContentLengths(_ headers: HTTPHeaders) -> String? {
        var values: [String] = []
        for field in headers where HTTPHeaders.namesMatch(field.name, "Content-Length") {
            for part in field.value.split(separator: ",") {
                let value = String(part.drop(while: { $0 == " " || $0 == "\t" }).reversed()
                    .drop(while: { $0 == " " || $0 == "\t" }).reversed())
                if !values.contains(value) { values.append(value) }
            }
        }
        return values.count > 1 ? values.joined(separator: ", ") : nil
    }

    /// An evhttp header list's fields in order, in an array allocated once at its size, and how
    /// many are named Content-Length.
    static func fields(of list: UnsafeMutablePointer<evkeyvalq>) -> (HTTPHeaders, contentLengths: Int) {
        var count = 0
        var field = understudy_keyvalq_first(list)
        while let current = field {
            count += 1
            field = understudy_keyval_next(current)
        }
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(count)
        var contentLengths = 0
        field = understudy_keyvalq_first(list)
        while let current = field {
            if let key = current.pointee.key, let value = current.pointee.value {
                if strcasecmp(key, "Content-Length") == 0 { contentLengths += 1 }
                fields.append(HTTPHeaders.Field(name: String(cString: key), value: String(cString: value)))
            }
            field = understudy_keyval_next(current)
        }
        return (HTTPHeaders(fields), contentLengths)
    }

    /// Removes `count` bytes (all, when nil) from an evbuffer.
    static func drain(_ buffer: OpaquePointer?, count: Int? = nil) -> [UInt8] {
        guard let buffer else { return [] }
        let length = min(count ?? evbuffer_get_length(buffer), evbuffer_get_length(buffer))
        guard length > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: length) { storage, initialized in
            initialized = max(0, Int(evbuffer_remove(buffer, storage.baseAddress, length)))
        }
    }
}
