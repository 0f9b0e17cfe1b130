import Foundation

/// Client threads sending tagged requests (`/ok?soak=ID`) on keep-alive connections until told
/// to stop or until the server closes on them, recording every ID that got its 200.
final class LoadRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var answeredIDs: [String] = []
    private var running = true
    private var finishedThreads = 0
    private let threads: Int

    /// Starts `threads` client threads against `port`.
    init(port: Int, threads: Int) {
        self.threads = threads
        for number in 0..<threads {
            Thread.detachNewThread { [self] in run(number, port) }
        }
    }

    var answered: [String] { lock.withLock { answeredIDs } }

    /// Stops the clients and waits (with a deadline) until every thread has returned.
    @discardableResult
    func stop(timeout: TimeInterval = 15) -> Bool {
        lock.withLock { running = false }
        return waitUntil(timeout: timeout) { lock.withLock { finishedThreads == threads } }
    }

    private func run(_ number: Int, _ port: Int) {
        defer { lock.withLock { finishedThreads += 1 } }
        var serial = 0
        var connection: RawConnection?
        while lock.withLock({ running }) {
            if connection == nil { connection = try? RawConnection(port: port) }
            guard let open = connection else { return }  // refused: the server is gone
            serial += 1
            let id = "t\(number)-\(serial)"
            open.send("GET /ok?soak=\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            guard let response = open.readResponse() else {
                connection = nil  // closed by the server (shutting down): try a new connection
                continue
            }
            if response.status == 200 { lock.withLock { answeredIDs.append(id) } }
            if response.headers["connection"]?.lowercased() == "close" { connection = nil }
        }
    }
}
