import UnderstudyHTTP

/// One webhook delivery of a world: the request it sends, where it stands and how its last
/// attempt ended. Listed by ``WebhookDispatcher/deliveries``.
public final class WebhookDelivery {
    /// Where a delivery stands.
    public enum State: String, Sendable {
        /// Waiting for its delay (on the world's clock), or an attempt is under way.
        case pending
        /// An attempt failed and the next waits for its retry delay.
        case retrying
        /// The receiver answered 2xx.
        case delivered
        /// It failed for good: the last attempt got a non-2xx answer, a timeout, a refused or
        /// reset connection, and no retry is left; or the allow-list refuses its target.
        case failed
    }

    /// The delivery's id (`wh_1`, `wh_2`, … per world), sent nowhere yet; the journal and the
    /// admin listing name it.
    public let id: String
    /// The stub whose response triggered it.
    public let stubID: String?
    /// The request as rendered, before signing.
    public let request: UpstreamRequest
    /// How each attempt is signed; nil for an unsigned webhook.
    public let signing: WebhookSignature?
    /// Milliseconds before each retry, in order.
    public let retryDelaysMs: [Double]
    /// The event's id, the same on every attempt (`webhook-id`, `X-GitHub-Delivery`).
    public let eventID: String
    /// The last attempt's request exactly as sent (signature included); nil before the first.
    public internal(set) var sent: UpstreamRequest?
    /// Where it stands.
    public internal(set) var state = State.pending
    /// Attempts made so far.
    public internal(set) var attempts = 0
    /// How the last attempt ended; nil before the first.
    public internal(set) var lastOutcome: OutboundOutcome?

    init(
        id: String, stubID: String?, request: UpstreamRequest, signing: WebhookSignature?, retryDelaysMs: [Double],
        eventID: String
    ) {
        self.retryDelaysMs = retryDelaysMs
        self.id = id
        self.stubID = stubID
        self.request = request
        self.signing = signing
        self.eventID = eventID
    }
}

@available(*, unavailable)
extension WebhookDelivery: Sendable {}

/// Sends one world's webhooks: each at its due time on the world's clock (a real timer through
/// the transport, or held in the clock's schedule while it is frozen, so `POST /__admin/clock`
/// `advance` sends it and lists it), through the transport's ``OutboundSending``. The engine hands
/// it the rendered request; it never waits for the answer: the transport calls back on the loop.
///
/// Not `Sendable`: the event loop drives it, like the engine that owns it.
final class WebhookDispatcher {
    private let clock: WorldClock
    private let link: OutboundLink
    /// The world's journal: every attempt is an entry there, marked `outbound`.
    private let recorder: JournalRecorder
    /// The deliveries, oldest first, at most ``limit``.
    private(set) var deliveries: [WebhookDelivery] = []
    private var issued = 0
    /// Draws event ids (UUIDs).
    private var generator: SeededGenerator
    /// How many deliveries are kept for the listing; older ones are dropped.
    static let limit = 1_000

    init(clock: WorldClock, link: OutboundLink, recorder: JournalRecorder, seed: UInt64) {
        self.recorder = recorder
        self.clock = clock
        self.link = link
        self.generator = SeededGenerator(seed: seed ^ 0x7765_6268_6F6F_6B73)
    }

    /// Schedules `request` (triggered by stub `stubID`) to go out after `delayMs` of the world's
    /// clock; a target the allow-list refuses fails at once. Returns the delivery.
    @discardableResult
    func schedule(
        _ request: UpstreamRequest, signing: WebhookSignature?, defaults: WebhookDefaults? = nil,
        retryDelaysMs: [Double] = [], stubID: String?, delayMs: Double
    ) -> WebhookDelivery {
        issued += 1
        // A signing without a secret takes the world's default one.
        let resolved = signing?.resolved(defaults)
        let delivery = WebhookDelivery(
            id: "wh_\(issued)", stubID: stubID, request: request, signing: resolved ?? signing,
            retryDelaysMs: retryDelaysMs, eventID: generator.uuid())
        deliveries.append(delivery)
        if deliveries.count > Self.limit { deliveries.removeFirst(deliveries.count - Self.limit) }
        if let missing = Self.missingDefault(request, signing: signing, resolved: resolved, defaults) {
            // Nothing to send it to, or nothing to sign it with: journaled as its one attempt.
            delivery.attempts = 1
            delivery.sent = request
            finish(delivery, missing)
            return delivery
        }
        if let problem = WebhookTargets.problem(request.url) {
            // Refused, not sent: journaled as its one attempt, which went nowhere.
            delivery.attempts = 1
            delivery.sent = request
            finish(delivery, OutboundOutcome(status: nil, error: "refused-target", reason: problem))
            return delivery
        }
        attempt(delivery, afterMs: delayMs)
        return delivery
    }

