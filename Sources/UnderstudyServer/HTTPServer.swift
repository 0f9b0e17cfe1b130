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
///
/// The server itself is the event loop and the request seam (`HTTPServer+Requests.swift`); each
/// other job is a small type of its own: the ports (``ServerListeners``), answers that wait
/// (``ReplyScheduler``: delays, clock holds, paced bodies, faults), requests the server makes
/// (``OutboundRequests``, libcurl), stopping (``ServerLifecycle``), and what connections share
/// (``ConnectionTable``, ``JournalBatch``).
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
public final class HTTPServer {
    /// What the server was configured with.
    public let configuration: ServerConfiguration
    /// The bound port, read back from the socket (so port 0 gives the real one).
    public let port: Int
    /// Stops the server from any thread.
    public var controller: ServerController { lifecycle.controller }
    /// Called once per answered or refused request, on the loop thread. Set it before `run()`:
    /// the loop reads it on every request without an exclusivity check.
    @exclusivity(unchecked) public var accessLog: ((AccessLogEntry) -> Void)?

    let responder: any HTTPResponder
    let base: OpaquePointer
    /// The open connections and what they share on the loop: the table, the end-of-pass flush, the
    /// read buffer, the `Date` header, the parser's limits and the request deadline.
    @exclusivity(unchecked) var table: ConnectionTable
    /// Signals, in-flight accounting, drain and shutdown.
    @exclusivity(unchecked) var lifecycle: ServerLifecycle
    /// The listening ports: main, HTTPS and sessions', and the session registry they serve.
    var listeners = ServerListeners()
    /// The journal batch of the current loop pass (see ``JournalBatching``).
    @exclusivity(unchecked) var journalBatch = JournalBatch()
    /// Answers that are not written at once: delays, clock holds, paced bodies, faults.
    lazy var replies = ReplyScheduler(server: self)
    /// Requests this server makes itself (libcurl on this loop): proxying stubs.
    lazy var outbound = OutboundRequests(server: self)
    /// What refers to this server without keeping it alive refers to this instead (see
    /// ``ServerReference``): no weak reference may point at the server itself.
    let reference = ServerReference()

    /// Monotonic time, for the access log, delays and deadlines (no state: a plain reading).
    var clock: MonotonicClock { MonotonicClock() }

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
        self.lifecycle = ServerLifecycle(stopReadEnd: fds[0], controller: ServerController(writeEnd: fds[1]))
        var requestTimeout: timeval?
        if configuration.idleTimeoutSeconds > 0 {
            var length = timeval(tv_sec: configuration.idleTimeoutSeconds, tv_usec: 0)
            requestTimeout = event_base_init_common_timeout(base, &length)?.pointee ?? length
        }
        self.table = ConnectionTable(
            limits: RequestHeadParser.Limits(
                maxRequestLine: configuration.maxRequestLineBytes,
                maxFieldBytes: configuration.maxHeaderBytes,
                maxFields: configuration.maxHeaderCount),
            requestTimeout: requestTimeout)
        reference.server = self
        listeners.mainPort = ListeningPort(
            server: self, socket: socket, port: port, url: url, responder: responder, sslContext: nil)
        installCallbacks()
        // Templates' `{{server.url}}`: the transport knows the scheme, host and port it listens on.
        let hooks = responder.transportHooks
        hooks.served?(url, false)
        // Webhooks go out through this loop's libcurl client (OutboundRequests+Webhooks.swift).
        hooks.outbound?.sender = WebhookSender(reference: reference)
        // A responder that hosts sessions gets them on this loop (its registry opens ports here).
        if let registry = hooks.sessions {
            hostSessions(registry)
        }
    }

    deinit {
        reference.server = nil  // as a weak reference to the server would read from now on
        close()
        table.readBuffer.deallocate()
    }

    /// Serves until stopped (``ServerController/stop()`` or a signal from
    /// ``handleSignals(onReload:)``), then finishes in-flight responses within the grace period
    /// and releases everything.
    public func run() {
        guard !lifecycle.closed else { return }
        event_base_dispatch(base)
        close()
    }

    /// Releases the loop, the listening sockets and every connection. Idempotent.
    public func close() {
        guard !lifecycle.closed else { return }
        lifecycle.closed = true
        closeJournalBatch()
        for connection in table.connections {
            // Answers still waiting out a delay when the grace period ran out are never sent.
            if let pending = connection.current, !pending.sent {
                pending.sent = true
                pending.journal?.commit(.shutdown)
                log(pending, status: nil, fault: nil, outcome: .shutdown)
            }
            connection.current?.deferral?.cancel()
            connection.http2?.shutDownPendingStreams()
        }
        closeListeners()  // session ports first: each closes its own connections
        for connection in table.connections { connection.close() }  // a copy: closing removes them
        table.connections.removeAll()
        outbound.close()  // its events are on the loop freed below
        lifecycle.releaseEvents()
        journalBatch.end = nil
        table.unflushed.removeAll()
        table.flushEvent = nil
        event_base_free(base)
        closeDescriptor(lifecycle.stopReadEnd)
    }

    /// Handles SIGTERM and SIGINT (graceful stop) and SIGHUP (`onReload`) on the loop thread.
    /// For the CLI; in-process servers leave signals to their host.
    public func handleSignals(onReload: @escaping () -> Void) {
        lifecycle.onHangup = onReload
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
                        server.lifecycle.onHangup?()
                    } else {
                        server.beginShutdown()
                    }
                }, context)
            if let handle = EventHandle(event) {
                handle.add()
                lifecycle.signalEvents.append(handle)
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
