import Foundation

/// A world's webhook deliveries (`GET /__admin/webhooks`, docs/webhooks.md), and a wait for one to
/// reach a state.
extension UnderstudyAdmin {
    /// The deliveries of this daemon's main port (or of the session, on a session handle), oldest first.
    public func webhookDeliveries() async throws -> [WebhookDelivery] {
        let listing: WebhookDeliveries = try await send("GET", "/__admin/webhooks")
        return listing.deliveries
    }

    /// Waits until a delivery matching `predicate` (every one, when nil) is in `state`, and returns
    /// it; throws `UnderstudyError.webhookWaitTimedOut` with the deliveries seen once `timeout` passes. Polls
    /// the listing with that deadline: a delivery's state changes as its receiver answers.
    @discardableResult
    public func waitForWebhook(
        _ state: WebhookDelivery.State, timeout: TimeInterval = 10,
        where predicate: @Sendable (WebhookDelivery) -> Bool = { _ in true }
    ) async throws -> WebhookDelivery {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [WebhookDelivery] = []
        while true {
            seen = try await webhookDeliveries()
            if let found = seen.first(where: { $0.state == state && predicate($0) }) { return found }
            guard Date() < deadline else { break }
            try await Task.sleep(nanoseconds: 20_000_000)  // polling with a deadline, not synchronising
        }
        throw UnderstudyError.webhookWaitTimedOut(state: state, seconds: timeout, seen: seen)
    }
}

/// `GET /__admin/webhooks`' answer.
struct WebhookDeliveries: Decodable {
    var deliveries: [WebhookDelivery]
}

/// One webhook delivery of a world, as `GET /__admin/webhooks` lists it.
public struct WebhookDelivery: Codable, Sendable, Equatable {
    /// Where a delivery stands.
    public enum State: String, Codable, Sendable {
        /// Waiting for its due time, or an attempt is under way.
        case pending
        /// An attempt failed and the next waits for its retry delay.
        case retrying
        /// The receiver answered 2xx.
        case delivered
        /// The last attempt got another answer or none, with no retry left.
        case failed
    }

    /// The request as last sent (signature included).
    public struct Request: Codable, Sendable, Equatable {
        /// The method.
        public var method: String
        /// The URL.
        public var url: String
        /// The header fields, in the order sent.
        public var headers: [String: String]
        /// The body, as text.
        public var body: String
    }

    /// How the last attempt ended.
    public struct Attempt: Codable, Sendable, Equatable {
        /// The receiver's status; nil when none came.
        public var status: Int?
        /// The receiver's body, as text.
        public var body: String?
        /// Why no answer came (`connection-refused`, `timeout`, …).
        public var error: String?
        /// The client's own words for the failure.
        public var reason: String?
        /// Milliseconds the attempt took.
        public var ms: Double
    }

    /// The delivery's id (`wh_1`).
    public var id: String
    /// Where it stands.
    public var state: State
    /// Attempts made so far.
    public var attempts: Int
    /// The stub whose response triggered it; nil for one fired on demand.
    public var stub: String?
    /// The event's id, the same on every attempt.
    public var eventId: String
    /// The request as last sent.
    public var request: Request
    /// How the last attempt ended; nil before the first.
    public var lastAttempt: Attempt?
}
