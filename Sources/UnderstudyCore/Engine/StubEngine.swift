#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

/// The stub engine: picks the stub for each request, steps its response sequence, scenario and rate
/// limit, journals the request and returns the response to send.
///
/// **Threading:** one thread drives an engine — in the daemon, the transport's event loop. It holds
/// mutable state without locks, so it is deliberately not `Sendable`; the compiler keeps it on the
/// thread that owns it.
/// Hot stored properties are `@exclusivity(unchecked)`: only the event-loop thread touches them and
/// no access overlaps another, so the runtime's dynamic exclusivity check (~65 instructions per
/// access, several per request) buys nothing.
public final class StubEngine {
    /// The loaded stubs in load order (the order they are tried in).
    public private(set) var stubs: [Stub] {
        didSet {
            boxes = stubs.map {
                StubBox(
                    $0, idempotency: configuration.idempotency, earlyRetries: configuration.earlyRetries,
                    webhookDefaults: configuration.webhookDefaults)
            }
        }
    }
    /// `stubs`, boxed, for the request path (see ``StubBox``).
    @exclusivity(unchecked) private(set) var boxes: [StubBox]
    @exclusivity(unchecked) var runtimes: [StubRuntime]
    @exclusivity(unchecked) var index: StubIndex
    @exclusivity(unchecked) var scenarios: ScenarioBook
    let configuration: EngineConfiguration
    /// ``EngineConfiguration/contract``, read once per request (see ``ContractChecking``).
    let contract: (any ContractChecking)?
    /// The world's clock (``WorldClock``), read for everything time-based the engine does.
    public let clock: WorldClock
    /// Writes the journal: the tickets requests wait in until the transport reports what it
    /// sent, the entries, their lines and the sink (see ``JournalRecorder``).
    let recorder: JournalRecorder
    /// Sends the world's webhooks (``WebhookDispatcher``); idle for stubs without `webhooks`.
    let webhooks: WebhookDispatcher
    /// The context every request is matched in, reloaded per request (see ``MatchContext``).
    private let matchContext = MatchContext()
    /// Names stubs posted to the admin API without an id.
    var adminStubCounter = 0
    /// The WireMock mappings loading left out (``StubSet/skipped``), named on a miss they might
    /// have answered and listed by `GET /__admin/health`.
    public private(set) var skippedMappings: [SkippedMapping]
    /// Draws random delays; seeded from `configuration.seed` when given, so runs repeat.
    var delayGenerator: SeededGenerator
    /// Renders templated responses (``TemplateRenderer``): `{{server.url}}`'s URLs and its own
    /// random generator.
    @exclusivity(unchecked) var templates: TemplateRenderer
    /// The base URL requests arrive on, set by the transport (see ``UnderstudyResponder/serverURL``).
    public var serverURL: String? {
        get { templates.serverURL }
        set {
            templates.serverURL = newValue
            webhooks.listener.plain = newValue
        }
    }
    /// The base URL TLS requests arrive on (`https://…`), set by the transport's HTTPS listener.
    public var secureServerURL: String? {
        get { templates.secureServerURL }
        set {
            templates.secureServerURL = newValue
            webhooks.listener.secure = newValue
        }
    }
    /// The journal in memory (the recorder's).
    var journal: Journal { recorder.journal }
    /// Requests handed to the transport whose journal entry waits for their answer (a delay).
    var awaitingDelivery: Int { recorder.awaitingDelivery }

    /// Creates an engine serving `stubs`.
    public init(stubs: StubSet, configuration: EngineConfiguration = EngineConfiguration()) {
        self.stubs = stubs.stubs
        self.boxes = stubs.stubs.map {
            StubBox(
                $0, idempotency: configuration.idempotency, earlyRetries: configuration.earlyRetries,
                webhookDefaults: configuration.webhookDefaults)
        }
        self.runtimes = Array(repeating: StubRuntime(), count: stubs.count)
        self.index = StubIndex(stubs: stubs.stubs)
        self.scenarios = ScenarioBook(stubs: stubs.stubs)
        self.skippedMappings = stubs.skipped
        self.configuration = configuration
        self.contract = configuration.contract
        let clock = WorldClock(source: configuration.clock, start: configuration.clockStart)
        self.clock = clock
        let recorder = JournalRecorder(
            limit: configuration.journalLimit, sink: configuration.journalSink, sessionID: configuration.sessionID,
            bodyLimit: configuration.journalBodyLimit, clock: clock)
        self.recorder = recorder
        var system = SystemRandomNumberGenerator()
        self.webhooks = WebhookDispatcher(
            clock: clock, link: configuration.outbound, recorder: recorder, seed: configuration.seed ?? system.next())
        self.delayGenerator = SeededGenerator(seed: configuration.seed ?? system.next())
        self.templates = TemplateRenderer(seed: configuration.seed ?? system.next())
    }

