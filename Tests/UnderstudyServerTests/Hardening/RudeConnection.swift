import Foundation

/// A client socket that hangs up rudely: it stops reading mid-body and resets the connection
/// (SO_LINGER 0, so the server sees RST rather than FIN), as a crashed client would.
final class RudeConnection {
    private var fd: Int32

    init(port: Int) throws {
        fd = try connectToLoopback(port: port)
    }

    deinit { if fd >= 0 { close(fd) } }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads until the response head has arrived and returns its status; the body is left unread.
    func readHeadStatus() -> Int? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !Self.containsHeadEnd(received) {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received += chunk[..<count]
        }
        let line = String(decoding: received.prefix(while: { $0 != 13 }), as: UTF8.self)
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Resets the connection and closes the socket.
    func abort() {
        guard fd >= 0 else { return }
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
        fd = -1
    }

    private static func containsHeadEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (0...(bytes.count - 4)).contains {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
    }
}
