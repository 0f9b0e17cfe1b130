import UnderstudyHTTP

/// Judging retries (docs/journal.md, `retry`): a stub that can ask for a wait remembers, per
/// client, the wait its last answer asked for; the client's next request is journaled as on time
/// or early, by how much, on the world's clock. With `earlyRetries: "refuse"` an early request
/// gets that refusal again, with `Retry-After` the time still to wait, and the stub's sequence,
/// scenario, rate limit and idempotency keys do not move.
extension StubEngine {
    /// Serves a stub that judges its retries: `serve` is how it is answered otherwise.
    func servedJudgingRetries(
        _ winner: Int, _ box: StubBox, _ context: MatchContext, now: UInt64,
        serve: () -> (HTTPResponse, JournalRecord)
    ) -> (HTTPResponse, JournalRecord) {
        let watch: RetryWatch
        if let existing = runtimes[winner].retryWatch {
            watch = existing
        } else {
            watch = RetryWatch()
            runtimes[winner].retryWatch = watch
        }
        let client = RetryWatch.client(of: context.request)
        var verdict: RetryVerdict?
        if let previous = watch.pending(for: client) {
            let waited = now >= previous.answeredAt ? Double(now - previous.answeredAt) / 1e6 : 0
            let asked = Double(previous.askedNanoseconds) / 1e6
            if now < previous.notBefore, box.earlyRetries == .refuse {
                return refusedAgain(previous, box.stub, context, now: now, asked: asked, waited: waited)
            }
            verdict = RetryVerdict(askedMs: asked, waitedMs: waited, kind: now < previous.notBefore ? .early : .onTime)
        }
        var (response, record) = serve()
        if let asked = RetryWatch.askedWait(response, nowSeconds: clock.nowSeconds + response.delayMs / 1000) {
            var refusal = response
            refusal.delayMs = 0
            let answeredAt = now &+ UInt64(max(0, response.delayMs) * 1_000_000)
            watch.record(
                RetryWatch.Pending(answeredAt: answeredAt, askedNanoseconds: asked, refusal: refusal), for: client)
        } else {
            watch.record(nil, for: client)
        }
        if let verdict { record.retry = verdict }
        return (response, record)
    }

    /// The previous refusal again, for a request that came before its wait was over.
    private func refusedAgain(
        _ previous: RetryWatch.Pending, _ stub: Stub, _ context: MatchContext, now: UInt64, asked: Double,
        waited: Double
    ) -> (HTTPResponse, JournalRecord) {
        var response = previous.refusal
        let remaining = Double(previous.notBefore - now) / 1e9
        var headers = HTTPHeaders()
        for field in response.headers where field.name.lowercased() != "retry-after" {
            headers.append(name: field.name, value: field.value)
        }
        headers.append(name: "Retry-After", value: String(max(1, Int((remaining - 1e-9).rounded(.up)))))
        response.headers = headers
        var record = JournalRecord(
            request: context.request, matched: true, rateLimited: response.status == 429, stubID: stub.id,
            responseIndex: nil, scenario: nil)
        record.retry = RetryVerdict(askedMs: asked, waitedMs: waited, kind: .refused)
        return (response, record)
    }
}
