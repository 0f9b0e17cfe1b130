#if AsyncHTTPClient  // this module is empty without the AsyncHTTPClient trait (Package.swift)
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Collects one response (its head and whole body) for ``AsyncHTTPClientTransport``, and
/// remembers whether a head arrived, which tells a cut-off body from an empty reply when the
/// connection closes early.
final class ResponseCollector: HTTPClientResponseDelegate {
    typealias Response = HTTPResponseHead

    private struct State: Sendable {
        var head: HTTPResponseHead?
        var body = Data()
    }

    // The delegate's calls come on the task's event loop, the readers after its future completes;
    // the lock makes that hand-over explicit.
    private let state = NIOLockedValueBox(State())

    /// Whether the response's head arrived.
    var sawHead: Bool { state.withLockedValue { $0.head != nil } }
    /// The body received so far.
    var body: Data { state.withLockedValue { $0.body } }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLockedValue {
            $0.head = head
            $0.body = Data()
        }  // a redirect's head is replaced
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLockedValue { $0.body.append(contentsOf: buffer.readableBytesView) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> HTTPResponseHead {
        guard let head = state.withLockedValue({ $0.head }) else { throw HTTPClientError.remoteConnectionClosed }
        return head
    }
}
#endif
