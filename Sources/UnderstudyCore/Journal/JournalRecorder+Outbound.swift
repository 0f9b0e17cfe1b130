import UnderstudyHTTP

/// One webhook attempt as the journal records it: the request exactly as sent (signature
/// included), how it ended, and which delivery and attempt it was.
struct OutboundAttempt {
    /// The delivery (`wh_1`) and its event id, the same on every attempt.
    let deliveryID: String
    let eventID: String
    /// 1 for the first attempt, 2 for the first retry, …
    let attempt: Int
    /// The stub whose response triggered the delivery.
    let stubID: String?
    /// The request exactly as sent.
    let request: UpstreamRequest
    /// The receiver's answer, or what went wrong.
    let outcome: OutboundOutcome
}

/// Webhook attempts in the journal of the world whose request triggered them (docs/journal.md):
/// an entry marked `outbound`, with the request as sent and the receiver's answer as `response`
/// (or `outcome: "failed"` and `outbound.error`). Written out of the serving path: nothing here
/// runs for a request whose stub has no webhooks.
extension JournalRecorder {
    func recordOutbound(_ attempt: OutboundAttempt) {
        let seq = journal.nextSeq
        let sent = attempt.request
        let (path, query) = Self.pathAndQuery(of: sent.url)
        let out = JSONWriter(capacity: 512 + sent.body.count)
        out.append(#"{"seq":"# as StaticString)
        out.int(seq)
        if let sessionID {
            out.append(#","session":"# as StaticString)
            out.appendJSONString(sessionID)
        }
        out.append(#","time":"# as StaticString)
        out.appendJSONString(TimeFormatting.iso8601Milliseconds(clock.nowSeconds))
        out.append(#","elapsedMs":"# as StaticString)
        JournalEntry.elapsed(clock.monotonicNanoseconds &- startNanoseconds, into: out)
        out.append(#","outbound":{"delivery":"# as StaticString)
        out.appendJSONString(attempt.deliveryID)
        out.append(#","attempt":"# as StaticString)
        out.int(attempt.attempt)
        out.append(#","eventId":"# as StaticString)
        out.appendJSONString(attempt.eventID)
        out.append(#","url":"# as StaticString)
        out.appendJSONString(sent.url)
        out.append(#","ms":"# as StaticString)
        out.thousandths(UInt64(max(0, attempt.outcome.milliseconds) * 1000))
        if let error = attempt.outcome.error {
            out.append(#","error":"# as StaticString)
            out.appendJSONString(error)
        }
        if let reason = attempt.outcome.reason {
            out.append(#","reason":"# as StaticString)
            out.appendJSONString(reason)
        }
        out.append(#"},"method":"# as StaticString)
        out.appendJSONString(sent.method)
        out.append(#","path":"# as StaticString)
        out.appendJSONString(path)
        out.append(#","query":"# as StaticString)
        if let query { out.appendJSONString(query) } else { out.append("null" as StaticString) }
        out.append(#","headers":"# as StaticString)
        JournalEntry.encodeHeaders(sent.headers, into: out)
        JournalEntry.encodeBody(sent.body, limit: bodyLimit, into: out)
        out.append(#","matched":false,"stub":"# as StaticString)
        if let stub = attempt.stubID { out.appendJSONString(stub) } else { out.append("null" as StaticString) }
        // The fields every entry has, in the same order, so the kit and the page read it as one.
        let status = attempt.outcome.status
        out.append(#","responseIndex":null,"status":"# as StaticString)
        if let status { out.int(status) } else { out.append("null" as StaticString) }
        out.append(#","fault":null,"scenario":null,"rateLimited":false"# as StaticString)
        if let status {
            out.append(#","outcome":"answered","delayMs":0,"response":{"status":"# as StaticString)
            out.int(status)
            out.append(#","headers":"# as StaticString)
            JournalEntry.encodeHeaders(attempt.outcome.headers, into: out)
            out.append(#","bodySize":"# as StaticString)
            out.int(attempt.outcome.body.count)
            let truncated = JournalEntry.encodeBody(attempt.outcome.body, limit: bodyLimit, into: out)
            out.append(truncated ? #","truncated":true}"# as StaticString : #","truncated":false}"# as StaticString)
        } else {
            out.append(#","outcome":"failed","delayMs":0,"response":null"# as StaticString)
        }
        out.append("}\n" as StaticString)
        let request = HTTPRequest(method: sent.method, path: path, query: query, headers: sent.headers, body: sent.body)
        let entry = JournalEntry(
            seq: seq, request: request,
            matched: false, stubID: attempt.stubID, status: status, outcome: status == nil ? .failed : .answered,
            rateLimited: false, line: out.bytes)
        append(entry)
    }

    /// The path and query of an absolute URL (`http://host:port/p?q` → `/p`, `q`).
    static func pathAndQuery(of url: String) -> (path: String, query: String?) {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return ("/", nil) }
        let target = rest[slash...]
        guard let mark = target.firstIndex(of: "?") else { return (String(target), nil) }
        let path = target[..<mark]
        return (path.isEmpty ? "/" : String(path), String(target[target.index(after: mark)...]))
    }
}
