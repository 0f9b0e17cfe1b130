#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// Admin calls to a running daemon on loopback, for commands that attach to one (`record
/// --session`): one HTTP/1.1 exchange per call (`Connection: close`) over a blocking socket.
///
/// Why by hand: the daemon's admin API is plain HTTP on 127.0.0.1 answering with a
/// `Content-Length`, and the CLI links no HTTP client (FoundationNetworking would add its load
/// time to every command, `serve` included). The kit's `AdminHTTPClient` does the same on its side.
struct DaemonAdminClient {
    /// What came back.
    struct Response {
        var status: Int
        var body: [UInt8]
        /// The body as JSON (nil when it is not).
        var json: JSONValue? { JSONValue.parse(body) }
        /// The admin API's `error`, or the body's text.
        var message: String { json?["error"]?.stringValue ?? String(decoding: body, as: UTF8.self) }
    }

    /// Why a call failed below HTTP.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The daemon's address, as `http://HOST:PORT` came.
    let host: String
    let port: Int
    /// Sent as `Authorization: Bearer` (the daemon's `--admin-token`).
    var token: String?
    /// Seconds a call may take, connecting included.
    var timeout: Double = 30

    /// A client for `url` (`http://127.0.0.1:PORT`, perhaps with a trailing `/`); nil when the URL
    /// is not a plain `http://` host and port with nothing after it.
    init?(url: String, token: String?) {
        guard url.hasPrefix("http://") else { return nil }
        var rest = Substring(url.dropFirst("http://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(rest[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else { return nil }
        self.host = host
        self.port = port
        self.token = token
    }

    /// Sends `method path` with `body` (JSON) and returns the whole answer.
    func call(_ method: String, _ path: String, body: [UInt8]? = nil) throws(Failure) -> Response {
        let socket = try connect()
        defer { close(socket) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        try send(socket, Array((head + "\r\n").utf8) + (body ?? []))
        return try parse(receive(socket))
    }

    private func connect() throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, 0)
            guard socket >= 0 else {
                lastError = errno
                continue
            }
            var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            lastError = errno
            close(socket)
        }
        throw Failure(description: "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))")
    }

    private func send(_ socket: Int32, _ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + offset, $0.count - offset, 0) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "sending to \(host):\(port) failed: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    private func receive(_ socket: Int32) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                let why = errno == EAGAIN ? "no answer within \(Int(timeout)) s" : String(cString: strerror(errno))
                throw Failure(description: "receiving from \(host):\(port) failed: \(why)")
            }
            bytes += chunk[0..<count]
        }
    }

    /// The status and the body of a whole answer (`Connection: close`: the body runs to the end,
    /// cut at `Content-Length` when there is one).
    private func parse(_ bytes: [UInt8]) throws(Failure) -> Response {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
            throw Failure(description: "\(host):\(port) closed the connection before answering")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "\(host):\(port) did not answer HTTP")
        }
        var body = Array(bytes[end.upperBound...])
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length",
                let length = Int(parts[1].drop { $0 == " " }), length <= body.count
            else { continue }
            body = Array(body.prefix(length))
        }
        return Response(status: status, body: body)
    }
}
