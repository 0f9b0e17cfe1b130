import UnderstudyHTTP

/// One webhook delivery of a world: the request it sends, where it stands and how its last
/// attempt ended. Listed by ``WebhookDispatcher/deliveries``.
///
/// What the triggering request pays for is kept small (issue 42: at most 10 % over the same stub
/// without a webhook): the webhook's plan is shared (``WebhookPlan``), the request is rendered when
/// it is first needed (its due time, or a listing) from what was kept when the response was sent,
/// and the id and event id are written out when read.
///
/// Not `Sendable`: the event loop drives it. Its stored properties are `@exclusivity(unchecked)`:
/// only the loop thread touches them and no access overlaps another.
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

    /// The request: rendered, or what renders it (a webhook whose templates give the same request
    /// rendered later, ``WebhookSetting/rendersLater``).
    enum Rendering {
        case rendered(UpstreamRequest)
        case kept(KeptWebhook)
    }

    /// Its number in its world: 1, 2, …
    let number: Int
    /// The webhook it sends, as its world has it.
    let plan: WebhookPlan
    @exclusivity(unchecked) private var rendering: Rendering
    /// The generator as it stood when the delivery was made; ``eventID`` is its next two draws.
    private let eventDraws: SeededGenerator
    /// The last attempt's request exactly as sent (signature included); nil before the first.
    @exclusivity(unchecked) public internal(set) var sent: UpstreamRequest?
    /// Where it stands.
    @exclusivity(unchecked) public internal(set) var state = State.pending
    /// Attempts made so far.
    @exclusivity(unchecked) public internal(set) var attempts = 0
    /// How the last attempt ended; nil before the first.
    @exclusivity(unchecked) public internal(set) var lastOutcome: OutboundOutcome?

    init(
        number: Int, plan: WebhookPlan, rendering: consuming Rendering, eventDraws: SeededGenerator
    ) {
        self.number = number
        self.plan = plan
        self.rendering = rendering
        self.eventDraws = eventDraws
    }

    /// The delivery's id (`wh_1`, `wh_2`, … per world), sent nowhere yet; the journal and the
    /// admin listing name it.
    public var id: String { "wh_" + String(number) }

    /// The stub whose response triggered it; nil for one fired on demand.
    public var stubID: String? { plan.stubID }

    /// How each attempt is signed; nil for an unsigned webhook.
    public var signing: WebhookSignature? { plan.signing }

    /// Milliseconds before each retry, in order.
    public var retryDelaysMs: [Double] { plan.retryDelaysMs }

    /// The request as rendered, before signing.
    public var request: UpstreamRequest {
        switch rendering {
        case .rendered(let request):
            return request
        case .kept(let kept):
            let request = kept.render(plan)
            rendering = .rendered(request)
            return request
        }
    }

    /// The event's id, the same on every attempt (`webhook-id`, `X-GitHub-Delivery`): a UUID from
    /// the dispatcher's seeded generator, the draws it would have made when the delivery was made.
    public var eventID: String {
        var draws = eventDraws
        return draws.uuid()
    }
}

@available(*, unavailable)
extension WebhookDelivery: Sendable {}

/// What a webhook's request is rendered from when its templates give the same result later: the
/// triggering request, the response as sent, and the world's `now`, `seq` and listener URL as they
/// were then (``TemplateRenderer/withKeptContext(_:sent:listenerURL:now:seq:_:)``).
struct KeptWebhook {
    let request: HTTPRequest
    let answer: HTTPResponse
    /// The world's listener URLs (set once its port is bound, before it serves).
    let listener: WebhookListener
    let now: Double
    let seq: Int

    func render(_ plan: WebhookPlan) -> UpstreamRequest {
        let sent = SentResponse(status: answer.status, headers: answer.headers, body: answer.body)
        return TemplateRenderer.withKeptContext(
            request, sent: sent, listenerURL: listener.url(for: request), now: now, seq: seq
        ) { plan.setting.render($0, defaultURL: plan.defaultURL) }
    }
}

/// The URLs a world's requests arrive on, as ``TemplateRenderer/listenerURL(for:)`` has them
/// (`{{server.url}}`): shared by reference with the deliveries that render later, so keeping them
/// costs a triggering request one retain. The engine sets them with its own.
final class WebhookListener {
    @exclusivity(unchecked) var plain: String?
    @exclusivity(unchecked) var secure: String?

    /// The URL `request` arrived on: the HTTPS one for a TLS request; nil for an engine no transport serves.
    func url(for request: HTTPRequest) -> String? {
        request.isSecure ? (secure ?? plain) : plain
    }
}

@available(*, unavailable)
extension WebhookListener: Sendable {}

