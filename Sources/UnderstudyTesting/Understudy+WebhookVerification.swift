import Foundation

/// `verifyWebhook`: the one-line check on the webhooks the daemon sent (docs/webhooks.md), as
/// `verify` is on the requests it got. Like the other verify calls it records a failure at the
/// caller's line (never throws), listing the deliveries it saw, and returns what it found.
extension Understudy {
    /// The webhook deliveries of this world that match every condition given must number `count`
    /// (once, by default). A delivery's state changes as its receiver answers, so the listing is
    /// read again until `count` accepts what matches, or `timeout` (seconds) passes: then the check
    /// fails with every delivery seen.
    ///
    /// The conditions: `url`, the target, a whole URL (`http://127.0.0.1:9000/hooks`) or a path
    /// (`/hooks`) compared with the URL's path; `event`, the event's type as
    /// ``WebhookDelivery/eventType`` reads it; `attempts`, how many attempts the delivery made;
    /// `state`, where it stands (`.delivered`, `.failed`, …); `stub`, the stub whose response
    /// triggered it.
    ///
    /// ```swift
    /// await understudy.verifyWebhook(to: "/hooks/stripe", event: "payment_intent.succeeded",
    ///                                attempts: 3, state: .delivered)
    /// ```
    @discardableResult
    public func verifyWebhook(
        _ count: RequestCount = .once, to url: String? = nil, event: String? = nil, attempts: Int? = nil,
        state: WebhookDelivery.State? = nil, stub: String? = nil, timeout: TimeInterval = 5,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> [WebhookDelivery] {
        let query = WebhookQuery(url: url, event: event, attempts: attempts, state: state, stub: stub)
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [WebhookDelivery] = []
        do {
            while true {
                seen = try await admin.webhookDeliveries()
                let found = seen.filter(query.matches)
                if count.accepts(found.count) { return found }
                guard Date() < deadline else { break }
                try await Task.sleep(nanoseconds: 20_000_000)  // polling with a deadline, not synchronising
            }
        } catch {
            Self.recordFailure(
                "could not read the webhook deliveries: \(error)", fileID: fileID, filePath: filePath, line: line,
                column: column)
            return []
        }
        let found = seen.filter(query.matches)
        Self.recordFailure(
            "expected \(count) webhook deliver\(count == .once ? "y" : "ies") \(query.summary), found \(found.count)"
                + " within \(Self.format(timeout * 1000)) ms\n" + WebhookDelivery.table(seen, marking: found),
            fileID: fileID, filePath: filePath, line: line, column: column)
        return found
    }
}

/// What ``Understudy/verifyWebhook(_:to:event:attempts:state:stub:timeout:fileID:filePath:line:column:)``
/// looks for.
struct WebhookQuery {
    var url: String?
    var event: String?
    var attempts: Int?
    var state: WebhookDelivery.State?
    var stub: String?

    func matches(_ delivery: WebhookDelivery) -> Bool {
        if let url {
            let sent = delivery.request.url
            guard sent == url || (url.hasPrefix("/") && WebhookDelivery.path(of: sent) == url) else { return false }
        }
        if let event, delivery.eventType != event { return false }
        if let attempts, delivery.attempts != attempts { return false }
        if let state, delivery.state != state { return false }
        if let stub, delivery.stub != stub { return false }
        return true
    }

    var summary: String {
        var parts: [String] = []
        if let url { parts.append("to \(url)") }
        if let event { parts.append("event \(event)") }
        if let attempts { parts.append("after \(attempts) attempt(s)") }
        if let state { parts.append(state.rawValue) }
        if let stub { parts.append("from stub \(stub)") }
        return parts.isEmpty ? "(any)" : parts.joined(separator: ", ")
    }
}

extension WebhookDelivery {
    /// The event's type, as providers name it: GitHub's `X-GitHub-Event` header; else the JSON
    /// body's `type` (Stripe's `payment_intent.succeeded`, Standard Webhooks' and Svix's
    /// `invoice.paid`); else its `event.type` (Slack's Events API). Nil when there is none.
    public var eventType: String? {
        if let github = request.headers.first(where: { $0.key.lowercased() == "x-github-event" })?.value {
            return github
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any] else {
            return nil
        }
        if let type = object["type"] as? String, type != "event_callback" { return type }
        if let event = object["event"] as? [String: Any], let type = event["type"] as? String { return type }
        return object["type"] as? String
    }

    /// The path of `url` (`/hooks` of `http://127.0.0.1:9000/hooks?x=1`).
    static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let afterHost = url[scheme.upperBound...].drop { $0 != "/" }
        let path = afterHost.prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty ? "/" : String(path)
    }

    /// One line per delivery, `>` before those in `marking`: what a failed check saw.
    static func table(_ deliveries: [WebhookDelivery], marking: [WebhookDelivery]) -> String {
        guard !deliveries.isEmpty else { return "deliveries seen: none" }
        let marked = Set(marking.map(\.id))
        let rows = deliveries.map { delivery -> String in
            var row = (marked.contains(delivery.id) ? "> " : "  ") + delivery.id
            row += "  \(delivery.state.rawValue)  \(delivery.attempts) attempt(s)"
            row += "  \(delivery.request.method) \(delivery.request.url)"
            if let event = delivery.eventType { row += "  event=\(event)" }
            if let stub = delivery.stub { row += "  stub=\(stub)" }
            if let last = delivery.lastAttempt {
                row += "  last: " + (last.status.map(String.init) ?? last.error ?? "no answer")
            }
            return row
        }
        return "deliveries seen:\n" + rows.joined(separator: "\n")
    }
}
