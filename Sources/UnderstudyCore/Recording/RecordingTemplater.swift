/// Turns recorded response values into templates (`--template-dates`, `--echo-ids`, the
/// upstream's base URL), so a replayed answer says what the real API would say now.
///
/// It works on the response's text as recorded (header values, and a UTF-8 body), replacing
/// tokens in place, so every byte it does not template stays as the API sent it. A response that
/// already contains `{{` is left alone: mustache would read it as a tag, and the stub file format
/// has no way to escape one.
struct RecordingTemplater {
    let options: RecordingOptions

    /// What one response became: its header values and body text, and whether anything changed.
    struct Result {
        var headers: [HTTPHeaders.Field]
        var body: String?
        var templated: Bool
    }

    /// `headers` and `body` (nil when not UTF-8) of `exchange`'s response, templated where the
    /// options say. `skipped` is set when the response holds `{{` and so is left as it was.
    func apply(to exchange: RecordedExchange, headers: [HTTPHeaders.Field], body: String?) -> (Result, skipped: Bool) {
        let unchanged = Result(headers: headers, body: body, templated: false)
        guard options.templateDates || options.echoIDs || options.upstream != nil else { return (unchanged, false) }
        if (body ?? "").contains("{{") || headers.contains(where: { $0.value.contains("{{") }) {
            return (unchanged, true)
        }
        var out = unchanged
        if let upstream = options.upstream.map(Self.trimmingSlash), !upstream.isEmpty {
            out.headers = out.headers.map { field in
                guard field.value.hasPrefix(upstream) else { return field }
                let rest = field.value.dropFirst(upstream.count)
                guard rest.isEmpty || "/?#".contains(rest.first!) else { return field }
                return HTTPHeaders.Field(name: field.name, value: "{{server.url}}" + rest)
            }
        }
        if options.templateDates, let time = exchange.time {
            out.headers = out.headers.map {
                HTTPHeaders.Field(
                    name: $0.name,
                    value: Self.templatingDates($0.value, around: time, within: options.dateWindowSeconds))
            }
            out.body = out.body.map { Self.templatingDates($0, around: time, within: options.dateWindowSeconds) }
        }
        if options.echoIDs {
            for (value, template) in Self.echoCandidates(exchange) {
                out.body = out.body.map { Self.echoing(value, as: template, in: $0) }
                out.headers = out.headers.map {
                    HTTPHeaders.Field(name: $0.name, value: Self.echoingInHeader(value, as: template, in: $0.value))
                }
            }
        }
        out.templated = out.body != body || out.headers != headers
        return (out, false)
    }

    static func trimmingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    // MARK: - Dates

