/// Response fields of templates and streaming (issue 15). A daemon without them refuses these
/// fields with its usual error (naming the Swift line, through `install`).
extension StubResponse {
    /// `statusMessage`: the status line's reason phrase.
    public func statusMessage(_ text: String) -> StubResponse { setting("statusMessage", .string(text)) }

    /// `template: true`: body, JSON strings, header values and event data are rendered per request
    /// (`{{server.url}}`, `{{request.query.page}}`…).
    public func templated(_ on: Bool = true) -> StubResponse { setting("template", .bool(on)) }

    /// `template: "html"`: as ``templated(_:)``, with `{{x}}` escaped for HTML as Handlebars
    /// (and so WireMock) writes it (`&amp;`, `&quot;`, `&#x27;`…); `{{{x}}}` writes the value as it is.
    public func templatedEscapingHTML() -> StubResponse { setting("template", .string("html")) }

    /// `dribble`: the body in `chunks` pieces spread over `milliseconds`.
    public func dribble(chunks: Int, overMilliseconds milliseconds: Double) -> StubResponse {
        setting("dribble", ["chunks": JSONValue(chunks), "overMs": JSONValue(milliseconds)])
    }

    /// `bytesPerSecond`: the body at no more than this rate.
    public func bytesPerSecond(_ rate: Int) -> StubResponse { setting("bytesPerSecond", JSONValue(rate)) }

    /// 200 with a `text/event-stream` of these events (`events`) instead of a body.
    public static func events(_ events: [ServerSentEvent]) -> StubResponse { StubResponse(json: [:]).events(events) }

    /// `events`: a `text/event-stream` of these events instead of a body.
    public func events(_ events: [ServerSentEvent]) -> StubResponse { setting("events", .array(events.map(\.json))) }

    /// One server-sent event; `nil` fields are left out.
    public struct ServerSentEvent: Sendable {
        /// The `event:` field: the event's type.
        public var event: String?
        /// The `data:` field; each line of it is sent as a `data:` line of its own.
        public var data: String?
        /// The `id:` field, which a reconnecting client sends back as `Last-Event-ID`.
        public var id: String?
        /// The `retry:` field: the reconnection delay the client should use, in milliseconds.
        public var retry: Int?
        /// A `:` comment line, which clients ignore.
        public var comment: String?
        /// Sent this long after the event before it.
        public var delayMs: Double?

        /// An event with these fields; `nil` leaves a field out.
        public init(
            event: String? = nil, data: String? = nil, id: String? = nil, retry: Int? = nil,
            comment: String? = nil, delayMs: Double? = nil
        ) {
            self.event = event
            self.data = data
            self.id = id
            self.retry = retry
            self.comment = comment
            self.delayMs = delayMs
        }

        /// The event as the stub format writes it.
        public var json: JSONValue {
            var members: [JSONMember] = []
            if let event { members.append(JSONMember("event", .string(event))) }
            if let data { members.append(JSONMember("data", .string(data))) }
            if let id { members.append(JSONMember("id", .string(id))) }
            if let retry { members.append(JSONMember("retry", JSONValue(retry))) }
            if let comment { members.append(JSONMember("comment", .string(comment))) }
            if let delayMs { members.append(JSONMember("delayMs", JSONValue(delayMs))) }
            return .object(members)
        }
    }
}
