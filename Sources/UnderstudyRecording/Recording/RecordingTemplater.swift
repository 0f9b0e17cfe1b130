import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

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
    /// JSON body (`request.json.a.b`), query parameters (`request.query.NAME`), path segments
    /// (`request.pathSegments.N`) and header values (`request.headers.name`), in that order of
    /// preference. Only id-like values count (three characters or more, a digit among them, nothing
    /// a JSON string would escape), so a word that happens to recur is not taken for an echo; a
    /// header value must look more like an id still (``isHeaderIDLike(name:value:)``).
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
        // Headers last: a value the body, query or path also sent keeps that template. The first
        // value of a name only, since that is the one `request.headers.NAME` renders.
        var headerNames: Set<String> = []
        for field in exchange.headers {
            let name = field.name.lowercased()
            guard headerNames.insert(name).inserted, isHeaderIDLike(name: name, value: field.value) else { continue }
            add(field.value, "request.headers.\(name)")
        }
        return found
    }

    /// Request headers whose values are never taken for an echoed id, whatever they hold: they
    /// describe the transfer, the client or the content (`Host: 127.0.0.1:8080`, `User-Agent:
    /// curl/8.5.0`, `Content-Length: 1234`, an `If-None-Match` etag), or are credentials, which a
    /// template would copy from request to response.
    static let headersNeverEchoed: Set<String> = [
        "host", "content-length", "content-type", "content-encoding", "content-language", "content-md5",
        "content-range", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "expect",
        "accept", "accept-charset", "accept-encoding", "accept-language", "accept-datetime", "user-agent", "referer",
        "origin", "date", "range", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since",
        "if-range", "cache-control", "pragma", "authorization", "proxy-authorization", "proxy-connection", "cookie",
        "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip",
        "via", "dnt", "priority",
    ]

    /// Whether a request header's value may be an id a response echoes (`X-Request-Id:
    /// req-7f3a9c2e`, a correlation id, an `Idempotency-Key`, a `traceparent`): stricter than a body
    /// field's rule, since every request carries headers whose values recur in answers. Eight
    /// characters or more, letters and digits both, one token (no space, `/`, `;`, `,` or `=`, so no
    /// media type, product token, parameter list or credential), and not a header of
    /// ``headersNeverEchoed``, a pseudo-header (`:authority`) or a `Sec-`/`Access-Control-` one.
    /// A date (`2024-01-01`), a version (`1.2.3`) or an address (`127.0.0.1`) has no letter and so
    /// is never one; neither is a numeric id, which is left as recorded.
    static func isHeaderIDLike(name: String, value: String) -> Bool {
        guard isSafeName(name), !headersNeverEchoed.contains(name), !name.hasPrefix("sec-"),
            !name.hasPrefix("access-control-"), value.utf8.count >= 8, isIDLike(value)
        else { return false }
        let bytes = value.utf8
        let hasLetter = bytes.contains { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
        let oneToken = bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"/;,=".utf8.contains($0) }
        return hasLetter && oneToken
    }

    /// Whether `exchange`'s response echoes its request header `name` as ``apply(to:headers:body:)``
    /// would template it: the header's value is id-like and stands in the response's kept headers or
    /// its body. A `--match-header` matcher on such a header asks only for its presence, since the
    /// recorded value is one request's id, not what the stub is for.
    static func echoesHeader(_ name: String, of exchange: RecordedExchange, keptHeaders: [HTTPHeaders.Field]) -> Bool {
        let key = name.lowercased()
        guard let value = exchange.headers.first(where: { $0.name.lowercased() == key })?.value,
            isHeaderIDLike(name: key, value: value)
        else { return false }
        // Only when no body field, query parameter or path segment claims the value first.
        guard
            echoCandidates(exchange).contains(where: {
                $0.value == value && $0.template == "{{request.headers.\(key)}}"
            })
        else { return false }
        let body = String(validating: exchange.responseBody, as: UTF8.self)
        // A response holding `{{` is kept untemplated (apply's rule), so it echoes nothing.
        if (body ?? "").contains("{{") || keptHeaders.contains(where: { $0.value.contains("{{") }) { return false }
        if keptHeaders.contains(where: { echoingInHeader(value, as: "", in: $0.value) != $0.value }) { return true }
        guard let body else { return false }
        return echoing(value, as: "", in: body) != body
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
