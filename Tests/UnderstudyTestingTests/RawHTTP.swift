import Foundation
#if canImport(Glibc)
import Glibc
#endif
import UnderstudyTesting

/// One request over a plain TCP socket, read to the end: for what URLSession hides (the status
/// line's reason phrase) or retries (a connection broken by a fault).
enum RawHTTP {
    /// Sends `GET path HTTP/1.1` with `Connection: close` and returns every byte received until
    /// the daemon closes (or resets) the connection; a 5 s receive timeout bounds the wait.
    static func get(_ path: String, on understudy: Understudy) throws -> [UInt8] {
        let port = understudy.baseURL.port!
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw POSIXError(.EPIPE)
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // 0 is the daemon's close; -1 a reset (or the timeout): either way the answer is over.
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return received
    }
}
