#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// An HTTP/1.1 server on libevent's evhttp that hands every request to an ``HTTPResponder``.
///
/// One thread drives it: the one that calls ``run()``. ``init(configuration:responder:)`` binds
/// the socket, so ``port`` is known (and connections are queued by the kernel) before `run()`.
/// Other threads stop it through ``controller``. Each C handle (event base, evhttp, events) is
/// owned by this object or an ``EventHandle`` and freed once, in ``close()`` or `deinit`.
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
    let http: OpaquePointer
    var boundSocket: OpaquePointer?
    /// Connections by bufferevent address.
    @exclusivity(unchecked) var connections: [UnsafeMutableRawPointer: Connection] = [:]
    /// The connection whose bytes were read last. evhttp parses and hands over requests in the
    /// same read callback that delivered their bytes, so this is nearly always the connection of
    /// the request being accepted: a pointer comparison instead of a table lookup (a hash).
    @exclusivity(unchecked) var readingConnection: Connection?
    /// Requests handed over and not yet fully answered on the wire.
    @exclusivity(unchecked) var inFlight = 0
    @exclusivity(unchecked) var draining = false
    var closed = false
    var stopWatch: EventHandle?
    var signalEvents: [EventHandle] = []
    var graceTimer: EventHandle?
    var onHangup: (() -> Void)?
    let stopReadEnd: Int32
    /// `/dev/null`, dup2'ed over a socket to close it with a reset (see `HTTPServer+Faults.swift`).
    let nullDevice: Int32
    let clock = MonotonicClock()
    @exclusivity(unchecked) var dateHeader = DateHeader()
    /// Closes the journal batch at the end of the loop pass that opened it (see ``JournalBatching``).
    var batchEnd: EventHandle?
    @exclusivity(unchecked) var batchOpen = false
    /// `responder` as ``JournalBatching``, cast once at start-up: a dynamic cast to a protocol
    /// costs a conformance lookup (~450 instructions) and this one ran twice per loop pass.
    var batching: (any JournalBatching)?
    /// The request deadline (the idle timeout) as libevent's common timeout for its length;
    /// nil when the timeout is off.
    var requestTimeout: timeval?
    /// Re-enables the listener after it paused for lack of descriptors.
    var acceptResume: EventHandle?
    /// The ports of live sessions (see `HTTPServer+Sessions.swift`), each closed before the loop is freed.
    var sessionPorts: [ObjectIdentifier: SessionPort] = [:]
    /// Ports sessions closed lately, which new sessions are not given (see ``RecentPorts``).
    var recentPorts = RecentPorts()
    /// The registry whose sessions this server hosts, and the timer that reclaims idle ones.
    weak var sessionRegistry: SessionRegistry?
    var sessionSweep: EventHandle?
    /// The HTTPS listener and its certificates, when open (see `HTTPServer+TLS.swift`), and every
    /// HTTPS port (that one and sessions'), each closed before the loop is freed.
    var httpsListener: TLSPort?
    var tlsContext: TLSContext?
    var tlsPorts: [ObjectIdentifier: TLSPort] = [:]

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
        guard let http = Self.makeHTTP(base: base, configuration: configuration) else {
            event_base_free(base)
            throw .setupFailed("evhttp_new failed")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            evhttp_free(http)
            event_base_free(base)
            throw .setupFailed("pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)

        let bound: OpaquePointer
        switch Self.bind(http, host: configuration.host, port: configuration.port) {
        case .success(let socket):
            bound = socket
        case .failure(let error):
            evhttp_free(http)
            event_base_free(base)
            closeDescriptor(fds[0])
            closeDescriptor(fds[1])
            throw error
        }
        let port = Self.localPort(of: evhttp_bound_socket_get_fd(bound)) ?? configuration.port

        self.configuration = configuration
        self.responder = responder
        self.base = base
        self.http = http
        self.boundSocket = bound
        self.port = port
        self.stopReadEnd = fds[0]
        self.controller = ServerController(writeEnd: fds[1])
        self.nullDevice = open("/dev/null", O_RDWR | O_CLOEXEC)
        if configuration.idleTimeoutSeconds > 0 {
            var length = timeval(tv_sec: configuration.idleTimeoutSeconds, tv_usec: 0)
            requestTimeout = event_base_init_common_timeout(base, &length)?.pointee ?? length
        }
        installCallbacks()
        // Templates' `{{server.url}}`: the transport knows the scheme, host and port it listens on.
        (responder as? UnderstudyResponder)?.serverURL = url
        // A responder that hosts sessions gets them on this loop (its registry opens ports here).
        if let registry = (responder as? UnderstudyResponder)?.sessions {
            hostSessions(registry)
        }
    }

    deinit {
        close()
    }

    /// Serves until stopped (``ServerController/stop()`` or a signal from
    /// ``handleSignals(onReload:)``), then finishes in-flight responses within the grace period
    /// and releases everything.
    public func run() {
        guard !closed else { return }
        event_base_dispatch(base)
        close()
    }

    /// Releases the loop, the listening socket and every connection. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        closeJournalBatch()
        for connection in connections.values {
            // Answers still waiting out a delay when the grace period ran out are never sent.
            if let pending = connection.current, !pending.sent {
                pending.sent = true
                pending.journal?.commit(.shutdown)
                log(pending, status: nil, fault: nil, outcome: .shutdown)
            }
            connection.current?.deferral?.cancel()
            connection.current = nil  // cancels delay timers and watches; evhttp frees the requests
        }
        // Session ports first: each frees its own evhttp (and connections) on this base.
        sessionRegistry?.closeAll()
        for port in Array(sessionPorts.values) { port.close() }
        for port in Array(tlsPorts.values) { port.close() }
        httpsListener = nil
        sessionSweep = nil
        forgetListener()
        if let boundSocket {
            evhttp_del_accept_socket(http, boundSocket)
            self.boundSocket = nil
        }
        evhttp_free(http)  // closes every connection; their close callbacks empty the table
        connections.removeAll()
        readingConnection = nil
        graceTimer = nil
        stopWatch = nil
        batchEnd = nil
        acceptResume = nil
        signalEvents.removeAll()
        event_base_free(base)
        closeDescriptor(stopReadEnd)
        if nullDevice >= 0 { closeDescriptor(nullDevice) }
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
            let event = event_new(base, signalNumber, Int16(EV_SIGNAL | EV_PERSIST), { signalNumber, _, context in
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

    /// A new evhttp on `base` with the server's limits and settings; the main port and every
    /// session port are made by this one function, so they behave alike.
    static func makeHTTP(base: OpaquePointer, configuration: ServerConfiguration) -> OpaquePointer? {
        guard let http = evhttp_new(base) else { return nil }
        // Every method reaches the callback. libevent 2.1 parses only the nine methods of its
        // enum; any other token gets the internal type bit 1 << 15 (EVHTTP_REQ_UNKNOWN_, not in
        // the installed headers) and a 501 unless that bit is allowed. Allowing all 16 bits lets
        // such requests through, nameless; the raw-stream reader (RequestStreamParser) supplies
        // the name as sent.
        evhttp_set_allowed_methods(http, UInt16.max)
        evhttp_set_max_body_size(http, Int(configuration.maxBodyBytes))
        evhttp_set_max_headers_size(http, Int(configuration.maxHeaderBytes))
        // The idle timeout as the base's common timeout for that length: libevent re-adds a
        // connection's read and write events with their timeout each time they fire (twice a
        // keep-alive request), and a common timeout goes on the end of one queue instead of
        // into the timer heap.
        var idle = timeval(tv_sec: configuration.idleTimeoutSeconds, tv_usec: 0)
        if configuration.idleTimeoutSeconds > 0, let common = event_base_init_common_timeout(base, &idle) {
            evhttp_set_timeout_tv(http, common)  // libevent keeps the common value for the base's life
        } else {
            evhttp_set_timeout(http, Int32(configuration.idleTimeoutSeconds))
        }
        // Only the stub decides Content-Type; evhttp would otherwise add text/html.
        evhttp_set_default_content_type(http, nil)
        // Read a too-large body to its end before answering 413, so the client sees the 413
        // instead of a reset caused by closing a socket with unread data.
        _ = evhttp_set_flags(http, Int32(EVHTTP_SERVER_LINGERING_CLOSE))
        return http
    }

    /// Binds a listening socket for `http`.
    static func bind(_ http: OpaquePointer, host: String, port: Int) -> Result<OpaquePointer, ServerError> {
        guard let bound = evhttp_bind_socket_with_handle(http, host, UInt16(truncatingIfNeeded: port)) else {
            let code = errno
            return .failure(.bindFailed(host: host, port: port, errno: code,
                                        message: code == 0 ? "cannot resolve or bind the address" : String(cString: strerror(code))))
        }
        return .success(bound)
    }

    /// The port a bound socket ended up on.
    static func localPort(of fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
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
