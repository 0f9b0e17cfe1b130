#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// One HTTP/1.1 client connection on a libevent bufferevent (a plain socket or OpenSSL): it reads
/// bytes, parses them with ``RequestHeadParser`` and ``ChunkedBodyReader`` (the only parser),
/// hands each complete request to its server, and writes replies straight into the
/// bufferevent's output (see `Connection+Reply.swift`).
///
/// Requests on a connection are answered in order, one at a time: while one waits (a delay, a
/// long poll, a paced body) the bytes of the next stay in the input buffer. A reply sent at once
/// goes into the output buffer and the next pipelined request is read at once, so a pipeline
/// of requests costs one read and one write.
///
/// Created by the server on accept, kept alive by its table, and released in ``close()``.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check buys nothing.
final class Connection {
    /// Where in a request the reader is.
    enum Phase {
        case head
        /// The rest of a `Content-Length` body.
        case body(remaining: Int)
        case chunked(ChunkedBodyReader)
        /// A refusal was sent: what the client still sends is read and dropped until it closes
        /// (or the linger time passes), so it sees the refusal rather than a reset.
        case lingering
    }

    /// What the reply to the request being answered needs to know about it.
    struct Exchange {
        var method: String = ""
        var target: String = ""
        var isHead = false
        var keepAlive = true
        /// 0 for HTTP/1.0.
        var minorVersion = 1
    }

    let bufferevent: OpaquePointer
    /// The connection's socket. The bufferevent owns it (and closes it when freed); it is kept here
    /// because `bufferevent_getfd` takes the bufferevent's lock: ~65 instructions a call, several a
    /// connection.
    let fd: Int32
    /// Who answers requests on this connection: the main port's responder or a session's.
    let responder: any HTTPResponder
    /// Whether the connection speaks TLS.
    let secure: Bool
    /// The port it was accepted on (a session's port closes its connections with it).
    let port: ListeningPort
    /// The server, while the connection is open.
    @exclusivity(unchecked) var server: HTTPServer?
    /// Where the connection is in the server's table (``ConnectionTable/connections``); -1 once it left.
    @exclusivity(unchecked) var tableIndex = -1
    @exclusivity(unchecked) var head: RequestHeadParser
    @exclusivity(unchecked) var phase = Phase.head
    /// The request whose body is arriving (head read, body not yet whole).
    @exclusivity(unchecked) var arriving: HTTPRequest?
    @exclusivity(unchecked) var body: [UInt8] = []
    /// The request being answered: its reply's framing rules.
    @exclusivity(unchecked) var exchange = Exchange()
    /// The previous request's header fields, reused when the next one sends the same bytes.
    @exclusivity(unchecked) var headerCache = RequestHeaderBlockCache()
    /// A request being answered later (a delay, a fault, a long poll or a paced body). While
    /// it is set no further request is read.
    @exclusivity(unchecked) var current: PendingReply?
    /// Replies written to the output buffer and not yet flushed to the socket; each counts as
    /// in flight for a graceful stop until it has.
    @exclusivity(unchecked) var queued = 0
    /// The connection closes once its output is flushed (a `Connection: close` reply, HTTP/1.0,
    /// a refusal, the client's end of stream).
    @exclusivity(unchecked) var closeWhenFlushed = false
    /// Run once the output buffer is empty (a fault that must follow earlier replies).
    var whenFlushed: (() -> Void)?
    /// The client has closed its side.
    @exclusivity(unchecked) var peerClosed = false
    /// Reading is paused: too much unanswered input, or too much unsent output.
    @exclusivity(unchecked) var readPaused = false
    var closed = false
    /// A whole head (and body) must arrive within the idle timeout of its first byte, however
    /// slowly it trickles. One timer per connection, made on its first request; it stays
    /// pending across requests and, when it fires, checks whether a request is still arriving
    /// and since when, re-arming itself for what is left of that request's deadline.
    var requestDeadline: EventHandle?
    @exclusivity(unchecked) var deadlineArmed = false
    @exclusivity(unchecked) var requestBegan: UInt64 = 0
    @exclusivity(unchecked) var deadlineTimerPending = false
    /// Ends a lingering close.
    var lingerTimer: EventHandle?
    /// Set once the first bytes have shown which protocol the client speaks.
    @exclusivity(unchecked) var protocolKnown = false
    /// The HTTP/2 codec, once the client sent HTTP/2's preface (h2c with prior knowledge, or h2
    /// after ALPN): from then on it reads and writes the bufferevent.
    var http2: HTTP2Session?
    /// A plain connection's own read event (made when it first waits for bytes) and the idle timeout
    /// it restarts with, and the watch on its output buffer (see `Connection+Socket.swift`); nil on
    /// TLS connections.
    var reader: EventHandle?
    var readTimeout: timeval?
    var outputWatch: OpaquePointer?
    /// The connection is in the server's flush list for this loop pass.
    @exclusivity(unchecked) var flushPosted = false
    /// The kernel did not take all of a flush: the bufferevent's write side is writing the rest.
    @exclusivity(unchecked) var writingLeftover = false

