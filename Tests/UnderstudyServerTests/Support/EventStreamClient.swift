import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test helper that consumes a `text/event-stream` with URLSession as an SSE client would: bytes
/// as they arrive, parsed by the WHATWG rules (lines ending in LF, CR or CRLF; `event`, `data`,
/// `id`, `retry`; comments ignored; a blank line dispatches), each event stamped with its arrival.
final class EventStreamClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Event: Equatable {
        var type: String
        var data: String
        var lastEventID: String
        var retry: Int?
    }

    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var pending = (type: "", data: [String](), retry: Int?.none)
    private var lastEventID = ""
    private(set) var events: [(event: Event, at: Date)] = []
    private(set) var contentType: String?
    private var finished: ((Error?) -> Void)?

    /// Reads the stream at `url` to its end; returns the events with their arrival times.
    static func read(_ url: URL, timeout: TimeInterval = 15) async throws -> (
        events: [(event: Event, at: Date)], contentType: String?
    ) {
        let client = EventStreamClient()
        let session = URLSession(configuration: .ephemeral, delegate: client, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            client.finished = { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
            session.dataTask(with: request).resume()
        }
        return client.lock.withLock { (client.events, client.contentType) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { contentType = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = Date()
        lock.withLock {
            buffer += data
            while let end = buffer.firstIndex(where: { $0 == 10 || $0 == 13 }) {
                // A CR at the very end may be the first half of CRLF: wait for the next byte.
                if buffer[end] == 13 && end == buffer.count - 1 { break }
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                let skip = buffer[end] == 13 && buffer[end + 1] == 10 ? 2 : 1
                buffer.removeFirst(end + skip)
                process(line, at: now)
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let done = lock.withLock { () -> ((Error?) -> Void)? in
            defer { finished = nil }
            return finished
        }
        done?(error)
    }

    private func process(_ line: String, at now: Date) {
        if line.isEmpty {
            if !pending.data.isEmpty {
                events.append(
                    (
                        Event(
                            type: pending.type.isEmpty ? "message" : pending.type,
                            data: pending.data.joined(separator: "\n"),
                            lastEventID: lastEventID, retry: pending.retry), now
                    ))
            }
            pending = ("", [], nil)
            return
        }
        if line.hasPrefix(":") { return }
        let field: Substring, value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            var rest = line[line.index(after: colon)...]
            if rest.first == " " { rest = rest.dropFirst() }
            value = rest
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": pending.type = String(value)
        case "data": pending.data.append(String(value))
        case "id": lastEventID = String(value)
        case "retry": pending.retry = Int(value)
        default: break
        }
    }
}
