/// What the transport talks to: routes `/__admin/*` to the admin API and everything else to the
/// stub engine.
///
/// Not `Sendable`: one thread (the transport's event loop) drives it.
public final class UnderstudyResponder: HTTPResponder {
    private let stubPaths: [String]
    private let configuration: EngineConfiguration
    private var stubs: StubSet

    /// Loads the stubs at `stubPaths` (files or directories).
    public init(stubPaths: [String], configuration: EngineConfiguration = EngineConfiguration()) throws(StubLoadFailure) {
        self.stubPaths = stubPaths
        self.configuration = configuration
        self.stubs = try StubLoader.load(paths: stubPaths)
    }

    /// Serves an already loaded stub set; `reload()` then has no paths to read.
    public init(stubs: StubSet, configuration: EngineConfiguration = EngineConfiguration()) {
        self.stubPaths = []
        self.configuration = configuration
        self.stubs = stubs
    }

    /// Answers a request; journals it (unless it is an admin request) before returning.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: configuration.unmatchedStatus)
    }

    /// Journals a request the transport refused and returns what to send.
    public func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array((reason + "\n").utf8))
    }

    /// Re-reads the stub paths; on failure the current stubs stay.
    public func reload() -> Result<Int, StubLoadFailure> {
        do {
            stubs = try StubLoader.load(paths: stubPaths)
            return .success(stubs.count)
        } catch {
            return .failure(error)
        }
    }

    /// How many stubs are loaded.
    public var stubCount: Int { stubs.count }
}

@available(*, unavailable)
extension UnderstudyResponder: Sendable {}
