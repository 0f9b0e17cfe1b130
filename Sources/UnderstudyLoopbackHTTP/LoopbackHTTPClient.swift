/// A blocking HTTP/1.1 client for a daemon's admin API on loopback (or any plain `http://HOST:PORT`):
/// one exchange per call, `Connection: close`, on the calling thread.
///
/// Both of the package's admin clients use it: `understudy record --session` (the CLI links no HTTP
/// client: FoundationNetworking would add its load time to every command, `serve` included) and the
/// test kit's `UnderstudyAdmin` (URLSession on Linux can deadlock when a task is cancelled; a
/// blocking socket on a thread of its own takes no part in cancellation). It imports no Foundation.
///
/// ```swift
/// let client = LoopbackHTTPClient(host: "127.0.0.1", port: port, timeout: 10)
/// let health = try client.exchange(method: "GET", target: "/__admin/health")
/// ```
public struct LoopbackHTTPClient: Sendable {
    /// The server's host: a name (`localhost`) or an address (`127.0.0.1`, `::1`).
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// Seconds one exchange may take in all: connecting, sending and receiving.
    public var timeout: Double

    /// A client for `host` and `port` whose exchanges take at most `timeout` seconds.
    public init(host: String, port: Int, timeout: Double = 30) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// A client for `url`, a plain `http://HOST:PORT` as the daemon prints it (an IPv6 host in
    /// brackets; a trailing `/` allowed); nil for anything else (`https`, a path, no port).
    public init?(url: String, timeout: Double = 30) {
        guard url.hasPrefix("http://") else { return nil }
        var rest = Substring(url.dropFirst("http://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = rest[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil  // an IPv6 address must be bracketed
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        self.init(host: String(host), port: port, timeout: timeout)
    }

    /// Sends one request and returns the server's response, read up to its close.
    ///
    /// The head is `METHOD target HTTP/1.1` with `Host` and `Connection: close`, then `headers`
    /// as given; `Content-Length` is added when there is a body (or the method is `POST`, `PUT`
    /// or `PATCH`, as an empty body must be announced). The whole exchange ends within
    /// ``timeout`` seconds (name resolution aside, which for a loopback name does not wait).
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - target: the path and query as sent (`/__admin/requests?limit=5`), already percent-encoded.
    ///   - headers: further header fields, in order.
    ///   - body: the request body; nil for none.
    /// - Throws: a ``LoopbackHTTPError`` saying what failed: refused, timed out, reset, or a
    ///   malformed or truncated response.
    public func exchange(
        method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil
    ) throws(LoopbackHTTPError) -> LoopbackHTTPResponse {
        let deadline = ContinuousClock.now + .seconds(min(max(timeout, 0.001), 1e9))
        let socket = try LoopbackConnection.connect(host: host, port: port, deadline: deadline, timeout: timeout)
        try socket.send(
            Self.request(method: method, target: target, host: host, port: port, headers: headers, body: body))
        return try LoopbackHTTPResponse(parsing: socket.receiveToClose(), requestMethod: method)
    }

    /// The request's bytes: head, blank line, body.
    static func request(
        method: String, target: String, host: String, port: Int, headers: [(name: String, value: String)],
        body: [UInt8]?
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(LoopbackHTTPError.address(host, port))\r\n"
        head += "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if body != nil || ["POST", "PUT", "PATCH"].contains(method) {
            head += "Content-Length: \(body?.count ?? 0)\r\n"
        }
        return Array((head + "\r\n").utf8) + (body ?? [])
    }
}
