#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// An HTTP/1.1 server on libevent's own primitives (`evconnlistener`, bufferevents, timers)
/// that hands every request to an ``HTTPResponder``.
///
/// The transport owns HTTP: ``Connection`` reads requests with the project's parser (strict
/// RFC 9112 framing, `docs/transport.md`) and writes replies straight into the bufferevent.
/// One thread drives it: the one that calls ``run()``. ``init(configuration:responder:)`` binds
/// the socket, so ``port`` is known (and connections are queued by the kernel) before `run()`.
/// Other threads stop it through ``controller``. Each C handle (event base, listeners, events,
/// bufferevents) is owned by this object, a ``ListeningPort``, a ``Connection`` or an
/// ``EventHandle`` and freed once.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
public final class HTTPServer {
    /// What the server was configured with.
    public let configuration: ServerConfiguration
    /// The bound port, read back from the socket (so port 0 gives the real one).
    public let port: Int
    /// Stops the server from any thread.
    public let controller: ServerController
    /// Called once per answered or refused request, on the loop thread. Set it before `run()`:
    /// the loop reads it on every request without an exclusivity check.
    @exclusivity(unchecked) public var accessLog: ((AccessLogEntry) -> Void)?

    let responder: any HTTPResponder
    let base: OpaquePointer
    /// The main port (plain HTTP, the server's own responder); nil once closed.
    var mainPort: ListeningPort?
    /// Open connections, in no order: each knows its place (``Connection/tableIndex``), so adding
    /// and removing one is constant time without hashing (a dictionary cost ~580 instructions a
    /// connection). Iterate over a copy when the loop may close connections.
    @exclusivity(unchecked) var connections: [Connection] = []
    /// Requests handed over and not yet fully answered on the wire.
    @exclusivity(unchecked) var inFlight = 0
    @exclusivity(unchecked) var draining = false
    var closed = false
    var stopWatch: EventHandle?
    var signalEvents: [EventHandle] = []
    var graceTimer: EventHandle?
    var onHangup: (() -> Void)?
    let stopReadEnd: Int32
    let clock = MonotonicClock()
    @exclusivity(unchecked) var dateHeader = DateHeader()
    /// Closes the journal batch at the end of the loop pass that opened it (see ``JournalBatching``).
    var batchEnd: EventHandle?
    @exclusivity(unchecked) var batchOpen = false
    /// The responder's journal batching (``TransportHooks/journalBatching``), read once at
    /// start-up: no cast, and nil when its journal has no file to batch.
    var batching: (any JournalBatching)?
    /// The idle timeout as libevent's common timeout for its length (one queue instead of the
    /// timer heap); nil when the timeout is off.
    var requestTimeout: timeval?
    /// Plain connections with output to write at the end of this loop pass, and the event that
    /// writes it (see `Connection+Socket.swift`).
    @exclusivity(unchecked) var unflushed: [Connection] = []
    var flushEvent: EventHandle?
    /// Where plain connections `recv` into, on the loop thread (one read at a time), before the
    /// bytes are appended to the connection's input buffer.
    let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: HTTPServer.readBufferSize, alignment: 16)
    static let readBufferSize = 65_536
    /// The parser's limits, from the configuration.
    let limits: RequestHeadParser.Limits
    /// Re-enables the listeners after one paused for lack of descriptors.
    var acceptResume: EventHandle?
    /// The ports of live sessions (see `HTTPServer+Sessions.swift`), each closed before the loop is freed.
    var sessionPorts: [ObjectIdentifier: SessionPort] = [:]
    /// Ports sessions closed lately, which new sessions are not given (see ``RecentPorts``).
    var recentPorts = RecentPorts()
    /// The registry whose sessions this server hosts, and the timer that reclaims idle ones.
    /// Held strongly: a weak reference would give the registry a side table, which makes every
    /// retain of it slow, and the responder retains it on every request. It makes no cycle
    /// (the registry refers to the server only through ``reference``, weakly), and it cannot
    /// outlive its main responder's use: the server holds that responder too.
    var sessionRegistry: (any HostedSessions)?
    var sessionSweep: EventHandle?
    /// The HTTPS listener and its certificates, when open (see `HTTPServer+TLS.swift`), and every
    /// HTTPS port (that one and sessions'), each closed before the loop is freed.
    var httpsListener: TLSPort?
    var tlsContext: TLSContext?
    var tlsPorts: [ObjectIdentifier: TLSPort] = [:]
    /// The client proxying stubs forward with, made when a stub first proxies (see
    /// `HTTPServer+Proxy.swift`), and whether libcurl could not be loaded.
    var upstream: UpstreamClient?
    var upstreamUnavailable = false
    /// What refers to this server without keeping it alive refers to this instead (see
    /// ``ServerReference``): no weak reference may point at the server itself.
    let reference = ServerReference()

    /// How long a connection that was refused reads and drops what its client still sends.
    static let lingerSeconds = 2.0

    /// The URL clients use: `http://127.0.0.1:PORT`.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// Creates the event loop and binds the listening socket. When `responder` is an
    /// ``UnderstudyResponder`` with sessions enabled, the server hosts them (``hostSessions(_:)``).
    public init(configuration: ServerConfiguration, responder: any HTTPResponder) throws(ServerError) {
        // A client that goes away mid-write must cost an error code, not the process.
        signal(SIGPIPE, SIG_IGN)
        guard let base = Self.makeEventBase() else { throw .setupFailed("event_base_new failed") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            event_base_free(base)
            throw .setupFailed("pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)

        let socket: Int32
        switch ListeningPort.bindSocket(host: configuration.host, port: configuration.port) {
        case .success(let bound):
            socket = bound
        case .failure(let error):
            event_base_free(base)
            closeDescriptor(fds[0])
            closeDescriptor(fds[1])
            throw error
        }
        let port = ListeningPort.localPort(of: socket) ?? configuration.port

        self.configuration = configuration
        self.responder = responder
        self.base = base
        self.port = port
        self.stopReadEnd = fds[0]
        self.controller = ServerController(writeEnd: fds[1])
        self.limits = RequestHeadParser.Limits(
            maxRequestLine: configuration.maxRequestLineBytes,
            maxFieldBytes: configuration.maxHeaderBytes,
            maxFields: configuration.maxHeaderCount)
        if configuration.idleTimeoutSeconds > 0 {
            var length = timeval(tv_sec: configuration.idleTimeoutSeconds, tv_usec: 0)
            requestTimeout = event_base_init_common_timeout(base, &length)?.pointee ?? length
        }
        reference.server = self
        mainPort = ListeningPort(
            server: self, socket: socket, port: port, url: url, responder: responder, sslContext: nil)
        installCallbacks()
        // Templates' `{{server.url}}`: the transport knows the scheme, host and port it listens on.
        let hooks = responder.transportHooks
        hooks.served?(url, false)
        // A responder that hosts sessions gets them on this loop (its registry opens ports here).
        if let registry = hooks.sessions {
            hostSessions(registry)
        }
    }

    deinit {
        reference.server = nil  // as a weak reference to the server would read from now on
        close()
        readBuffer.deallocate()
    }

    /// Serves until stopped (``ServerController/stop()`` or a signal from
    /// ``handleSignals(onReload:)``), then finishes in-flight responses within the grace period
    /// and releases everything.
    public func run() {
        guard !closed else { return }
        event_base_dispatch(base)
        close()
    }

    /// Releases the loop, the listening sockets and every connection. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        closeJournalBatch()
        for connection in connections {
            // Answers still waiting out a delay when the grace period ran out are never sent.
            if let pending = connection.current, !pending.sent {
                pending.sent = true
                pending.journal?.commit(.shutdown)
                log(pending, status: nil, fault: nil, outcome: .shutdown)
            }
            connection.current?.deferral?.cancel()
            connection.http2?.shutDownPendingStreams()
        }
        // Session ports first: each closes its own connections.
        sessionRegistry?.closeAll()
        for port in Array(sessionPorts.values) { port.close() }
        for port in Array(tlsPorts.values) { port.close() }
        httpsListener = nil
        sessionSweep = nil
        mainPort?.close()
        mainPort = nil
        for connection in connections { connection.close() }  // a copy: closing removes them
        connections.removeAll()
        upstream?.close()  // its events are on the loop freed below
        upstream = nil
        graceTimer = nil
        stopWatch = nil
        batchEnd = nil
        unflushed.removeAll()
        flushEvent = nil
        acceptResume = nil
        signalEvents.removeAll()
        event_base_free(base)
        closeDescriptor(stopReadEnd)
    }

    /// A new connection joins the table.
    func remember(_ connection: Connection) {
        connection.tableIndex = connections.count
        connections.append(connection)
    }

    /// A connection has closed: it leaves the table, the last one taking its place.
    func forget(_ connection: Connection) {
        let index = connection.tableIndex
        guard index >= 0, index < connections.count, connections[index] === connection else { return }
        connection.tableIndex = -1
        let last = connections.removeLast()
        if index < connections.count {
            connections[index] = last
            last.tableIndex = index
        }
    }

    /// Handles SIGTERM and SIGINT (graceful stop) and SIGHUP (`onReload`) on the loop thread.
    /// For the CLI; in-process servers leave signals to their host.
    public func handleSignals(onReload: @escaping () -> Void) {
        onHangup = onReload
        // A blocked signal mask survives exec: a parent that spawns us from a thread with these
        // blocked (libdispatch's worker threads block them) would leave SIGTERM pending forever.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        let context = Unmanaged.passUnretained(self).toOpaque()
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            let event = event_new(
                base, signalNumber, Int16(EV_SIGNAL | EV_PERSIST),
                { signalNumber, _, context in
                    guard let context else { return }
                    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                    if signalNumber == SIGHUP {
                        server.onHangup?()
                    } else {
                        server.beginShutdown()
                    }
                }, context)
            if let handle = EventHandle(event) {
                handle.add()
                signalEvents.append(handle)
            }
        }
    }
}

/// Monotonic time for the access log's durations.
struct MonotonicClock {
    func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    func milliseconds(since start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1_000_000
    }
}