    /// Why a webhook cannot be sent for want of what its world's ``WebhookDefaults`` would give:
    /// no `url` (`no-target`) or no secret (`no-secret`); nil when it can.
    private static func missingDefault(
        _ request: UpstreamRequest, signing: WebhookSignature?, resolved: WebhookSignature?,
        _ defaults: WebhookDefaults?
    ) -> OutboundOutcome? {
        if request.url.isEmpty {
            return OutboundOutcome(
                status: nil, error: "no-target",
                reason:
                    "the webhook has no `url` and its world no default target (`webhookDefaults.url` in POST /__admin/sessions)"
            )
        }
        if let signing, resolved == nil {
            let why =
                defaults?.secret == nil
                ? "its world no default secret (`webhookDefaults.secret` in POST /__admin/sessions)"
                : "the world's default secret is no `standard-webhooks` secret (`whsec_` and base64)"
            return OutboundOutcome(
                status: nil, error: "no-secret",
                reason: "the webhook's `\(signing.format.rawValue)` signing has no `secret`, and " + why)
        }
        return nil
    }

    /// The next attempt, `milliseconds` from now on the world's clock: at once for 0, held in a
    /// frozen clock's schedule, or on a real timer.
    private func attempt(_ delivery: WebhookDelivery, afterMs milliseconds: Double) {
        let nanoseconds = UInt64(max(0, milliseconds) * 1_000_000)
        if nanoseconds == 0 {
            attempt(delivery)
        } else if clock.holdsTimers {
            hold(delivery, dueNanoseconds: clock.monotonicNanoseconds &+ nanoseconds)
        } else if let sender = link.sender {
            sender.after(nanoseconds: nanoseconds) { [weak self, delivery] in self?.attempt(delivery) }
        } else {
            attempt(delivery)  // fails at once: nothing can send it
        }
    }

    /// Holds the delivery in the frozen clock's schedule: an advance past its due time sends it
    /// and lists it; a resumed clock hands it back to a real timer for what remains.
    private func hold(_ delivery: WebhookDelivery, dueNanoseconds: UInt64) {
        clock.schedule.hold(
            dueNanoseconds: dueNanoseconds,
            fire: { [weak self, delivery] in
                guard let self else { return nil }
                self.attempt(delivery)
                return ClockEvent(
                    kind: .webhook, stubID: delivery.stubID,
                    request: delivery.request.method + " " + delivery.request.url + " (" + delivery.id + ")")
            },
            release: { [weak self, delivery] remaining in
                guard let self else { return }
                if remaining > 0, let sender = self.link.sender {
                    sender.after(nanoseconds: remaining) { [weak self, delivery] in self?.attempt(delivery) }
                } else {
                    self.attempt(delivery)
                }
            })
    }

    /// Sends one attempt. The answer comes back later, on the loop: an advance that fired it
    /// never waits for it, so a receiver on the advancing test's own thread cannot deadlock.
    private func attempt(_ delivery: WebhookDelivery) {
        delivery.attempts += 1
        delivery.state = .pending
        guard let sender = link.sender else {
            delivery.sent = delivery.request
            finish(
                delivery,
                OutboundOutcome(
                    status: nil, error: "no-transport", reason: "webhooks are sent only by a daemon serving the stubs"))
            return
        }
        var request = delivery.request
        if let signing = delivery.signing {
            // Signed per attempt, at the world's time: a retry carries a fresh timestamp.
            request = signing.sign(
                request, eventID: delivery.eventID, timestamp: Int64(clock.nowSeconds.rounded(.down)),
                hmac: { sender.hmacSHA256(key: $0, message: $1) })
        }
        delivery.sent = request
        sender.deliver(request) { [weak self, delivery] outcome in
            guard let self else { return }
            if outcome.succeeded {
                self.finish(delivery, outcome)
            } else if delivery.attempts <= delivery.retryDelaysMs.count {
                self.journal(delivery, outcome)
                delivery.state = .retrying
                self.attempt(delivery, afterMs: delivery.retryDelaysMs[delivery.attempts - 1])
            } else {
                self.finish(delivery, outcome)
            }
        }
    }

    /// The delivery's last attempt ended as `outcome`, with no retry to follow: delivered or failed.
    private func finish(_ delivery: WebhookDelivery, _ outcome: OutboundOutcome) {
        journal(delivery, outcome)
        delivery.state = outcome.succeeded ? .delivered : .failed
    }

    /// Journals the attempt just ended, in the world whose request triggered it.
    private func journal(_ delivery: WebhookDelivery, _ outcome: OutboundOutcome) {
        delivery.lastOutcome = outcome
        recorder.recordOutbound(
            OutboundAttempt(
                deliveryID: delivery.id, eventID: delivery.eventID, attempt: delivery.attempts,
                stubID: delivery.stubID, request: delivery.sent ?? delivery.request, outcome: outcome))
    }
}

@available(*, unavailable)
extension WebhookDispatcher: Sendable {}
