import Foundation

/// A plain TCP connection for what URLSession and curl hide: several requests on one
/// connection, pipelining, custom methods with bodies, hanging up mid-request.
final class RawConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = try connectToLoopback(port: port)
    }

    deinit { close(fd) }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Reads one response framed by Content-Length; nil on EOF or timeout.
    func readResponse() -> (status: Int, headers: [String: String], body: String)? {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst()
                let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
                var headers: [String: String] = [:]
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                        in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < end + 4 + length {
                    guard fill() else { return nil }
                }
                let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                buffer.removeFirst(end + 4 + length)
                return (status, headers, body)
            }
            guard fill() else { return nil }
        }
    }

    /// Every byte still to come until the server closes the connection (nil on a read error or timeout).
    func readUntilEnd() -> [UInt8]? {
        while true {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { break }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closed the connection (EOF) before the timeout.
    func readsEndOfStream() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    /// Whether the server closed (or reset) the connection within `milliseconds`.
    func closed(waitingMilliseconds milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) <= 0
    }

    /// Whether the server reset the connection (ECONNRESET) before the timeout.
    func readsReset() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) < 0 && errno == ECONNRESET
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
}