    /// ISO 8601 UTC timestamps with milliseconds (`2026-11-26T04:30:00.123Z`, the form `now.iso`
    /// renders), and whole epoch seconds (10 digits) or milliseconds (13 digits), that lie within
    /// `window` seconds of `time`, replaced by `{{now.iso}}`, `{{now.epoch}}`, `{{now.epochMs}}`.
    /// Other date forms are left as they are: no template renders them.
    static func templatingDates(_ text: String, around time: Double, within window: Double) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        var copied = 0
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < bytes.count && bytes[i] >= 48 && bytes[i] <= 57 }
        func replace(_ length: Int, _ template: String) {
            out.append(contentsOf: bytes[copied..<index])
            out.append(contentsOf: Array(template.utf8))
            index += length
            copied = index
        }
        while index < bytes.count {
            guard isDigit(index), !isDigit(index - 1) else {
                index += 1
                continue
            }
            if index + 24 <= bytes.count, bytes[index + 19] == UInt8(ascii: "."),
                bytes[index + 23] == UInt8(ascii: "Z"),
                isDigit(index + 20), isDigit(index + 21), isDigit(index + 22),
                let milliseconds = TimeFormatting.parseISO8601Milliseconds(
                    String(decoding: bytes[index..<(index + 24)], as: UTF8.self)),
                abs(milliseconds / 1000 - time) <= window
            {
                replace(24, "{{now.iso}}")
                continue
            }
            var end = index
            while isDigit(end) { end += 1 }
            let run = end - index
            let followedByFraction = end < bytes.count && bytes[end] == UInt8(ascii: ".") && isDigit(end + 1)
            let precededByPoint = index > 0 && bytes[index - 1] == UInt8(ascii: ".")
            if run == 10 || run == 13, !followedByFraction, !precededByPoint,
                let value = Double(String(decoding: bytes[index..<end], as: UTF8.self))
            {
                let seconds = run == 10 ? value : value / 1000
                if abs(seconds - time) <= window {
                    replace(run, run == 10 ? "{{now.epoch}}" : "{{now.epochMs}}")
                    continue
                }
            }
            index = end
        }
        if copied == 0 { return text }
        out.append(contentsOf: bytes[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Echoed ids

    /// Request values a response may echo, each with the template that renders it: fields of a
    /// JSON body (`request.json.a.b`), query parameters (`request.query.NAME`) and path segments
    /// (`request.pathSegments.N`), in that order of preference. Only id-like values count (three
    /// characters or more, a digit among them, nothing a JSON string would escape), so a word
    /// that happens to recur is not taken for an echo.
    static func echoCandidates(_ exchange: RecordedExchange) -> [(value: String, template: String)] {
        var found: [(value: String, template: String)] = []
        var seen: Set<String> = []
        func add(_ value: String, _ template: String) {
            guard isIDLike(value), !seen.contains(value) else { return }
            seen.insert(value)
            found.append((value, "{{\(template)}}"))
        }
        if let json = JSONValue.parse(exchange.body) {
            walk(json, path: "request.json", depth: 0, add)
        }
        for pair in exchange.queryPairs where isSafeName(pair.name) {
            add(pair.value, "request.query.\(pair.name)")
        }
        let segments = PercentDecoding.decodePath(exchange.path).split(separator: "/", omittingEmptySubsequences: true)
        for (index, segment) in segments.enumerated() {
            add(String(segment), "request.pathSegments.\(index)")
        }
        return found
    }

    private static func walk(_ value: JSONValue, path: String, depth: Int, _ add: (String, String) -> Void) {
        guard depth < 8 else { return }
        switch value {
        case .string(let text): add(text, path)
        case .number(let text): add(text, path)
        case .object(let members):
            for member in members where isSafeName(member.key) {
                walk(member.value, path: "\(path).\(member.key)", depth: depth + 1, add)
            }
        case .array(let items):
            for (index, item) in items.enumerated() { walk(item, path: "\(path).\(index)", depth: depth + 1, add) }
        default:
            return
        }
    }

    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    static func isIDLike(_ value: String) -> Bool {
        value.utf8.count >= 3 && value != RecordingOptions.placeholder
            && value.utf8.contains { $0 >= 48 && $0 <= 57 }
            && value.utf8.allSatisfy {
                $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                    && $0 != UInt8(ascii: "{") && $0 != UInt8(ascii: "}")
            }
    }

    /// `value` replaced by `template` where it is a whole JSON string (`"value"`), or a whole bare
    /// token (a number: not inside a longer word or number).
    static func echoing(_ value: String, as template: String, in body: String) -> String {
        var text = body.replacing("\"\(value)\"", with: "\"\(template)\"")
        text = replacingToken(value, with: template, in: text)
        return text
    }

    /// In a header value, `value` replaced where it stands as a whole token (`/orders/123`).
    static func echoingInHeader(_ value: String, as template: String, in header: String) -> String {
        replacingToken(value, with: template, in: header)
    }

    /// Occurrences of `token` not preceded or followed by a letter, digit, `.`, `_` or `"`.
    private static func replacingToken(_ token: String, with replacement: String, in text: String) -> String {
        let needle = Array(token.utf8)
        let bytes = Array(text.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return text }
        func isWordByte(_ i: Int) -> Bool {
            guard i >= 0 && i < bytes.count else { return false }
            let b = bytes[i]
            return b.isASCIIAlphanumeric || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "\"")
                || b == UInt8(ascii: "-") || b >= 0x80
        }
        var out: [UInt8] = []
        var index = 0
        var copied = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle),
                !isWordByte(index - 1), !isWordByte(index + needle.count)
            {
                out.append(contentsOf: bytes[copied..<index])
                out.append(contentsOf: Array(replacement.utf8))
                index += needle.count
                copied = index
            } else {
                index += 1
            }
        }
        if copied == 0 { return text }
        out.append(contentsOf: bytes[copied...])
        return String(decoding: out, as: UTF8.self)
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (self >= 48 && self <= 57) || (self >= 65 && self <= 90) || (self >= 97 && self <= 122)
    }
}
