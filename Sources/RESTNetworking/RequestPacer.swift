/// Paces requests to what the server says its rate limit is, so the 429 never comes.
///
/// Every response's rate-limit fields — Understudy's `RateLimit-Limit/Remaining/Reset`, the
/// IETF draft's structured `RateLimit`/`RateLimit-Policy`, or GitHub's and others'
/// `X-RateLimit-Limit/Remaining/Reset` with the reset as seconds or as a Unix epoch (see
/// `RateLimitFields`) — and the `Retry-After` of a 429, 503 or 403 update a budget per host;
/// when several are given, the most restrictive wins. When the budget is spent, further
/// requests to that host are held until the reset, then go out again. The rules are
/// `HostPacing`'s: conservative, so a wrong guess costs a wait, never a refusal.
///
/// Opt in by giving an API one pacer, and keep it for the client's lifetime:
///
/// ```swift
/// struct SearchAPI: RESTAPIProtocol {
///     let baseURL: URL
///     let pacer = RequestPacer(maxConcurrentRequests: 8)
/// }
/// ```
///
/// All requests through that API (and any other API handed the same pacer) share the host's
/// budget, sequential or concurrent, typed or untyped, Combine or async. Pacing sits beneath the
/// operators: each attempt of `respondToRateLimiting`, `retryOnFailure` or `retryOnUnauthorized`
/// asks for its own permit, so they compose in any order. Cancelling a held request (the Combine
/// subscription, or the task) ends it at once with nothing sent. Holds run on `scheduler`, so a
/// `ManualRetryScheduler` drives them in tests.
public final class RequestPacer: Sendable {
    /// Identifies one request's permit when it finishes.
    struct Permit: Sendable {
        var host: String
        var ticket: Int
    }

    private struct Waiter {
        var id: Int
        var grant: @Sendable (Permit) -> Void
    }

    private struct Host {
        var pacing = HostPacing()
        var waiters: [Waiter] = []
        var timerDue: TimeInterval?
        var cancelTimer: RetryCancellation?
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var nextWaiter = 0
    }

    /// The most requests to one host on the wire at once, or `nil` for no cap.
    public let maxConcurrentRequests: Int?
    /// Whether this pacer paces at all (`false` only for `unpaced`).
    public let isPacing: Bool
    private let scheduler: any RetryScheduler
    private let state = Locked(State())

    /// - Parameters:
    ///   - maxConcurrentRequests: caps requests on the wire per host (`nil`: only the budget limits them).
    ///   - scheduler: the clock and timers holds run on.
    public init(maxConcurrentRequests: Int? = nil, scheduler: any RetryScheduler = .system) {
        precondition(maxConcurrentRequests.map { $0 > 0 } ?? true, "maxConcurrentRequests must be positive")
        self.maxConcurrentRequests = maxConcurrentRequests
        self.scheduler = scheduler
        self.isPacing = true
    }

    private init(unpaced: Void) {
        maxConcurrentRequests = nil
        scheduler = .system
        isPacing = false
    }

    /// Does not pace: requests go out at once. What an API without a pacer of its own uses.
    public static let unpaced = RequestPacer(unpaced: ())

    /// Requests waiting for a permit, over all hosts.
    public var heldRequests: Int {
        state.withLock { $0.hosts.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// What the pacer currently believes about `url`'s host.
    public func snapshot(for url: URL) -> PacingSnapshot {
        let now = scheduler.now
        return state.withLock { s in
            let host = s.hosts[Self.key(for: url)] ?? Host()
            var snapshot = PacingSnapshot(
                held: host.waiters.count, inFlight: host.pacing.inFlight,
                sent: host.pacing.sent, remaining: nil, resetIn: nil, isLimited: false)
            if case let .known(available, resetAt) = host.pacing.budget {
                snapshot.isLimited = true
                snapshot.remaining = max(0, available)
                snapshot.resetIn = resetAt.map { max(0, $0 - now) }
            }
            return snapshot
        }
    }

    /// Calls `grant` (at once, or when the budget allows) with the permit to send one request to
    /// `url`'s host. The returned cancellation takes a request that is still waiting out of the queue.
    func acquire(for url: URL, grant: @escaping @Sendable (Permit) -> Void) -> RetryCancellation {
        let key = Self.key(for: url)
        let id = state.withLock { s -> Int in
            s.nextWaiter += 1
            s.hosts[key, default: Host()].waiters.append(Waiter(id: s.nextWaiter, grant: grant))
            return s.nextWaiter
        }
        pump(key)
        return { [state] in
            state.withLock { s in s.hosts[key]?.waiters.removeAll { $0.id == id } }
        }
    }

    /// The request holding `permit` finished, with `response` or (`nil`) without one.
    func complete(_ permit: Permit, response: HTTPURLResponse?) {
        let fields = response.map { RateLimitFields(response: $0) }
        let now = scheduler.now
        state.withLock { s in
            s.hosts[permit.host]?.pacing.finish(ticket: permit.ticket, fields: fields, now: now)
        }
        pump(permit.host)
    }

    /// Lets waiting requests go while the budget allows; otherwise arms one timer for the reset.
    private func pump(_ key: String) {
        let now = scheduler.now
        let granted = state.withLock { s -> [(Permit, @Sendable (Permit) -> Void)] in
            guard var host = s.hosts[key] else { return [] }
            var granted: [(Permit, @Sendable (Permit) -> Void)] = []
            while let waiter = host.waiters.first {
                switch host.pacing.admit(now: now, maxInFlight: maxConcurrentRequests) {
                case let .send(ticket):
                    host.waiters.removeFirst()
                    granted.append((Permit(host: key, ticket: ticket), waiter.grant))
                    continue
                case let .wait(until: due?):
                    armTimer(&host, key: key, due: due, now: now)
                case .wait(until: nil):
                    break
                }
                break
            }
            s.hosts[key] = host
            return granted
        }
        for (permit, grant) in granted { grant(permit) }
    }

    /// One timer per host, for the earliest moment something may change.
    private func armTimer(_ host: inout Host, key: String, due: TimeInterval, now: TimeInterval) {
        if let armed = host.timerDue, armed <= due { return }
        host.cancelTimer?()
        host.timerDue = due
        // Scheduling never runs the action synchronously, so taking the lock in it is safe.
        host.cancelTimer = scheduler.schedule(after: due - now) { [weak self] in
            guard let self else { return }
            self.state.withLock { s in
                s.hosts[key]?.timerDue = nil
                s.hosts[key]?.cancelTimer = nil
            }
            self.pump(key)
        }
    }

    /// Budgets are per origin: scheme, host and port.
    static func key(for url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "http"
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host(percentEncoded: false)?.lowercased() ?? ""):\(port)"
    }
}
