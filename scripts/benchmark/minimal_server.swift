// The floor a Swift HTTP server starts from (issue 46's start-up anchor, built by scripts/bench --floor with
// `swiftc -O -static-stdlib`): Glibc sockets, one thread, every request answered `200 hello` on a kept-alive
// connection. No Foundation, no libevent, no argument parser, no journal: what any Swift binary pays to exec,
// load its runtime and answer, against which Understudy's start-up and idle memory are compared.
//
// Usage: minimal_server PORT   (0: any free port). Prints "minimal listening on http://127.0.0.1:PORT".
import Glibc

let requested = CommandLine.arguments.count > 1 ? UInt16(CommandLine.arguments[1]) ?? 0 : 0
let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
var on: Int32 = 1
setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = requested.bigEndian
address.sin_addr.s_addr = inet_addr("127.0.0.1")
let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
}
guard bound == 0, listen(listener, 128) == 0 else {
    perror("minimal_server")
    exit(1)
}
var length = socklen_t(MemoryLayout<sockaddr_in>.size)
_ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
}
print("minimal listening on http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
fflush(stdout)

let reply = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello".utf8)
var buffer = [UInt8](repeating: 0, count: 16_384)
while true {
    let connection = accept(listener, nil, nil)
    if connection < 0 { continue }
    // One client at a time: enough for a start-up probe and an idle-memory reading.
    var pending: [UInt8] = []
    serving: while true {
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        pending += buffer[0..<count]
        while let end = headEnd(pending) {
            pending.removeFirst(end)
            if reply.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 {
                break serving
            }
        }
    }
    close(connection)
}

/// The length of the first request head in `bytes` (through its blank line), if it is all there.
func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 3..<bytes.count
    where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
        return index + 1
    }
    return nil
}