/// Sends one world's webhooks: each at its due time on the world's clock (real time through one
/// timer of the transport's for all of them, or held in the clock's schedule while it is frozen, so
/// `POST /__admin/clock` `advance` sends it and lists it), through the transport's
/// ``OutboundSending``. The engine hands it the request (or what renders it); it never waits for
/// the answer: the transport calls back on the loop.
///
/// Not `Sendable`: the event loop drives it, like the engine that owns it; its state is
/// `@exclusivity(unchecked)` for the same reason as ``WebhookDelivery``'s.
final class WebhookDispatcher {
    private let clock: WorldClock
    private let link: OutboundLink
    /// The world's journal: every attempt is an entry there, marked `outbound`.
    private let recorder: JournalRecorder
    /// The deliveries listed: at most ``limit``, a ring once full whose oldest is at ``oldest``
    /// (dropping one is then a store, not a shift of the whole list).
    @exclusivity(unchecked) private var listed: [WebhookDelivery] = []
    @exclusivity(unchecked) private var oldest = 0
    /// The world's listener URLs, which deliveries rendered later read (the engine sets them).
    let listener = WebhookListener()
    @exclusivity(unchecked) private var issued = 0
    /// Draws event ids (UUIDs): two draws a delivery, made when it is scheduled.
    @exclusivity(unchecked) private var generator: SeededGenerator
    /// The last target the allow-list let through: the same URL again (a stub's literal one, or the
    /// world's default) needs no second look (the list only grows).
    @exclusivity(unchecked) private var allowedURL = ""
    /// Deliveries waiting in real time, by due time, and the due times of the transport's timers
    /// armed for them: one timer serves all of them.
    @exclusivity(unchecked) private var waiting = DueQueue()
    @exclusivity(unchecked) private var armed: [UInt64] = []
    /// How many deliveries are kept for the listing; older ones are dropped.
    static let limit = 1_000

    init(clock: WorldClock, link: OutboundLink, recorder: JournalRecorder, seed: UInt64) {
        self.recorder = recorder
        self.clock = clock
        self.link = link
        self.generator = SeededGenerator(seed: seed ^ 0x7765_6268_6F6F_6B73)
    }

    /// The deliveries, oldest first, at most ``limit``.
    var deliveries: [WebhookDelivery] { Array(listed[oldest...] + listed[..<oldest]) }

    /// Schedules a delivery of `plan`, its request `rendering`, sent to `url`, to go out after
    /// `delayMs` of the world's clock; a target the allow-list refuses, or one its world cannot
    /// supply, fails at once. Returns the delivery.
    @discardableResult
    func schedule(
        _ plan: WebhookPlan, _ rendering: consuming WebhookDelivery.Rendering, url: String?, delayMs: Double,
        arrival: UInt64? = nil
    ) -> WebhookDelivery {
        issued &+= 1
        let delivery = WebhookDelivery(number: issued, plan: plan, rendering: rendering, eventDraws: generator)
        // The event id's two draws, written out only when it is read (``WebhookDelivery/eventID``).
        _ = generator.next()
        _ = generator.next()
        list(delivery)
        if let url, url.isEmpty || plan.secretMissing != nil, let missing = plan.missing(for: url) {
            // Nothing to send it to, or nothing to sign it with: journaled as its one attempt.
            delivery.attempts = 1
            delivery.sent = delivery.request
            finish(delivery, missing)
            return delivery
        }
        if url == nil, plan.isMissing, let missing = plan.missing {
            // Nothing to send it to, or nothing to sign it with: journaled as its one attempt.
            delivery.attempts = 1
            delivery.sent = delivery.request
            finish(delivery, missing)
            return delivery
        }
        if !(url == nil ? isAllowed(plan) : isAllowed(url!)) {
            // Refused, not sent: journaled as its one attempt, which went nowhere.
            delivery.attempts = 1
            delivery.sent = delivery.request
            let target = url ?? plan.url ?? ""
            finish(
                delivery,
                OutboundOutcome(status: nil, error: "refused-target", reason: WebhookTargets.problem(target)))
            return delivery
        }
        attempt(delivery, afterMs: delayMs, arrival: arrival)
        return delivery
    }

    /// Whether the allow-list lets the plan's own target (``WebhookPlan/url``) through; a yes is
    /// remembered by the plan (the list only grows).
    private func isAllowed(_ plan: WebhookPlan) -> Bool {
        if plan.allowed { return true }
        plan.allowed = WebhookTargets.problem(plan.url ?? "") == nil
        return plan.allowed
    }

    /// Whether the allow-list lets a rendered target through; the last yes is remembered.
    private func isAllowed(_ url: String) -> Bool {
        if url == allowedURL { return true }
        guard WebhookTargets.problem(url) == nil else { return false }
        allowedURL = url
        return true
    }

    /// Adds `delivery` to the listing, dropping the oldest past ``limit``.
    private func list(_ delivery: WebhookDelivery) {
        if listed.count < Self.limit {
            listed.append(delivery)
        } else {
            listed[oldest] = delivery
            oldest = oldest + 1 == Self.limit ? 0 : oldest + 1
        }
    }

