/// One `advance(by:)` for the server's clock and the client's: a `TestClock`-style driver that
/// moves a session's clock, then each client clock it links (RESTNetworking's
/// `ManualRetryScheduler`, swift-clocks' `TestClock`, or any clock a closure can advance), so a
/// client that waits out a `Retry-After` is tested with no real wait.
///
/// ```swift
/// let scheduler = ManualRetryScheduler()
/// let time = VirtualTime(server: session.clock) { scheduler.advance(by: $0.timeInterval) }
/// try await time.advance(by: .seconds(30))  // the window rolls, then the client's retry fires
/// ```
///
/// The kit talks HTTP only, so it does not name any client's clock type: the link is a closure.
public struct VirtualTime: Sendable {
    /// The server's clock, moved first.
    public let server: UnderstudyClock
    private let clients: [@Sendable (Duration) async -> Void]

    /// Links `server` with client clocks, each advanced (in order) after it.
    public init(server: UnderstudyClock, clients: [@Sendable (Duration) async -> Void]) {
        self.server = server
        self.clients = clients
    }

    /// Links `server` with one client clock.
    public init(server: UnderstudyClock, client: @escaping @Sendable (Duration) async -> Void) {
        self.init(server: server, clients: [client])
    }

    /// Advances the server's clock (what it released is returned), then every client clock: the
    /// server's windows have rolled before a client's timer sends its retry.
    @discardableResult
    public func advance(by duration: Duration) async throws -> [FiredClockEvent] {
        let fired = try await server.advance(by: duration)
        for client in clients { await client(duration) }
        return fired
    }
}

extension Duration {
    /// The duration in seconds, for clocks that count in `TimeInterval` (`ManualRetryScheduler`).
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
