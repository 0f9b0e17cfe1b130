import UnderstudyStubFormat
import UnderstudyHTTP

/// `dribble`, `bytesPerSecond` and `events`: how a response's body is paced.
extension StubDecoder {
    static let dribbleKeys = StubFormat.Object.dribble.keys
    static let eventKeys = StubFormat.Object.event.keys
    static let streamingKeys = StubFormat.streamingKeys

    mutating func decodeStreaming(
        _ keys: ObjectMembers, _ response: inout StubResponse, _ path: JSONPath,
        templated: Bool
    ) {
        let given = Self.streamingKeys.compactMap { keys[$0] }.sorted {
            ($0.keyPosition.line, $0.keyPosition.column) < ($1.keyPosition.line, $1.keyPosition.column)
        }
        guard let first = given.first else { return }
        if given.count > 1 {
            fail(
                given[1].keyPosition, path.member(given[1].key),
                "`\(first.key)` and `\(given[1].key)` both pace the body; give one of `dribble`, `bytesPerSecond`, `events`"
            )
            return
        }
        if response.fault != nil {
            fail(
                first.keyPosition, path.member(first.key),
                "a response with a `fault` sends no body to pace; drop `\(first.key)` or `fault`")
            return
        }
        let memberPath = path.member(first.key)
        switch first.key {
        case "dribble":
            guard first.value.members != nil else {
                typeMismatch(first.value, memberPath, expected: "{\"chunks\": N, \"overMs\": T}")
                return
            }
            let fields = members(of: first.value, memberPath, known: Self.dribbleKeys)
            guard let chunksNode = fields["chunks"], let overNode = fields["overMs"] else {
                fail(first.value.position, memberPath, "`dribble` needs both `chunks` and `overMs`")
                return
            }
            guard let chunks = integer(chunksNode.value, memberPath.member("chunks"), minimum: 1, what: "a chunk count")
            else { return }
            guard let over = number(overNode.value, memberPath.member("overMs")) else { return }
            guard over >= 0, over <= Self.maximumDelayMs else {
                fail(
                    overNode.value.position, memberPath.member("overMs"),
                    "`overMs` must be from 0 to \(Int(Self.maximumDelayMs)) (one day)")
                return
            }
            guard chunks <= 100_000 else {
                fail(chunksNode.value.position, memberPath.member("chunks"), "at most 100000 chunks")
                return
            }
            if !templated, response.body.count < chunks {
                fail(
                    chunksNode.value.position, memberPath.member("chunks"),
                    "the body has \(response.body.count) bytes, too few for \(chunks) chunks")
                return
            }
            response.streaming = .dribble(chunks: chunks, overMs: over)
        case "bytesPerSecond":
            guard let rate = integer(first.value, memberPath, minimum: 1, what: "a rate in bytes per second") else {
                return
            }
            response.streaming = .throttle(bytesPerSecond: rate)
        case "events":
            guard let elements = first.value.elements else {
                typeMismatch(first.value, memberPath, expected: "an array of events")
                return
            }
            if let source = Self.bodySourceKeys.first(where: { keys[$0] != nil }) {
                fail(
                    keys[source]!.keyPosition, path.member(source),
                    "`events` is the body of an event stream; drop `\(source)`")
                return
            }
            var events: [ServerSentEvent] = []
            for (index, node) in elements.enumerated() {
                if let event = decodeEvent(node, memberPath.element(index)) { events.append(event) }
            }
            guard events.count == elements.count else { return }
            var total = 0.0
            for event in events { total += event.delayMs }
            guard total <= Self.maximumDelayMs else {
                fail(first.value.position, memberPath, "the events' delays add up to more than one day")
                return
            }
            response.streaming = .events(events)
            if !response.headers.contains("Content-Type") {
                response.headers.append(name: "Content-Type", value: "text/event-stream")
            }
            if !response.headers.contains("Cache-Control") {
                response.headers.append(name: "Cache-Control", value: "no-cache")
            }
        default:
            break
        }
    }

    private mutating func decodeEvent(_ node: JSONNode, _ path: JSONPath) -> ServerSentEvent? {
        guard node.members != nil else {
            typeMismatch(
                node, path, expected: "an event object with `data`, `event`, `id`, `retry`, `comment`, `delayMs`")
            return nil
        }
        let errorsBefore = errors.count
        let fields = members(of: node, path, known: Self.eventKeys)
        var event = ServerSentEvent()
        for name in ["event", "id"] {
            guard let member = fields[name], let text = string(member.value, path.member(name)) else { continue }
            if text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                fail(member.value.position, path.member(name), "`\(name)` may not contain line breaks")
                continue
            }
            if name == "event" { event.event = text } else { event.id = text }
        }
        if let member = fields["data"] { event.data = string(member.value, path.member("data")) }
        if let member = fields["comment"] { event.comment = string(member.value, path.member("comment")) }
        if let member = fields["retry"] {
            event.retry = integer(member.value, path.member("retry"), minimum: 0, what: "a reconnection time in ms")
        }
        if let member = fields["delayMs"], let delay = number(member.value, path.member("delayMs")) {
            if delay >= 0 && delay <= Self.maximumDelayMs {
                event.delayMs = delay
            } else {
                fail(
                    member.value.position, path.member("delayMs"),
                    "`delayMs` must be from 0 to \(Int(Self.maximumDelayMs)) (one day)")
            }
        }
        if fields.isEmpty {
            fail(node.position, path, "an empty event; give at least one of `data`, `event`, `id`, `retry`, `comment`")
        }
        return errors.count == errorsBefore ? event : nil
    }
}