    /// Input or output beyond which reading pauses until the connection catches up.
    static let backlogLimit = 1 << 20

    init(
        bufferevent: OpaquePointer, fd: Int32, responder: any HTTPResponder, secure: Bool, port: ListeningPort,
        limits: RequestHeadParser.Limits
    ) {
        self.bufferevent = bufferevent
        self.fd = fd
        self.responder = responder
        self.secure = secure
        self.port = port
        self.head = RequestHeadParser(limits: limits)
    }

    /// Hands the connection to an HTTP/2 session, which reads the preface and what follows it.
    private func startHTTP2(_ server: HTTPServer) {
        let streams = responder.maxConcurrentStreams ?? server.configuration.maxConcurrentStreams
        guard let session = HTTP2Session(connection: self, maxConcurrentStreams: streams) else {
            close()
            return
        }
        http2 = session
        session.readable()
    }

    /// Whether a request is being answered.
    var answering: Bool { current != nil }

    /// Installs the callbacks and starts reading.
    func start(timeout: timeval?) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(
            bufferevent,
            { _, context in
                guard let context else { return }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                withExtendedLifetime(connection) { connection.readable() }
            },
            { _, context in
                guard let context else { return }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                withExtendedLifetime(connection) { connection.flushed() }
            },
            { _, events, context in
                guard let context else { return }
                let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                withExtendedLifetime(connection) { connection.event(events) }
            }, context)
        if !secure, let server {
            // Its own reading and flushing (`Connection+Socket.swift`): the bufferevent's write side
            // (enabled by libevent) starts disabled, and gets the write timeout when it is first used.
            readTimeout = timeout
            bufferevent_disable(bufferevent, Int16(EV_WRITE))
            startDirectIO(server)
            return
        }
        if var timeout {
            // The idle timeout, for reads and for writes that make no progress (a slow client).
            var write = timeout
            bufferevent_set_timeouts(bufferevent, &timeout, &write)
        }
        bufferevent_enable(bufferevent, Int16(EV_READ | EV_WRITE))
    }

    // MARK: - Reading

    /// New bytes are in the input buffer.
    func readable() {
        guard let server, !closed else { return }
        if let http2 {
            if closeWhenFlushed {
                let input = bufferevent_get_input(bufferevent)
                evbuffer_drain(input, evbuffer_get_length(input))
            } else {
                http2.readable()
            }
            return
        }
        let input = bufferevent_get_input(bufferevent)
        if !protocolKnown {
            // HTTP/1.1 unless the first bytes are HTTP/2's preface; a prefix of it waits for more.
            guard let isHTTP2 = HTTP2Session.startsWithPreface(input) else { return }
            protocolKnown = true
            if isHTTP2 {
                startHTTP2(server)
                return
            }
        }
        if case .lingering = phase {
            evbuffer_drain(input, evbuffer_get_length(input))
            return
        }
        if answering || closeWhenFlushed {
            // The next request waits for this one's answer; don't buffer without bound meanwhile.
            if evbuffer_get_length(input) > Self.backlogLimit { pauseReading() }
            return
        }
        process()
        // The deadline runs only while a request is partly in: one that arrived whole (nearly all)
        // is answered above and costs no timer and no clock read.
        if !deadlineArmed && !answering && !closeWhenFlushed && !closed && isMidRequest(input) {
            server.armRequestDeadline(on: self)
        }
    }

    /// Whether part of a request has been read and the rest has not.
    private func isMidRequest(_ input: OpaquePointer?) -> Bool {
        if case .head = phase { return evbuffer_get_length(input) > 0 }
        return true
    }

    /// Reads and hands over every complete request in the input buffer, until one must wait.
    func process() {
        while !answering && !closeWhenFlushed && !closed, let server {
            if evbuffer_get_length(bufferevent_get_output(bufferevent)) > Self.backlogLimit {
                pauseReading()  // a pipelining client that does not read its replies
                return
            }
            switch nextRequest() {
            case nil:
                if peerClosed { finishAfterPeerClosed() }
                return
            case .request(let request)?:
                deadlineArmed = false
                server.handle(request, on: self)
            case .refused(let refusal)?:
                deadlineArmed = false
                server.refuse(refusal, on: self)
            }
        }
    }

    enum Arrival {
        case request(HTTPRequest)
        case refused(HTTPRefusal)
    }

    /// The next complete request in the input buffer, a refusal, or nil when more bytes are needed.
    func nextRequest() -> Arrival? {
        let input = bufferevent_get_input(bufferevent)
        while true {
            switch phase {
            case .head:
                let total = evbuffer_get_length(input)
                guard total > 0 else { return nil }
                // The head is read in place in the buffer's first chunk (usually all of it); a head
                // that spans chunks is pulled up into one, only as far as the limits allow.
                var count = evbuffer_get_contiguous_space(input)
                guard var base = evbuffer_pullup(input, count) else { return nil }
                var outcome = head.read(base, count: count)
                while case .incomplete = outcome {
                    let window = min(total, head.start + head.limits.maxRequestLine + head.limits.maxFieldBytes + 8)
                    guard count < window, let pulled = evbuffer_pullup(input, window) else { return nil }
                    base = pulled
                    count = window
                    outcome = head.read(base, count: count)
                }
                switch outcome {
                case .incomplete:
                    return nil
                case .refused(let refusal):
                    describeRefused(base)
                    return .refused(refusal)
                case .complete(let end):
                    switch beginRequest(base, end: end) {
                    case .failure(let refusal):
                        return .refused(refusal)
                    case .success(let request):
                        evbuffer_drain(input, end)
                        if let complete = request { return .request(complete) }
                    }
                }
            case .body(let remaining):
                guard evbuffer_get_length(input) >= remaining else { return nil }
                body = Self.remove(remaining, from: input)
                phase = .head
                return completeRequest()
            case .chunked(var reader):
                let total = evbuffer_get_length(input)
                guard total > 0 else { return nil }
                let count = min(total, max(evbuffer_get_contiguous_space(input), ChunkedBodyReader.maxLine + 2))
                guard let base = evbuffer_pullup(input, count) else { return nil }
                let step = reader.step(base, count: count)
                phase = .chunked(reader)
                switch step {
                case .needMore:
                    return nil
                case .framing(let length):
                    evbuffer_drain(input, length)
                case .data(let length):
                    if body.isEmpty { body.reserveCapacity(length) }
                    body.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
                    evbuffer_drain(input, length)
                case .end(let length):
                    evbuffer_drain(input, length)
                    phase = .head
                    return completeRequest()
                case .refused(let refusal):
                    return .refused(refusal)
                }
            case .lingering:
                return nil
            }
        }
    }

    /// A complete head at `base[0..<end]`: the request it describes, with its body when it has
    /// none (`.success(nil)` when a body must be read first).
    private func beginRequest(_ base: UnsafePointer<UInt8>, end: Int) -> Result<HTTPRequest?, HTTPRefusal> {
        let method = Self.method(base + head.start, count: head.methodEnd - head.start)
        guard
            let target = Self.utf8Text(
                UnsafeBufferPointer(start: base + head.targetStart, count: head.targetEnd - head.targetStart))
        else {
            exchange = Exchange(
                method: method, target: "", isHead: false, keepAlive: false, minorVersion: head.minorVersion)
            return .failure(.badRequest("the request target is not UTF-8 (RFC 3986 §2)"))
        }
        let headers = headerCache.headers(base, fieldsStart: head.fieldsStart, fields: head.fields, end: end)
        exchange = Exchange(
            method: method, target: target, isHead: head.methodEnd - head.start == 4 && method == "HEAD",
            keepAlive: head.keepAlive, minorVersion: head.minorVersion)
        var request = RequestTarget.request(method: method, target: target, headers: headers)
        if secure { request.isSecure = true }
        let framing = head.framing
        let expectsContinue = head.expectsContinue && head.minorVersion == 1
        head.reset()
        switch framing {
        case .none:
            return .success(request)
        case .length(let length):
            guard length <= server?.configuration.maxBodyBytes ?? 0 else {
                arriving = request
                return .failure(
                    HTTPRefusal(
                        status: 413,
                        reason:
                            "the request body of \(length) bytes is larger than the \(server?.configuration.maxBodyBytes ?? 0)-byte limit"
                    ))
            }
            phase = .body(remaining: length)
            if expectsContinue && evbuffer_get_length(bufferevent_get_input(bufferevent)) < end + length {
                sendContinue()
            }
        case .chunked:
            let maximum = server?.configuration.maxBodyBytes ?? 0
            phase = .chunked(ChunkedBodyReader(maxBody: maximum, maxTrailerBytes: head.limits.maxFieldBytes))
            body = []
            if expectsContinue { sendContinue() }
        }
        arriving = request
        return .success(nil)
    }

    /// The method as a string: the common ones are literals, so they cost no UTF-8 decoding
    /// (~160 instructions a request, callgrind); any other token is decoded.
    static func method(_ bytes: UnsafePointer<UInt8>, count: Int) -> String {
        func matches(_ name: StaticString) -> Bool {
            memcmp(bytes, name.utf8Start, count) == 0
        }
        switch count {
        case 3:
            if bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E") && bytes[2] == UInt8(ascii: "T") {
                return "GET"
            }
            if matches("PUT") { return "PUT" }
        case 4:
            if matches("POST") { return "POST" }
            if matches("HEAD") { return "HEAD" }
        case 5:
            if matches("PATCH") { return "PATCH" }
        case 6:
            if matches("DELETE") { return "DELETE" }
        case 7:
            if matches("OPTIONS") { return "OPTIONS" }
        default:
            break
        }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The bytes as a string, nil when they are not UTF-8. An ASCII target (nearly all) skips
    /// `String(validating:)`, which is generic over the encoding: ~1 500 instructions a request with
    /// its metadata lookups, 8 % of a keep-alive request (callgrind).
    static func utf8Text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The arriving request with its body.
    private func completeRequest() -> Arrival {
        var request = arriving ?? HTTPRequest(method: exchange.method, target: exchange.target)
        arriving = nil
        request.body = body
        body = []
        return .request(request)
    }

    /// RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits for this before its body.
    private func sendContinue() {
        let line: StaticString = "HTTP/1.1 100 Continue\r\n\r\n"
        evbuffer_add(bufferevent_get_output(bufferevent), line.utf8Start, line.utf8CodeUnitCount)
    }

    /// What a refused head let us read, for the journal: its method and target when they were
    /// read (the version after them may be what was refused).
    private func describeRefused(_ base: UnsafePointer<UInt8>) {
        if head.requestLineRead || head.targetRead {
            let method = RequestHeadParser.text(base, from: head.start, to: head.methodEnd)
            let target = RequestHeadParser.text(base, from: head.targetStart, to: head.targetEnd)
            exchange = Exchange(
                method: method, target: target, isHead: false, keepAlive: false, minorVersion: head.minorVersion)
            arriving = RequestTarget.request(
                method: method, target: target, headers: RequestHeaderBlockCache.fields(base, head.fields))
        } else {
            exchange = Exchange()
            arriving = nil
        }
    }

    /// The request being refused, as far as it was read. When not even its request line was
    /// (bytes that are no request at all), its method and path are empty: the refusal is answered,
    /// so it is journaled all the same (every answered request is in the journal exactly once).
    func takeRefusedRequest() -> HTTPRequest {
        defer { arriving = nil }
        var request = arriving ?? HTTPRequest(method: "", path: "")
        if secure { request.isSecure = true }
        return request
    }

    static func remove(_ count: Int, from buffer: OpaquePointer?) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            initialized = max(0, Int(evbuffer_remove(buffer, storage.baseAddress, count)))
        }
    }

    // MARK: - Flow control

    func pauseReading() {
        guard !readPaused else { return }
        readPaused = true
        disableReading()
    }

    func resumeReading() {
        guard readPaused, !closed else { return }
        readPaused = false
        enableReading()
    }

    /// The request being answered is done (its reply queued, or it ended otherwise): read on.
    func answered() {
        current = nil
        if closeWhenFlushed || closed { return }
        // The idle timeout counts from the answer, not from the request's last byte: enabling
        // reading again re-adds the read event with its timeout.
        readPaused = false
        enableReading()
        process()
    }

    /// The output buffer has been written out.
    func flushed() {
        guard !closed else { return }
        leftoverWritten()
        if queued > 0 {
            let count = queued
            queued = 0
            server?.finishRequest(count: count)
        }
        if let action = whenFlushed {
            whenFlushed = nil
            action()
            return
        }
        if closeWhenFlushed {
            finishClosing()
            return
        }
        if let http2 {
            http2.flushed()
            return
        }
        if readPaused && !answering {
            resumeReading()
            process()
        }
    }

    /// Closes once the output is flushed (now, when it is).
    func closeAfterFlush() {
        closeWhenFlushed = true
        if evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0 { finishClosing() }
    }

    /// The output is flushed and the connection is to close: after a refusal it lingers first.
    private func finishClosing() {
        if case .lingering = phase {
            beginLinger()
        } else {
            close()
        }
    }

    /// The client closed its side and nothing waits: close once every reply is out.
    private func finishAfterPeerClosed() {
        closeAfterFlush()
    }

    /// libevent reports end of stream, an error or a timeout.
    func event(_ events: Int16) {
        guard !closed else { return }
        // A TLS handshake has completed: nothing to do, requests follow as bytes.
        if events & Int16(BEV_EVENT_CONNECTED) != 0 { return }
        if let http2 {
            http2.event(events)
            return
        }
        if events & Int16(BEV_EVENT_TIMEOUT) != 0 {
            if events & Int16(BEV_EVENT_READING) != 0 && answering {
                // Idle while its answer waits (a long poll, a delay, a paced body): not the client's fault.
                enableReading()
                return
            }
            close()  // idle past the timeout, or a client that stopped reading its reply
            return
        }
        if events & Int16(BEV_EVENT_EOF) != 0 && events & Int16(BEV_EVENT_ERROR) == 0 {
            peerClosed = true
            if case .lingering = phase {
                close()
                return
            }
            if let pending = current {
                if pending.sent { close() } else { server?.clientLeft(self) }
                return
            }
            if !closeWhenFlushed { process() }
            if !closed { closeAfterFlush() }
            return
        }
        close()  // an error (a reset, a TLS failure)
    }

    /// Whether `close(2)` alone ends a plain connection as cleanly as `shutdown(SHUT_WR)` before it.
    /// Linux answers a close with unread input by a reset instead of a FIN, and a client can lose
    /// the end of what it was sent; the shutdown sends the FIN first, so the client reads an end of
    /// stream whatever follows. That takes unread input, and there is none to expect when the
    /// client has ended its side (its FIN was read), or when it said the connection closes after
    /// this request (`Connection: close`, or HTTP/1.0 without keep-alive: RFC 9112 §9.6, a client
    /// that sends `close` sends no further request) and nothing it sent is left unread here. Then
    /// the shutdown would be one system call a connection that changes nothing on the wire (nginx
    /// closes without one too). Every other close (the server's choice to close, a refusal, a
    /// fault, the idle timeout, TLS) still shuts down first.
    private var closesCleanly: Bool {
        guard !secure else { return false }
        if peerClosed { return true }
        guard !exchange.keepAlive, case .head = phase else { return false }
        return evbuffer_get_length(bufferevent_get_input(bufferevent)) == 0
    }

    // MARK: - Lingering close

    /// After a refusal: stop sending, and read and drop what the client still sends, so closing
    /// with unread input does not reset the connection before the client has read the refusal.
    private func beginLinger() {
        guard lingerTimer == nil, let server else {
            close()
            return
        }
        if peerClosed {
            close()
            return
        }
        if !secure { _ = shutdown(fd, Int32(SHUT_WR)) }
        evbuffer_drain(bufferevent_get_input(bufferevent), evbuffer_get_length(bufferevent_get_input(bufferevent)))
        let context = Unmanaged.passUnretained(self).toOpaque()
        lingerTimer = EventHandle(
            event_new(
                server.base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                    withExtendedLifetime((connection, connection.lingerTimer)) { connection.close() }
                }, context))
        lingerTimer?.add(afterSeconds: HTTPServer.lingerSeconds)
        closeWhenFlushed = false
        resumeReading()
    }

    // MARK: - Closing

    /// Closes the connection now. A request still waiting for its answer never gets one: its
    /// client is gone (journaled so). Unless `reset`, the socket is shut down for writing first,
    /// so the client reads an end of stream after everything sent rather than a reset caused by
    /// input it sent that was never read (``closesCleanly`` says when there can be none). Idempotent.
    func close(reset: Bool = false) {
        guard !closed else { return }
        closed = true
        deadlineArmed = false
        deadlineTimerPending = false
        requestDeadline = nil
        lingerTimer = nil
        whenFlushed = nil
        let server = self.server
        if let pending = current {
            current = nil
            if !pending.sent {
                pending.sent = true
                pending.journal?.commit(.clientGone)
                server?.log(pending, status: nil, fault: nil, outcome: .clientGone)
            }
            pending.timer = nil
            pending.stream?.stop()
            pending.deferral?.cancel()  // the client left before a long poll was answered
            server?.finishRequest(count: 1)
        }
        if queued > 0 {
            server?.finishRequest(count: queued)  // replies cut off mid-write
            queued = 0
        }
        http2?.teardown()
        stopDirectIO()
        reader = nil
        bufferevent_setcb(bufferevent, nil, nil, nil, nil)
        if !reset && !closesCleanly { _ = shutdown(fd, Int32(SHUT_WR)) }
        bufferevent_free(bufferevent)  // closes the socket (BEV_OPT_CLOSE_ON_FREE)
        self.server = nil
        server?.table.forget(self)
    }
}
