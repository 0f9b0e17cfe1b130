import Foundation
import UnderstudyCore

/// What the transport handed a responder, shared with the test thread.
final class RequestLog: @unchecked Sendable {
    struct Entry {
        var request: HTTPRequest
        /// The status the transport said it refused the request with, if it did.
        var rejectedWith: Int?
    }

    private let lock = NSLock()
    private var storage: [Entry] = []

    func append(_ entry: Entry) {
        lock.lock()
        defer { lock.unlock() }
        storage.append(entry)
    }

    var entries: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// A responder for transport tests, answering by path:
/// `/status/N`, `/delay/MS`, `/fault/NAME`, `/echo` (echoes the request), `/headers`.
final class RecordingResponder: HTTPResponder {
    let log: RequestLog

    init(log: RequestLog) {
        self.log = log
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        log.append(.init(request: request))
        let parts = request.path.split(separator: "/").map(String.init)
        switch parts.first {
        case "status":
            return HTTPResponse(status: Int(parts.last ?? "") ?? 500, body: Array("status".utf8))
        case "delay":
            return HTTPResponse(status: 200, body: Array("delayed".utf8), delayMs: Double(parts.last ?? "") ?? 0)
        case "fault":
            return HTTPResponse(status: 200, body: Array("never seen".utf8), fault: Fault(rawValue: parts.last ?? ""))
        case "headers":
            var headers = HTTPHeaders()
            headers.append(name: "Content-Type", value: "application/json")
            headers.append(name: "X-Repeated", value: "one")
            headers.append(name: "X-Repeated", value: "two")
            headers.append(name: "Set-Cookie", value: "a=1")
            return HTTPResponse(
                status: 203, headers: headers, body: Array("{\"ok\":true}".utf8), stubID: "headers-stub")
        default:
            var headers = HTTPHeaders()
            headers.append(name: "X-Method", value: request.method)
            headers.append(name: "X-Path", value: request.path)
            headers.append(name: "X-Query", value: request.query ?? "<none>")
            headers.append(name: "X-Body-Length", value: String(request.body.count))
            return HTTPResponse(status: 200, headers: headers, body: request.body)
        }
    }

    func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
        log.append(.init(request: request, rejectedWith: status))
        return HTTPResponse(status: status, body: Array(reason.utf8))
    }
}
