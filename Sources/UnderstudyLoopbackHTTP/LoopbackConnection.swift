#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected, non-blocking TCP socket that closes its descriptor when it ends. Every wait is a
/// `poll` bounded by the exchange's one deadline, so a server that stops mid-way cannot hold a
/// call past ``LoopbackHTTPClient/timeout`` (`SO_RCVTIMEO` bounds each `recv` alone: a trickle outlasts it).
struct LoopbackConnection: ~Copyable {
    private let descriptor: Int32
    private let host: String
    private let port: Int
    private let deadline: ContinuousClock.Instant
    private let timeout: Double

    private init(descriptor: Int32, host: String, port: Int, deadline: ContinuousClock.Instant, timeout: Double) {
        self.descriptor = descriptor
        self.host = host
        self.port = port
        self.deadline = deadline
        self.timeout = timeout
    }

    deinit { close(descriptor) }

    /// Connects to the first of `host`'s addresses that accepts (`localhost` may be `::1` first while
    /// the daemon listens on 127.0.0.1).
    static func connect(
        host: String, port: Int, deadline: ContinuousClock.Instant, timeout: Double
    ) throws(LoopbackHTTPError) -> LoopbackConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Glue.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var refusedEverywhere = true
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = Glue.socket(
                address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastError = errno
                refusedEverywhere = false
                continue
            }
            let socket = LoopbackConnection(
                descriptor: descriptor, host: host, port: port, deadline: deadline, timeout: timeout)
            Glue.prepare(descriptor)
            let error = try socket.finishConnecting(to: address.pointee.ai_addr, length: address.pointee.ai_addrlen)
            if error == 0 { return socket }
            lastError = error
            if error != ECONNREFUSED { refusedEverywhere = false }
        }
        if refusedEverywhere { throw .connectionRefused(host: host, port: port) }
        throw .cannotConnect(host: host, port: port, reason: String(cString: strerror(lastError)))
    }

    /// `connect`, waiting for a connection in progress until the deadline: 0, or the errno it failed with.
    private func finishConnecting(to address: UnsafeMutablePointer<sockaddr>, length: socklen_t)
        throws(LoopbackHTTPError) -> Int32
    {
        if Glue.connect(descriptor, address, length) == 0 { return 0 }
        guard errno == EINPROGRESS || errno == EINTR else { return errno }
        guard try wait(for: Int16(POLLOUT), .connecting) else {
            throw .timedOut(host: host, port: port, seconds: timeout, phase: .connecting)
        }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else { return errno }
        return error
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws(LoopbackHTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glue.send(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard try wait(for: Int16(POLLOUT), .sending) else {
                    throw .timedOut(host: host, port: port, seconds: timeout, phase: .sending)
                }
            } else if errno != EINTR {
                throw failure(.sending)
            }
        }
    }

    /// Every byte the server sends until it closes the connection.
    func receiveToClose() throws(LoopbackHTTPError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 {
                return bytes
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard try wait(for: Int16(POLLIN), .receiving) else {
                    throw .timedOut(host: host, port: port, seconds: timeout, phase: .receiving)
                }
            } else if errno != EINTR {
                throw failure(.receiving)
            }
        }
    }

    /// Waits until the socket is ready for `events`; false when the deadline passes first.
    private func wait(for events: Int16, _ phase: LoopbackHTTPError.Phase) throws(LoopbackHTTPError) -> Bool {
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return false }
            let (seconds, attoseconds) = remaining.components
            // Rounded up, so a wait never ends just before the deadline and spins.
            let milliseconds = min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, Int64(Int32.max))
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(milliseconds))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { throw failure(phase) }
        }
    }

    private func failure(_ phase: LoopbackHTTPError.Phase) -> LoopbackHTTPError {
        .connectionFailed(host: host, port: port, phase: phase, reason: String(cString: strerror(errno)))
    }
}

/// The libc calls whose spelling differs between platforms.
private enum Glue {
    #if canImport(Darwin)
    static let streamType = SOCK_STREAM
    #else
    static let streamType = Int32(SOCK_STREAM.rawValue)
    #endif

    static func socket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        #if canImport(Darwin)
        return Darwin.socket(family, type, proto)
        #elseif canImport(Musl)
        return Musl.socket(family, type | Int32(SOCK_CLOEXEC), proto)
        #else
        return Glibc.socket(family, type | Int32(SOCK_CLOEXEC.rawValue), proto)
        #endif
    }

    /// Non-blocking (every wait is a bounded `poll`), closed on exec (a daemon the test process
    /// starts meanwhile must not inherit the connection), and on Darwin no SIGPIPE.
    static func prepare(_ socket: Int32) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    static func connect(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
        return Darwin.connect(socket, address, length)
        #elseif canImport(Musl)
        return Musl.connect(socket, address, length)
        #else
        return Glibc.connect(socket, address, length)
        #endif
    }

    static func send(_ socket: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.send(socket, pointer, count, 0)  // SO_NOSIGPIPE is set instead
        #elseif canImport(Musl)
        return Musl.send(socket, pointer, count, Int32(MSG_NOSIGNAL))
        #else
        return Glibc.send(socket, pointer, count, Int32(MSG_NOSIGNAL))
        #endif
    }
}
