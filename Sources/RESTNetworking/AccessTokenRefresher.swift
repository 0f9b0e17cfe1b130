/// Holds the current access token and refreshes it, single-flight, when requests get 401.
///
/// Each request notes the token *generation* when it is sent. When it gets a 401:
/// - if a refresh is running, it waits for that one;
/// - if a refresh has finished since the request was sent, it takes that refresh's outcome
///   (its token, or its error) without refreshing again;
/// - otherwise it starts the refresh that the others will join.
/// So ten requests that fail together cause one call to the token endpoint, whatever order their
/// 401s arrive in, and a failed refresh fails all of them with the refresh's error.
public final class AccessTokenRefresher: Sendable {
    /// Fetches a new access token.
    public typealias Refresh = @Sendable () async throws -> String

    private struct State {
        var accessToken: String?
        var generation = 0
        var lastOutcome: Result<String, any Error>?
        var waiters: [Int: @Sendable (Result<String, any Error>) -> Void] = [:]
        var nextWaiter = 0
        var refreshing = false
        var refreshCount = 0
    }

    private let state: Locked<State>
    private let refresh: Refresh

    /// - Parameters:
    ///   - accessToken: the token to start with, if any.
    ///   - refresh: fetches a new token; called once per refresh, however many requests wait.
    public init(accessToken: String? = nil, refresh: @escaping Refresh) {
        self.state = Locked(State(accessToken: accessToken))
        self.refresh = refresh
    }

    /// The current token: read it in a request modifier.
    public var accessToken: String? { state.withLock { $0.accessToken } }

    /// How many refreshes have been started.
    public var refreshCount: Int { state.withLock { $0.refreshCount } }

    /// Bumped each time a refresh finishes, successfully or not.
    var generation: Int { state.withLock { $0.generation } }

    /// Whether `error` is the 401 this refresher answers.
    static func shouldRefresh(after error: any Error) -> Bool {
        (error as? HTTPClientError) == .unauthorized
    }

    /// Calls `completion` with a token newer than `generation` (or the refresh's error). Returns
    /// a cancellation that stops waiting; the refresh itself carries on for the others.
    func token(
        replacingGeneration generation: Int,
        completion: @escaping @Sendable (Result<String, any Error>) -> Void
    ) -> RetryCancellation {
        enum Step { case wait(Int), answer(Result<String, any Error>), start(Int) }
        let step = state.withLock { s -> Step in
            if !s.refreshing, s.generation > generation, let outcome = s.lastOutcome {
                return .answer(outcome)
            }
            s.nextWaiter += 1
            s.waiters[s.nextWaiter] = completion
            if s.refreshing { return .wait(s.nextWaiter) }
            s.refreshing = true
            s.refreshCount += 1
            return .start(s.nextWaiter)
        }
        switch step {
        case let .answer(outcome):
            completion(outcome)
            return {}
        case let .wait(id):
            return cancelWaiting(id)
        case let .start(id):
            let refresh = self.refresh
            Task {
                let outcome: Result<String, any Error>
                do { outcome = .success(try await refresh()) } catch { outcome = .failure(error) }
                self.finish(outcome)
            }
            return cancelWaiting(id)
        }
    }

    /// The async form of `token(replacingGeneration:completion:)`.
    func token(replacingGeneration generation: Int) async throws -> String {
        let cancel = Locked<RetryCancellation?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let once = Locked(false)
                let stop = token(replacingGeneration: generation) { result in
                    if once.withLock({ done in
                        defer { done = true }
                        return !done
                    }) {
                        continuation.resume(with: result)
                    }
                }
                cancel.withLock {
                    $0 = {
                        stop()
                        if once.withLock({ done in
                            defer { done = true }
                            return !done
                        }) {
                            continuation.resume(throwing: CancellationError())
                        }
                    }
                }
                if Task.isCancelled { cancel.withLock { $0 }?() }
            }
        } onCancel: {
            cancel.withLock { $0 }?()
        }
    }

    private func cancelWaiting(_ id: Int) -> RetryCancellation {
        { [state] in state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
    }

    private func finish(_ outcome: Result<String, any Error>) {
        let waiters = state.withLock { s -> [@Sendable (Result<String, any Error>) -> Void] in
            s.generation += 1
            s.lastOutcome = outcome
            if case let .success(token) = outcome { s.accessToken = token }
            s.refreshing = false
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter(outcome) }
    }
}
