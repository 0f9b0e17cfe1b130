import Foundation
import UnderstudyCore

/// An ``HTTPServer`` running on a thread of its own, for in-process tests and embedding.
///
/// The responder is created on the server's thread by `makeResponder`, because a responder is
/// driven by one thread only. ``start(configuration:accessLog:makeResponder:)`` returns once the
/// socket is bound, so ``port`` is real and connections are accepted from then on.
public final class BackgroundServer: Sendable {
    /// The bound port.
    public let port: Int
    /// `http://HOST:PORT`.
    public let url: String
    private let controller: ServerController
    private let finished: DispatchSemaphore

    private init(port: Int, url: String, controller: ServerController, finished: DispatchSemaphore) {
        self.port = port
        self.url = url
        self.controller = controller
        self.finished = finished
    }

    /// Starts a server thread; throws what the responder factory or the bind threw.
    public static func start(
        configuration: ServerConfiguration = ServerConfiguration(),
        accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
        makeResponder: @escaping @Sendable () throws -> any HTTPResponder
    ) throws -> BackgroundServer {
        let ready = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = StartOutcome()
        let thread = Thread {
            let server: HTTPServer
            do {
                server = try HTTPServer(configuration: configuration, responder: try makeResponder())
            } catch {
                outcome.set(.failure(error))
                ready.signal()
                finished.signal()
                return
            }
            server.accessLog = accessLog.map { log in { log($0) } }
            outcome.set(.success(BackgroundServer(port: server.port, url: server.url, controller: server.controller, finished: finished)))
            ready.signal()
            server.run()
            finished.signal()
        }
        thread.name = "understudy-event-loop"
        thread.start()
        ready.wait()
        return try outcome.get()
    }

    /// Stops gracefully (in-flight responses finish) and waits for the server thread to end.
    public func stop() {
        controller.stop()
        finished.wait()
        finished.signal()  // a second stop() returns at once
    }

    /// Asks the server to stop without waiting.
    public func requestStop() {
        controller.stop()
    }
}

/// The start-up result handed from the server thread to the caller.
private final class StartOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<BackgroundServer, any Error> = .failure(ServerError.setupFailed("not started"))

    func set(_ result: Result<BackgroundServer, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        self.result = result
    }

    func get() throws -> BackgroundServer {
        lock.lock()
        defer { lock.unlock() }
        return try result.get()
    }
}
