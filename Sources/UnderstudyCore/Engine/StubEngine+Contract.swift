import UnderstudyHTTP

/// Serve-time contract checking (`serve --openapi`): every request is checked before it is
/// answered, and every stub's answer after its template renders. In `warn` mode the violations
/// are journaled (`openapiViolations`) and summed up in an `Understudy-OpenAPI-Violation` header;
/// in `fail` mode a request that breaks the contract is refused with a 400, and a stub's answer
/// that breaks it is replaced by a 500, both saying why and journaled as refused.
extension StubEngine {
    /// The response header that reports violations in `warn` mode.
    public static let contractViolationHeader = "Understudy-OpenAPI-Violation"

    /// Never inlined: the unchecked path (``answer(_:awaitingDelivery:)``) stays as it was.
    @inline(never)
    func handle(_ request: HTTPRequest, awaitingDelivery: Bool, checkedBy contract: any ContractChecking) -> (
        response: HTTPResponse, journal: JournalTicket?
    ) {
        let requestViolations = contract.violations(in: request)
        if contract.refusesViolations, !requestViolations.isEmpty {
            // Refused before matching: no sequence, scenario or rate limit moves.
            let reason = Self.refusalReason("the request", requestViolations)
            let response = Self.refusal(status: 400, "the request", requestViolations)
            var record = JournalRecord(
                request: request, matched: false, rateLimited: false, stubID: nil, responseIndex: nil, scenario: nil)
            record.contract = ContractFindings(violations: requestViolations, refusal: reason)
            return journal(response, record, awaitingDelivery: awaitingDelivery, arrival: clock.monotonicNanoseconds)
        }
        let (answered, issued) = answer(request, awaitingDelivery: true)
        guard let ticket = issued else { return (answered, nil) }  // a browser's icon request: not journaled
        var response = answered
        var violations = requestViolations
        var refusal: String?
        // Only a stub's answer is held to the contract (not the unmatched report); a fault sends none,
        // a proxied answer is the upstream's (not yet known here), and a stub marked
        // `openapi: {"skip": …}` answers off the document on purpose.
        if let stubID = response.stubID, response.fault == nil, response.proxy == nil,
            stubs.first(where: { $0.id == stubID })?.openAPISkip == nil
        {
            let answerViolations = contract.violations(in: response, answering: request)
            if contract.refusesViolations, !answerViolations.isEmpty {
                let what = "stub `\(stubID)`'s answer"
                refusal = Self.refusalReason(what, answerViolations)
                response = Self.refusal(status: 500, what, answerViolations)
            }
            violations += answerViolations
        }
        if !violations.isEmpty {
            ticket.attach(ContractFindings(violations: violations, refusal: refusal))
            if refusal == nil {
                response.headers.append(name: Self.contractViolationHeader, value: Self.headerSummary(violations))
            }
        }
        guard awaitingDelivery else {
            ticket.commit(planned: response)
            return (response, nil)
        }
        return (response, ticket)
    }

    /// `delivery` journaled as refused for `reason` (a contract refusal is sent as an answer).
    static func refusalReason(_ what: String, _ violations: [ContractViolation]) -> String {
        "\(what) does not match the OpenAPI document: " + violations.map(\.summary).joined(separator: "; ")
    }

    /// A plain-text answer: the reason, then each violation with its spec pointer on a line.
    static func refusal(status: Int, _ what: String, _ violations: [ContractViolation]) -> HTTPResponse {
        var text = "Understudy (--openapi-mode fail): \(what) does not match the OpenAPI document:\n"
        for violation in violations {
            text += "  \(violation.summary)" + (violation.pointer.isEmpty ? "" : " (spec \(violation.pointer))") + "\n"
        }
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": "text/plain; charset=utf-8", contractViolationHeader: headerSummary(violations)],
            body: Array(text.utf8))
    }

    /// One header value: the count and the first violation, printable ASCII, at most 300 bytes.
    static func headerSummary(_ violations: [ContractViolation]) -> String {
        var text = violations.count == 1 ? "" : "\(violations.count) violations; first: "
        text += violations[0].summary
        if !violations[0].pointer.isEmpty { text += " (spec \(violations[0].pointer))" }
        var safe = String(
            String.UnicodeScalarView(text.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
        if safe.utf8.count > 300 { safe = String(safe.prefix(297)) + "..." }
        return safe
    }
}
