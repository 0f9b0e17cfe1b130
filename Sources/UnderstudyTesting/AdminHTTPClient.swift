import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The admin API's transport: one HTTP/1.1 exchange (`Connection: close`) over a plain blocking
/// socket, on a thread of its own.
///
/// Why not URLSession: on Linux, FoundationNetworking can deadlock inside `URLSession.data(for:)`
/// when a task is cancelled, and a task group cancelling its siblings has frozen every URLSession
/// call of a test process that way. Admin calls take no part in Swift cancellation at all: a
/// cancelled caller still waits for its call to end (each is bounded by its timeout), and no
/// URLSession — the client under test's, or a cancelled one — can hold them up.
enum AdminHTTPClient {
    /// What came back.
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    /// Sends one request and returns the response; `timeout` bounds connecting, sending and
    /// receiving. An `https` URL (an attached daemon behind TLS) goes through URLSession, shielded
    /// from cancellation in a detached task.
    static func send(
        method: String, url: URL, headers: [(String, String)], body: Data?,
        timeout: TimeInterval
    ) async throws -> Response {
        if url.scheme == "https" {
            return try await sendOverURLSession(
                method: method, url: url, headers: headers, body: body, timeout: timeout)
        }
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try exchange(method: method, url: url, headers: headers, body: body, timeout: timeout)
                    })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Why an exchange failed below HTTP.
    struct TransportError: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: One exchange on the calling thread

    static func exchange(
        method: String, url: URL, headers: [(String, String)], body: Data?,
        timeout: TimeInterval
    ) throws -> Response {
        guard let host = url.host, !host.isEmpty else { throw TransportError(description: "no host in \(url)") }
        let port = url.port ?? 80
        let socket = try connect(host: host, port: port, timeout: timeout)
        defer { close(socket) }
        var target = url.path.isEmpty ? "/" : url.path
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            if let query = components.percentEncodedQuery { target += "?" + query }
        }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if body != nil || method == "POST" || method == "PUT" { head += "Content-Length: \(body?.count ?? 0)\r\n" }
        head += "\r\n"
        try writeAll(socket, Data(head.utf8) + (body ?? Data()))
        return try parse(try readToEnd(socket))
    }

    private static func connect(host: String, port: Int, timeout: TimeInterval) throws -> Int32 {
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
            throw TransportError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socket = Glue.socket(
                address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard socket >= 0 else {
                lastError = errno
                continue
            }
            Glue.setTimeouts(socket, timeout)
            if Glue.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            lastError = errno
            close(socket)
        }
        throw TransportError(description: "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))")
    }

    private static func writeAll(_ socket: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let sent = Glue.send(socket, buffer.baseAddress! + offset, buffer.count - offset)
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw TransportError(description: "send failed: \(String(cString: strerror(errno)))")
                }
                offset += sent
            }
        }
    }

    private static func readToEnd(_ socket: Int32) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw TransportError(description: "timed out waiting for the answer")
                }
                throw TransportError(description: "receive failed: \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// Status line, headers (only framing ones matter here) and body of a whole HTTP/1.1 response.
    static func parse(_ data: Data) throws -> Response {
        let bytes = [UInt8](data)
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
            throw TransportError(
                description: "the connection closed before a complete response head (\(bytes.count) bytes)")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw TransportError(description: "not an HTTP status line: \(lines[0])")
        }
        var contentLength: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { contentLength = Int(value) }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
        var body = Array(bytes[end.upperBound...])
        if chunked {
            body = try dechunk(body)
        } else if let contentLength {
            guard body.count >= contentLength else {
                throw TransportError(
                    description: "the connection closed after \(body.count) of \(contentLength) body bytes")
            }
            body = Array(body.prefix(contentLength))
        }
        return Response(status: status, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else {
                throw TransportError(description: "truncated chunked body")
            }
            let sizeText =
                String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw TransportError(description: "bad chunk size \(sizeText)")
            }
            index = lineEnd.upperBound
            if size == 0 { return output }
            guard index + size <= bytes.count else { throw TransportError(description: "truncated chunk") }
            output += bytes[index..<index + size]
            index += size + 2
        }
    }

    // MARK: https

    private static let tlsSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    private static func sendOverURLSession(
        method: String, url: URL, headers: [(String, String)], body: Data?,
        timeout: TimeInterval
    ) async throws -> Response {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let session = tlsSession
        // Detached: the caller's cancellation never reaches the URLSession task.
        return try await Task.detached {
            let (data, response) = try await session.data(for: request)
            return Response(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        }.value
    }
}

/// The few libc calls whose spelling differs between platforms.
private enum Glue {
    static func socket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        #if canImport(Darwin)
        return Darwin.socket(family, type, proto)
        #elseif canImport(Musl)
        return Musl.socket(family, type, proto)
        #else
        return Glibc.socket(family, type, proto)
        #endif
    }

    static func connect(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
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

    static func setTimeouts(_ socket: Int32, _ timeout: TimeInterval) {
        let seconds = max(timeout, 0.001)
        var value = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - seconds.rounded(.down)) * 1_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &value, size)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &value, size)
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }
}