    /// The next attempt, `milliseconds` from now on the world's clock: at once for 0, held in a
    /// frozen clock's schedule, or waiting in real time.
    /// `arrival`: the world's monotonic reading when the triggering request arrived (the engine
    /// read it already), from which the wait is counted; nil reads the clock.
    private func attempt(_ delivery: WebhookDelivery, afterMs milliseconds: Double, arrival: UInt64? = nil) {
        let nanoseconds = UInt64(max(0, milliseconds) * 1_000_000)
        if nanoseconds == 0 {
            attempt(delivery)
        } else if clock.holdsTimers {
            hold(delivery, dueNanoseconds: clock.monotonicNanoseconds &+ nanoseconds)
        } else {
            // Real time: the source's reading (a running world's is shifted by its advances, which
            // move no real timer).
            wait(delivery, nanoseconds: nanoseconds, from: arrival.map { $0 &- clock.monotonicShiftNanoseconds })
        }
    }

    /// Holds the delivery in the frozen clock's schedule: an advance past its due time sends it
    /// and lists it; a resumed clock hands it back to real time for what remains.
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
                if remaining > 0 {
                    self.wait(delivery, nanoseconds: remaining)
                } else {
                    self.attempt(delivery)
                }
            })
    }

    /// Sends `delivery` once `nanoseconds` of real time have passed. The deliveries waiting share
    /// the transport's timers: one is armed for the earliest due time, and when it fires it sends
    /// everything due by then and arms the next (a timer per delivery cost each triggering request
    /// a libevent event, a closure and a table entry).
    private func wait(_ delivery: WebhookDelivery, nanoseconds: UInt64, from start: UInt64? = nil) {
        let now = start ?? clock.source.monotonicNanoseconds
        let due = now &+ nanoseconds
        if let first = armed.first, first <= due {
            // A timer is armed for no later: it arms the next when it fires. (Armed means the
            // transport was there; it stays for the daemon's life.)
            waiting.insert(delivery, due: due)
            return
        }
        guard let sender = link.sender else {
            attempt(delivery)  // fails at once: nothing can send it
            return
        }
        waiting.insert(delivery, due: due)
        arm(sender, due: due, now: now)
    }

    /// Asks the transport for a timer at `due` (real monotonic nanoseconds).
    private func arm(_ sender: any OutboundSending, due: UInt64, now: UInt64) {
        armed.insert(due, at: armed.firstIndex { $0 > due } ?? armed.endIndex)
        sender.after(nanoseconds: due > now ? due - now : 0) { [weak self] in self?.timerFired(due) }
    }

    /// The timer armed for `due` fired: sends what is due by now, then arms one for the next. A
    /// timer may fire a little early (libevent counts from the time it cached when its loop pass
    /// began, on a coarse clock), so what is not due yet waits for another.
    private func timerFired(_ due: UInt64) {
        if let index = armed.firstIndex(of: due) { armed.remove(at: index) }
        let now = clock.source.monotonicNanoseconds
        var ready: [WebhookDelivery] = []
        while let delivery = waiting.takeFirst(dueBy: now) { ready.append(delivery) }
        // Attempts may wait again (a retry) while this runs: what is armed is decided after them.
        for delivery in ready { attempt(delivery) }
        guard let next = waiting.firstDue, armed.first.map({ next < $0 }) ?? true else { return }
        guard let sender = link.sender else { return }
        arm(sender, due: next, now: clock.source.monotonicNanoseconds)
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

/// Deliveries waiting in real time, earliest due first; equal due times in the order they came.
/// Mostly appended in order (one stub's delay after one request, then the next), so inserting is
/// an append and taking the first moves an index; the taken prefix is cut off now and then.
struct DueQueue {
    private var entries: [(due: UInt64, delivery: WebhookDelivery)] = []
    private var head = 0

    /// The earliest due time waiting; nil when none is.
    var firstDue: UInt64? { head < entries.count ? entries[head].due : nil }

    var count: Int { entries.count - head }

    mutating func insert(_ delivery: WebhookDelivery, due: UInt64) {
        if head == entries.count {
            // Empty: start again at the front.
            entries.removeAll(keepingCapacity: true)
            head = 0
        }
        if let last = entries.last, last.due > due {
            // Out of order (a shorter delay after a longer one): after the last one due by then.
            var low = head, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].due <= due { low = middle + 1 } else { high = middle }
            }
            entries.insert((due, delivery), at: low)
        } else {
            entries.append((due, delivery))
        }
    }

    /// Takes the earliest delivery if it is due by `limit`.
    mutating func takeFirst(dueBy limit: UInt64) -> WebhookDelivery? {
        guard head < entries.count, entries[head].due <= limit else { return nil }
        let delivery = entries[head].delivery
        head += 1
        if head >= 1_024 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return delivery
    }
}
