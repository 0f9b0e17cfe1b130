/// What the attempts of one logical call share: the idempotency key they all send.
///
/// The outermost retry operator opens a scope when the logical call starts (each `response()`,
/// each subscription); inner operators join it, so nested retries never change the key. The
/// request builder stamps every attempt with the scope's key, and the retry decision reads it back.
final class IdempotencyScope: Sendable {
    private struct State {
        var keys: IdempotencyKeys
        var key: String?
    }

    private let state: Locked<State>

    private init(keys: IdempotencyKeys) {
        state = Locked(State(keys: keys))
    }

    /// `outer` when a call already has a scope (made to generate keys if `keys` does), else a new one.
    static func joining(_ outer: IdempotencyScope?, keys: IdempotencyKeys) -> IdempotencyScope {
        guard let outer else { return IdempotencyScope(keys: keys) }
        outer.state.withLock { state in
            if state.keys.generation == .callerSupplied, keys.generation == .perLogicalCall, state.key == nil {
                state.keys = keys
            }
        }
        return outer
    }

    /// The key the attempts sent, once one has been sent.
    var key: String? { state.withLock { $0.key } }

    /// Gives `request` the call's key: the caller's own when the request already has one (it
    /// becomes the call's key), else the scope's, made on the first attempt, if `method` gets one.
    func stamp(_ request: inout URLRequest, method: HTTPMethod) {
        state.withLock { state in
            let header = state.keys.header
            if let own = request.value(forHTTPHeaderField: header)?.trimmingCharacters(in: .whitespaces), !own.isEmpty {
                state.key = own
                return
            }
            guard state.keys.generates(for: method) else { return }
            let key = state.key ?? UUID().uuidString.lowercased()
            state.key = key
            request.setValue(key, forHTTPHeaderField: header)
        }
    }
}