    /// Answers one request and journals it before returning, as sending the response in full (or
    /// carrying out its fault) would: for callers without a transport.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let (response, ticket) = handle(request, awaitingDelivery: true)
        ticket?.commit(planned: response)
        return response
    }

    /// Answers one request for a transport: the journal entry waits in the returned ticket until
    /// the transport reports what it did (``JournalTicket/commit(_:)``), so the entry records
    /// what was really sent, or that the client left first.
    public func handle(_ request: HTTPRequest, awaitingDelivery: Bool) -> (
        response: HTTPResponse, journal: JournalTicket?
    ) {
        if let contract { return handle(request, awaitingDelivery: awaitingDelivery, checkedBy: contract) }
        return answer(request, awaitingDelivery: awaitingDelivery)
    }

    /// ``handle(_:awaitingDelivery:)`` without contract checking: match, serve, journal.
    @inline(__always)
    func answer(_ request: HTTPRequest, awaitingDelivery: Bool) -> (response: HTTPResponse, journal: RecorderTicket?) {
        let context = matchContext
        context.load(request)
        defer { context.unload() }
        let now = clock.monotonicNanoseconds
        let winner = index.firstCandidate(method: context.method, path: context.path) { candidate in
            // An exact-path stub with no other condition is matched by being found (see StubBox.decidedByIndex).
            guard isEligible(candidate) else { return false }
            let box = boxes[candidate]
            return box.decidedByIndex || box.matches(context)
        }
        // A browser's icon request, not the client's: answered, not journaled.
        if winner == nil, let icon = browserIcon(for: context) { return (icon, nil) }
        // An `if` rather than `map … ??`: the autoclosure and optional copied the response and record.
        if let winner {
            let (response, record) = serve(winner, context, now: now)
            return journal(response, record, awaitingDelivery: awaitingDelivery, arrival: now)
        }
        let (response, record) = unmatched(context)
        return journal(response, record, awaitingDelivery: awaitingDelivery, arrival: now)
    }

    /// Journals a request the transport refused (oversized body, say) and returns what to send.
    public func reject(_ request: HTTPRequest, status: Int, reason: String) -> HTTPResponse {
        let (response, ticket) = reject(request, status: status, reason: reason, awaitingDelivery: true)
        ticket?.commit(planned: response)
        return response
    }

    /// ``reject(_:status:reason:)`` for a transport, which commits the ticket with what it sent.
    public func reject(
        _ request: HTTPRequest, status: Int, reason: String,
        awaitingDelivery: Bool
    ) -> (response: HTTPResponse, journal: JournalTicket?) {
        let response = HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array((reason + "\n").utf8))
        let record = JournalRecord(
            request: request, matched: false, rateLimited: false, stubID: nil, responseIndex: nil, scenario: nil)
        return journal(
            response, record, awaitingDelivery: awaitingDelivery,
            arrival: clock.monotonicNanoseconds)
    }

    /// Replaces every stub (a reload): sequences, scenarios and rate limits start over; the journal stays.
    public func replaceStubs(_ set: StubSet) {
        replaceStubs(set, keepingScenarios: false)
        skippedMappings = set.skipped
    }

    func replaceStubs(_ set: StubSet, keepingScenarios: Bool) {
        stubs = set.stubs
        runtimes = Array(repeating: StubRuntime(), count: stubs.count)
        index = StubIndex(stubs: stubs)
        if keepingScenarios {
            scenarios.adopt(stubs: stubs)
        } else {
            scenarios = ScenarioBook(stubs: stubs)
        }
    }

    /// Sequences, scenarios, rate limits and the journal back to the start; stubs stay.
    /// `elapsedMs` keeps counting from the engine's creation.
    public func reset() {
        runtimes = Array(repeating: StubRuntime(), count: stubs.count)
        scenarios.reset()
        recorder.reset()
    }

    /// The journal in ascending `seq`.
    public var journalEntries: [JournalEntry] { journal.entries }

    /// Requests received and not journaled yet because their answer is still pending (waiting
    /// out a delay); each is journaled once its fate is known.
    public var pendingRequests: Int { recorder.awaitingDelivery }

    /// How many entries the in-memory cap has evicted since start or reset.
    public var droppedJournalEntries: Int { journal.dropped }

    /// The current state of `scenario` (`"Started"` until a stub moves it).
    public func scenarioState(_ scenario: String) -> String {
        scenarios.state(of: scenario)
    }

    // MARK: - Serving

    /// Scenario state and sequence allow the stub to answer.
    func isEligible(_ candidate: Int) -> Bool {
        if runtimes[candidate].exhausted { return false }
        let box = boxes[candidate]
        if let wanted = box.stub.whenState, let scenario = box.stub.scenario, scenarios.state(of: scenario) != wanted {
            return false
        }
        return true
    }

    private func serve(_ winner: Int, _ context: MatchContext, now: UInt64) -> (HTTPResponse, JournalRecord) {
        // One check for the stubs that answer some requests themselves (token expiry,
        // idempotency): it replaced the `tokenExpiresIn` check, so other stubs pay nothing more.
        let box = boxes[winner]
        if box.guarded { return guardedAnswer(winner, context, now: now) }
        return serveUnguarded(winner, box, context, now: now)
    }

    /// The stub's own answer: rate limit, sequence, scenario, response (``serve``'s after its guards).
    @inline(__always)
    func serveUnguarded(_ winner: Int, _ box: StubBox, _ context: MatchContext, now: UInt64) -> (
        HTTPResponse, JournalRecord
    ) {
        var limitHeaders: RateLimitHeaders?
        if let rule = box.stub.rateLimit {
            let decision = runtimes[winner].rateLimit.admit(rule, now: now)
            if !decision.allowed {
                return rateLimited(box.stub, rule, decision, context)
            }
            limitHeaders = RateLimitHeaders(rule: rule, decision: decision)
        }
        let responses = box.stub.responses
        let responseIndex = runtimes[winner].takeResponse(of: responses, afterLast: box.stub.afterLast)
        var transition: ScenarioTransition?
        if let scenario = box.stub.scenario, let target = box.stub.setState {
            transition = ScenarioTransition(name: scenario, from: scenarios.state(of: scenario), to: target)
            scenarios.set(scenario, to: target)
        }
        if limitHeaders == nil, let answer = box.staticAnswers[responseIndex] {
            // A static response: the box's ready-made answer, as the general path below would build it.
            let record = JournalRecord(
                request: context.request, matched: true, rateLimited: false, stubID: box.stub.id,
                responseIndex: responseIndex,
                scenario: transition, delayMs: answer.delayMs)
            return (answer, record)
        }
        if limitHeaders == nil, let hooked = box.webhooks, let answer = hooked.answers[responseIndex],
            let plans = hooked.plans[responseIndex]
        {
            // A static response with webhooks: as above, and its webhooks scheduled (issue 42: the
            // triggering request pays no more than that). Checked after the static path returned.
            let record = JournalRecord(
                request: context.request, matched: true, rateLimited: false, stubID: box.stub.id,
                responseIndex: responseIndex,
                scenario: transition, delayMs: answer.delayMs)
            sendWebhooks(plans, context.request, answer, arrival: now)
            return (answer, record)
        }
        // Fields are read in place (`responses[responseIndex].x`): copying the whole response out
        // retained, and later released, every one of its fields.
        var headers = responses[responseIndex].headers
        var delayMs = responses[responseIndex].delayMs
        if let distribution = responses[responseIndex].delayDistribution {
            delayMs += distribution.sample(&delayGenerator)
        }
        ServedHeaders.addRetryAfter(
            responses[responseIndex].retryAfter, to: &headers,
            sentAt: clock.now.timeIntervalSince1970 + delayMs / 1000)
        limitHeaders?.add(to: &headers, now: { self.clock.now })
        if responses[responseIndex].template != nil || responses[responseIndex].streaming != nil
            || responses[responseIndex].proxy != nil || responses[responseIndex].webhooks != nil
        {
            // Templates, paced bodies, proxies and webhooks: their own path, so a static response pays one check.
            return dynamicAnswer(
                responses[responseIndex], box.stub.id, responseIndex, context.request, headers: headers,
                delayMs: delayMs,
                transition: transition, webhooks: box.webhooks?.plans[responseIndex], arrival: now)
        }
        let record = JournalRecord(
            request: context.request, matched: true, rateLimited: false, stubID: box.stub.id,
            responseIndex: responseIndex,
            scenario: transition, delayMs: delayMs)
        var answer = HTTPResponse(
            status: responses[responseIndex].status, headers: headers, body: responses[responseIndex].body,
            delayMs: delayMs, fault: responses[responseIndex].fault, stubID: box.stub.id,
            reason: responses[responseIndex].statusMessage,
            faultParameters: responses[responseIndex].faultParameters)
        answer.compression = responses[responseIndex].compression
        return (answer, record)
    }

    private func rateLimited(
        _ stub: Stub, _ rule: RateLimitRule, _ decision: RateLimitState.Decision,
        _ context: MatchContext
    ) -> (HTTPResponse, JournalRecord) {
        let response = ServedHeaders.refusal(stub, rule, decision, now: clock.now)
        let record = JournalRecord(
            request: context.request, matched: true, rateLimited: true, stubID: stub.id, responseIndex: nil,
            scenario: nil)
        return (response, record)
    }

    private func unmatched(_ context: MatchContext) -> (HTTPResponse, JournalRecord) {
        let status = configuration.unmatchedStatus
        var body = nearMissRanking.report(context)
        if !skippedMappings.isEmpty { body += skippedReport(context.request) }
        let record = JournalRecord(
            request: context.request, matched: false, rateLimited: false, stubID: nil, responseIndex: nil,
            scenario: nil)
        return (
            HTTPResponse(
                status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8)), record
        )
    }

    /// The skipped WireMock mappings whose method and URL accept the request, for the miss's
    /// explanation: the mapping that was meant to answer may be one of them.
    private func skippedReport(_ request: HTTPRequest) -> String {
        let target = request.query.map { request.path + "?" + $0 } ?? request.path
        let path = PercentDecoding.decodePath(request.path)
        let candidates = skippedMappings.filter { $0.mightMatch(method: request.method, path: path, target: target) }
        guard !candidates.isEmpty else { return "" }
        var text = "\nSkipped WireMock mappings that might have matched (not loaded; see GET /__admin/health):\n"
        for mapping in candidates.prefix(5) {
            text += "- \(mapping.file) mapping \(mapping.index): \(mapping.reason)\n"
        }
        if candidates.count > 5 { text += "- and \(candidates.count - 5) more\n" }
        return text
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    // MARK: - Journal

    /// Stamps the record with the request's arrival and either writes it now, as `response`
    /// would be delivered, or hands it out in a ticket for the transport to commit.
    func journal(
        _ response: consuming HTTPResponse, _ record: consuming JournalRecord, awaitingDelivery: Bool,
        arrival: UInt64
    ) -> (response: HTTPResponse, journal: RecorderTicket?) {
        record.arrivalElapsed = arrival &- recorder.startNanoseconds
        record.arrivalMilliseconds = Int64((clock.now.timeIntervalSince1970 * 1000).rounded(.down))
        if clock.isVirtual { stampVirtualTime(&response, &record) }
        let ticket = recorder.issueTicket(record)  // the record moves into the ticket
        guard awaitingDelivery else {
            ticket.commit(planned: response)
            return (response, nil)
        }
        return (response, ticket)
    }

    /// A world on a virtual clock: the `Date` header reads the world's time (the transport would
    /// write the real one), and the journal keeps the real arrival time as `wallTime`.
    private func stampVirtualTime(_ response: inout HTTPResponse, _ record: inout JournalRecord) {
        if response.headers.values(for: "Date").isEmpty {
            response.headers.append(
                name: "Date", value: TimeFormatting.imfFixdate(Int64(clock.nowSeconds.rounded(.down))))
        }
        record.wallTime = TimeFormatting.iso8601Milliseconds(clock.source.now.timeIntervalSince1970)
    }
}

@available(*, unavailable)
extension StubEngine: Sendable {}
