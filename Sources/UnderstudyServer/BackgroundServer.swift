#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
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
        try spawnThread {
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
            outcome.set(
                .success(
                    BackgroundServer(
                        port: server.port, url: server.url, controller: server.controller, finished: finished)))
            ready.signal()
            server.run()
            finished.signal()
        }
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

/// Runs `body` on a new detached POSIX thread. A plain pthread rather than Foundation's `Thread`
/// keeps Foundation out of the transport module (and so out of the daemon's start-up).
private func spawnThread(_ body: @escaping @Sendable () -> Void) throws(ServerError) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
    guard result == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        throw .setupFailed("pthread_create: \(String(cString: strerror(result)))")
    }
    pthread_detach(thread)
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}

/// The start-up result handed from the server thread to the caller.
private final class StartOutcome: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var result: Result<BackgroundServer, any Error> = .failure(ServerError.setupFailed("not started"))

    func set(_ result: Result<BackgroundServer, any Error>) {
        lock.wait()
        defer { lock.signal() }
        self.result = result
    }

    func get() throws -> BackgroundServer {
        lock.wait()
        defer { lock.signal() }
        return try result.get()
    }
}
