#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CLibeventTLS
import UnderstudyCore

/// A listening socket on the server's event loop (libevent's `evconnlistener`) whose connections
/// go to one responder: the main port, a session's port (``SessionPort``) or an HTTPS port
/// (``TLSPort``, whose connections get OpenSSL bufferevents). It owns its listener and frees it
/// once, in ``stopAccepting()`` or ``close()``; closing also closes every connection accepted on it.
/// Only the loop thread touches it.
class ListeningPort: SessionListener {
    let port: Int
    let url: String
    private(set) var responder: (any HTTPResponder)?
    /// The server whose loop the port runs on (nil once it is gone), through its
    /// ``ServerReference``: a weak reference to the server itself would slow every retain of it.
    var server: HTTPServer? { reference?.server }
    private weak var reference: ServerReference?
    /// The OpenSSL context for an HTTPS port's connections; nil for plain HTTP.
    let sslContext: OpaquePointer?
    private var listener: OpaquePointer?

    /// Listens on `socket` (bound and listening, see ``bindSocket(host:port:)``), which it owns from now on.
    init(
        server: HTTPServer, socket: Int32, port: Int, url: String, responder: any HTTPResponder,
        sslContext: OpaquePointer?
    ) {
        self.reference = server.reference
        self.port = port
        self.url = url
        self.responder = responder
        self.sslContext = sslContext
        let context = Unmanaged.passUnretained(self).toOpaque()
        listener = evconnlistener_new(
            server.base,
            { _, fd, _, _, context in
                guard let context else { return }
                let port = Unmanaged<ListeningPort>.fromOpaque(context).takeUnretainedValue()
                guard let server = port.server, let responder = port.responder else {
                    _ = Glibc.close(fd)
                    return
                }
                server.accept(fd, on: port, responder: responder)
            }, context, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, socket)
        if listener == nil { _ = Glibc.close(socket) }
        if let listener {
            // Out of descriptors, accept() fails at once on every loop pass while connections wait
            // in the backlog: the loop would spin. Instead the listener pauses for a moment.
            evconnlistener_set_error_cb(
                listener,
                { listener, context in
                    let code = errno
                    guard let listener, let context else { return }
                    let port = Unmanaged<ListeningPort>.fromOpaque(context).takeUnretainedValue()
                    if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                        evconnlistener_disable(listener)
                        port.server?.listeners.acceptResume?.add(afterSeconds: 0.1)
                        LibeventLog.note(
                            "accept() failed: \(String(cString: strerror(code))); pausing new connections for 100 ms")
                    } else {
                        LibeventLog.note("accept() failed: \(String(cString: strerror(code)))")
                    }
                })
        }
    }

    deinit {
        if let listener { evconnlistener_free(listener) }
    }

    /// Stops accepting (the server is draining); open connections carry on.
    func stopAccepting() {
        guard let listener else { return }
        evconnlistener_free(listener)  // closes the listening socket
        self.listener = nil
    }

    /// Re-enables accepting after the listener paused for lack of descriptors.
    func resumeAccepting() {
        if let listener { evconnlistener_enable(listener) }
    }

    /// Closes the port and every connection on it. Idempotent.
    func close() {
        guard let responder else { return }
        stopAccepting()
        self.responder = nil
        guard let server else { return }
        for connection in server.table.connections where connection.port === self {  // a copy
            connection.current?.deferral?.cancel()
            connection.close()
        }
        forget(in: server, responder: responder)
    }

    /// Removes the port from the server's tables once it is closed; subclasses say which table.
    func forget(in server: HTTPServer, responder: (any HTTPResponder)?) {}

    /// A socket bound to `host:port` and listening, non-blocking and close-on-exec, with
    /// `SO_REUSEADDR` (a restarted daemon can take its port back at once) and `TCP_NODELAY`
    /// (accepted sockets inherit it on Linux: a reply written in two pieces must not wait for
    /// the client's delayed ACK).
    static func bindSocket(host: String, port: Int) -> Result<Int32, ServerError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            return .failure(
                .bindFailed(host: host, port: port, errno: 0, message: "cannot resolve or bind the address"))
        }
        defer { freeaddrinfo(found) }
        let fd = socket(
            first.pointee.ai_family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            let code = errno
            return .failure(.bindFailed(host: host, port: port, errno: code, message: String(cString: strerror(code))))
        }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(fd, 1024) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            return .failure(.bindFailed(host: host, port: port, errno: code, message: String(cString: strerror(code))))
        }
        return .success(fd)
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
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default:
            return nil
        }
    }
}
