import Crypto
import Foundation

/// A payments client's Stripe webhook endpoint, without the HTTP server around it: what it does
/// with one delivery's body and `Stripe-Signature` header. It is where a client's worst bugs live,
/// so it does the three things a receiver must
/// ([Stripe: verify webhook signatures](https://docs.stripe.com/webhooks#verify-manually)):
///
/// - checks the `v1` signature, an HMAC-SHA256 of `"<t>.<body>"` with the endpoint's secret, over
///   the exact bytes received, compared in constant time;
/// - refuses a timestamp `t` older (or newer) than `tolerance` (Stripe's libraries use five
///   minutes), so a captured delivery cannot be replayed later;
/// - processes each event id once: providers retry, so the same event can arrive twice.
public final class PaymentWebhookReceiver: @unchecked Sendable {
    /// What the receiver did with a delivery.
    public enum Outcome: Equatable, Sendable {
        /// Genuine and new: processed (answered 200).
        case processed(eventID: String)
        /// Genuine, but this event was processed before: acknowledged, not processed again (200).
        case duplicate(eventID: String)
        /// Not accepted (answered 400): why.
        case rejected(Rejection)

        /// The status the endpoint answers: 2xx tells the provider to stop retrying.
        public var status: Int {
            if case .rejected = self { return 400 }
            return 200
        }
    }

    /// Why a delivery was refused.
    public enum Rejection: Equatable, Sendable {
        /// No `Stripe-Signature`, or one without `t` and `v1`.
        case missingSignature
        /// No `v1` signature matches the body and timestamp with this endpoint's secret.
        case badSignature
        /// The timestamp is outside the tolerance.
        case staleTimestamp
        /// The body is not an event (`{"id": …, "type": …}`).
        case malformedEvent
    }

    private let secret: SymmetricKey
    private let tolerance: TimeInterval
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var processedEvents: Set<String> = []
    private var paid: [String] = []

    /// A receiver for an endpoint signed with `secret` (`whsec_…`, used as written), accepting
    /// timestamps within `tolerance` of `now()`.
    public init(secret: String, tolerance: TimeInterval = 300, now: @escaping @Sendable () -> Date = { Date() }) {
        self.secret = SymmetricKey(data: Data(secret.utf8))
        self.tolerance = tolerance
        self.now = now
    }

    /// The payment intents marked paid, once each, in the order their events were processed.
    public var paidPaymentIntents: [String] { lock.withLock { paid } }

    /// Handles one delivery: `body` exactly as received, and its `Stripe-Signature` header.
    public func receive(body: Data, signature: String?) -> Outcome {
        guard let signature, let parsed = Self.parse(signature) else { return .rejected(.missingSignature) }
        let signed = Data("\(parsed.timestamp).".utf8) + body
        let expected = Data(HMAC<SHA256>.authenticationCode(for: signed, using: secret))
        // Constant-time comparison: a receiver that stops at the first differing byte leaks it.
        guard parsed.signatures.contains(where: { Self.constantTimeEqual($0, expected) }) else {
            return .rejected(.badSignature)
        }
        guard abs(now().timeIntervalSince1970 - TimeInterval(parsed.timestamp)) <= tolerance else {
            return .rejected(.staleTimestamp)
        }
        guard let event = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let id = event["id"] as? String, let type = event["type"] as? String
        else { return .rejected(.malformedEvent) }
        return lock.withLock {
            guard processedEvents.insert(id).inserted else { return .duplicate(eventID: id) }
            if type == "payment_intent.succeeded", let data = event["data"] as? [String: Any],
                let object = data["object"] as? [String: Any], let intent = object["id"] as? String
            {
                paid.append(intent)
            }
            return .processed(eventID: id)
        }
    }

    /// `t=<unix>,v1=<hex>[,v1=<hex>…]`: the timestamp and every `v1` signature (Stripe sends more than
    /// one while a secret is being rolled).
    static func parse(_ header: String) -> (timestamp: Int, signatures: [Data])? {
        var timestamp: Int?
        var signatures: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int(pair[1]) }
            if pair[0] == "v1", let bytes = hexBytes(pair[1]) { signatures.append(bytes) }
        }
        guard let timestamp, !signatures.isEmpty else { return nil }
        return (timestamp, signatures)
    }

    private static func hexBytes(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
