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
    /// Where the connection is in its life. One value instead of the flags it replaces
    /// (protocol known, close when flushed, closed): a transition is one assignment, and a state
    /// the flags allowed but meant nothing (closed and closing at once) cannot be spelled. A plain
    /// enum, so reading it costs no retain (the action a fault waits for the flush with is in
    /// ``ConnectionIO/whenFlushed``, set only while closing).
    enum State {
        /// No byte yet has shown which protocol the client speaks (HTTP/1.1 or HTTP/2's preface).
        case detecting
        /// Reading and answering requests (HTTP/1.1, or HTTP/2 once ``http2`` is set).
        case open
        /// Closes once its output is flushed (a `Connection: close` reply, HTTP/1.0, a refusal, the
        /// client's end of stream, a fault): nothing more is read as a request.
        case closingWhenFlushed
        case closed
    }

    /// Whether the connection reads from its client.
    enum Reading: Equatable {
        case on
        /// Paused: too much unanswered input, or too much unsent output.
        case paused
        /// The client has closed its side (its end of stream was read).
        case peerClosed
    }

    /// The socket side (see `Connection+Socket.swift`): the bufferevent, its descriptor, a plain
    /// connection's own read event and output watch, and the lingering close's timer.
    @exclusivity(unchecked) var io: ConnectionIO
    /// Who answers requests on this connection: the main port's responder or a session's.
    let responder: any HTTPResponder
    /// The port it was accepted on (a session's port closes its connections with it).
    let port: ListeningPort
    /// The server, while the connection is open.
    @exclusivity(unchecked) var server: HTTPServer?
    /// Where the connection is in the server's table (``ConnectionTable/connections``); -1 once it left.
    @exclusivity(unchecked) var tableIndex = -1
    /// The HTTP/1.1 codec: bytes in, requests out, and what the reply must know of the request.
    @exclusivity(unchecked) var codec: HTTP1Codec
    /// A request being answered later (a delay, a fault, a long poll or a paced body). While
    /// it is set no further request is read.
    @exclusivity(unchecked) var current: PendingReply?
    /// Replies written to the output buffer and not yet flushed to the socket; each counts as
    /// in flight for a graceful stop until it has.
    @exclusivity(unchecked) var queued = 0
    @exclusivity(unchecked) var state = State.detecting
    @exclusivity(unchecked) var reading = Reading.on
    /// A whole head (and body) must arrive within the idle timeout of its first byte, however
    /// slowly it trickles (see ``RequestDeadline``).
    @exclusivity(unchecked) var deadline = RequestDeadline()
    /// The HTTP/2 codec, once the client sent HTTP/2's preface (h2c with prior knowledge, or h2
    /// after ALPN): from then on it reads and writes the bufferevent.
    var http2: HTTP2Session?

    /// Input or output beyond which reading pauses until the connection catches up.
    static let backlogLimit = 1 << 20

    init(
        bufferevent: OpaquePointer, fd: Int32, responder: any HTTPResponder, secure: Bool, port: ListeningPort,
        limits: RequestHeadParser.Limits, maxBodyBytes: Int
    ) {
        self.io = ConnectionIO(bufferevent: bufferevent, fd: fd)
        self.responder = responder
        self.port = port
        self.codec = HTTP1Codec(limits: limits, maxBodyBytes: maxBodyBytes, secure: secure)
    }

    var bufferevent: OpaquePointer { io.bufferevent }
    /// The connection's socket (see ``ConnectionIO/fd``).
    var fd: Int32 { io.fd }
    /// Whether the connection speaks TLS.
    var secure: Bool { codec.secure }
    var closed: Bool {
        if case .closed = state { return true }
        return false
    }
    /// The connection closes once its output is flushed.
    var closeWhenFlushed: Bool {
        if case .closingWhenFlushed = state { return true }
        return false
    }
    var peerClosed: Bool { reading == .peerClosed }

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
            io.readTimeout = timeout
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
        if case .detecting = state {
            // HTTP/1.1 unless the first bytes are HTTP/2's preface; a prefix of it waits for more.
            guard let isHTTP2 = HTTP2Session.startsWithPreface(input) else { return }
            state = .open
            if isHTTP2 {
                startHTTP2(server)
                return
            }
        }
        if case .lingering = codec.phase {
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
        if !deadline.armed && !answering && !closeWhenFlushed && !closed
            && HTTP1Codec.isMidRequest(codec.phase, buffered: evbuffer_get_length(input))
        {
            server.armRequestDeadline(on: self)
        }
    }

    /// Reads and hands over every complete request in the input buffer, until one must wait.
    func process() {
        while !answering && !closeWhenFlushed && !closed, let server {
            if evbuffer_get_length(bufferevent_get_output(bufferevent)) > Self.backlogLimit {
                pauseReading()  // a pipelining client that does not read its replies
                return
            }
            var input = EvbufferInput(bufferevent)
            switch codec.nextRequest(from: &input) {
            case nil:
                if peerClosed { finishAfterPeerClosed() }
                return
            case .request(let request)?:
                deadline.armed = false
                server.handle(request, on: self)
            case .refused(let refusal)?:
                deadline.armed = false
                server.refuse(refusal, on: self)
            }
        }
    }

    // MARK: - Flow control

    func pauseReading() {
        // After the client's end of stream there is nothing left to pause.
        guard reading == .on else { return }
        reading = .paused
        disableReading()
    }

    func resumeReading() {
        guard reading == .paused, !closed else { return }
        reading = .on
        enableReading()
    }

    /// The request being answered is done (its reply queued, or it ended otherwise): read on.
    func answered() {
        current = nil
        if closeWhenFlushed || closed { return }
        // The idle timeout counts from the answer, not from the request's last byte: enabling
        // reading again re-adds the read event with its timeout.
        if reading == .paused { reading = .on }
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
        if case .closingWhenFlushed = state {
            if let action = io.whenFlushed {
                io.whenFlushed = nil
                action()
            } else {
                finishClosing()
            }
            return
        }
        if let http2 {
            http2.flushed()
            return
        }
        if reading == .paused && !answering {
            resumeReading()
            process()
        }
    }

    /// Closes once the output is flushed (now, when it is).
    func closeAfterFlush() {
        guard !closed else { return }
        markClosingWhenFlushed()
        if evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0 { finishClosing() }
    }

    /// From now on the connection closes once its output is flushed (an action already waiting for
    /// the flush is kept).
    func markClosingWhenFlushed() {
        switch state {
        case .closingWhenFlushed, .closed: break
        case .detecting, .open: state = .closingWhenFlushed
        }
    }

    /// The output is flushed and the connection is to close: after a refusal it lingers first.
    private func finishClosing() {
        if case .lingering = codec.phase {
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
            reading = .peerClosed
            if case .lingering = codec.phase {
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
        guard !codec.exchange.keepAlive, case .head = codec.phase else { return false }
        return evbuffer_get_length(bufferevent_get_input(bufferevent)) == 0
    }

    // MARK: - Lingering close

    /// After a refusal: stop sending, and read and drop what the client still sends, so closing
    /// with unread input does not reset the connection before the client has read the refusal.
    private func beginLinger() {
        guard io.lingerTimer == nil, let server else {
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
        io.lingerTimer = EventHandle(
            event_new(
                server.base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                    withExtendedLifetime((connection, connection.io.lingerTimer)) { connection.close() }
                }, context))
        io.lingerTimer?.add(afterSeconds: HTTPServer.lingerSeconds)
        state = .open
        resumeReading()
    }

    // MARK: - Closing

    /// Closes the connection now. A request still waiting for its answer never gets one: its
    /// client is gone (journaled so). Unless `reset`, the socket is shut down for writing first,
    /// so the client reads an end of stream after everything sent rather than a reset caused by
    /// input it sent that was never read (``closesCleanly`` says when there can be none). Idempotent.
    func close(reset: Bool = false) {
        guard !closed else { return }
        state = .closed
        io.whenFlushed = nil
        deadline = RequestDeadline()
        io.lingerTimer = nil
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
        io.reader = nil
        bufferevent_setcb(bufferevent, nil, nil, nil, nil)
        if !reset && !closesCleanly { _ = shutdown(fd, Int32(SHUT_WR)) }
        bufferevent_free(bufferevent)  // closes the socket (BEV_OPT_CLOSE_ON_FREE)
        self.server = nil
        server?.table.forget(self)
    }
}

/// A connection's socket side: the bufferevent and its descriptor, and what a plain connection
/// adds to do its own reading and flushing (`Connection+Socket.swift`).
struct ConnectionIO {
    /// Where a plain connection's output is in the server's end-of-pass flush.
    enum Flush {
        case idle
        /// In the server's flush list for this loop pass.
        case posted
        /// The kernel did not take all of a flush: the bufferevent's write side is writing the rest.
        case writingLeftover
    }

    let bufferevent: OpaquePointer
    /// The connection's socket. The bufferevent owns it (and closes it when freed); it is kept here
    /// because `bufferevent_getfd` takes the bufferevent's lock: ~65 instructions a call, several a
    /// connection.
    let fd: Int32
    /// A plain connection's own read event (made when it first waits for bytes) and the idle timeout
    /// it restarts with, and the watch on its output buffer; nil on TLS connections.
    var reader: EventHandle?
    var readTimeout: timeval?
    var outputWatch: OpaquePointer?
    var flush = Flush.idle
    /// Run once the output is flushed, instead of closing (a fault that must follow earlier
    /// replies); set only while the connection is closing once flushed.
    var whenFlushed: (() -> Void)?
    /// Ends a lingering close.
    var lingerTimer: EventHandle?

    init(bufferevent: OpaquePointer, fd: Int32) {
        self.bufferevent = bufferevent
        self.fd = fd
    }
}

/// A request's deadline: its bytes must all arrive within the idle timeout of its first one,
/// however slowly they trickle. One timer per connection, made on its first partial request; it
/// stays pending across requests and, when it fires, checks whether a request is still arriving
/// and since when, re-arming itself for what is left of that request's deadline
/// (``HTTPServer/armRequestDeadline(on:)``).
struct RequestDeadline {
    var timer: EventHandle?
    /// A request is partly in, since `began` (monotonic nanoseconds).
    var armed = false
    var began: UInt64 = 0
    /// The timer is in libevent's queue (it may outlive the request it was armed for).
    var timerPending = false
}

/// A ``Connection``'s libevent input as the codec's ``HTTP1Input``; an interim `100 Continue`
/// goes straight into the bufferevent's output.
struct EvbufferInput: HTTP1Input {
    let bufferevent: OpaquePointer
    let buffer: OpaquePointer?

    init(_ bufferevent: OpaquePointer) {
        self.bufferevent = bufferevent
        self.buffer = bufferevent_get_input(bufferevent)
    }

    var count: Int { evbuffer_get_length(buffer) }
    var contiguousCount: Int { evbuffer_get_contiguous_space(buffer) }

    func pullup(_ count: Int) -> UnsafeMutablePointer<UInt8>? {
        evbuffer_pullup(buffer, count)
    }

    func drain(_ count: Int) {
        evbuffer_drain(buffer, count)
    }

    func remove(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            initialized = max(0, Int(evbuffer_remove(buffer, storage.baseAddress, count)))
        }
    }

    func writeContinue() {
        let line: StaticString = "HTTP/1.1 100 Continue\r\n\r\n"
        evbuffer_add(bufferevent_get_output(bufferevent), line.utf8Start, line.utf8CodeUnitCount)
    }
}
