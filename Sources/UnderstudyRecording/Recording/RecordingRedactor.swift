import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// Secrets out of recorded exchanges, before anything is matched or written.
///
/// The values found where the options declare secrets (named headers, request and response;
/// named query parameters; JSON paths in request and response bodies) are collected first, over
/// every exchange, and then replaced by ``RecordingOptions/placeholder`` everywhere they occur:
/// a token the token endpoint answered is also scrubbed from the `Authorization` header that
/// later sends it, and from any body that echoes it. Values shorter than four bytes are replaced
/// only where they were declared (and as whole JSON strings), so a one-letter secret cannot
/// blank every `a` in a recording.
struct RecordingRedactor {
    let options: RecordingOptions
    /// Scrubbed wherever they occur, longest first.
    private var secrets: [[UInt8]] = []
    /// Short secrets, scrubbed only as whole JSON strings (`"ab"`).
    private var quotedSecrets: [[UInt8]] = []

    static let minimumFreeLength = 4

    init(options: RecordingOptions, exchanges: [RecordedExchange]) {
        self.options = options
        var found: Set<String> = []
        let paths = options.redactJSON.compactMap { try? JSONPathExpression($0) }
        for exchange in exchanges {
            for field in exchange.headers + exchange.responseHeaders where isSecretHeader(field.name) {
                found.insert(field.value)
                // `Bearer abc`: the credential alone may travel elsewhere (a token endpoint's answer).
                if let space = field.value.lastIndex(of: " ") {
                    found.insert(String(field.value[field.value.index(after: space)...]))
                }
            }
            for pair in Self.rawQueryPairs(exchange.query) where options.redactQuery.contains(pair.name) {
                found.insert(pair.raw)
                found.insert(pair.value)
            }
            guard !paths.isEmpty else { continue }
            for body in [exchange.body, exchange.responseBody] {
                guard let json = JSONValue.parse(body) else { continue }
                for path in paths {
                    for value in path.select(json) {
                        switch value {
                        case .string(let text):
                            found.insert(text)
                            // The same value as the body spells it, escapes and all.
                            found.insert(String(JSONValue.string(text).jsonText.dropFirst().dropLast()))
                        case .number(let text): found.insert(text)
                        default: continue
                        }
                    }
                }
            }
        }
        found.remove("")
        found.remove(RecordingOptions.placeholder)
        let sorted = found.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
        for secret in sorted {
            if secret.utf8.count >= Self.minimumFreeLength {
                secrets.append(Array(secret.utf8))
            } else {
                quotedSecrets.append(Array("\"\(secret)\"".utf8))
            }
        }
    }

    func isSecretHeader(_ name: String) -> Bool {
        options.redactHeaders.contains { HTTPHeaders.namesMatch($0, name) }
    }

    /// `exchange` with every secret replaced by the placeholder.
    func redact(_ exchange: RecordedExchange) -> RecordedExchange {
        guard
            !secrets.isEmpty || !quotedSecrets.isEmpty || !options.redactQuery.isEmpty
                || !options.redactHeaders.isEmpty
        else { return exchange }
        var out = exchange
        out.headers = exchange.headers.map { redact($0) }
        out.responseHeaders = exchange.responseHeaders.map { redact($0) }
        out.path = scrub(exchange.path)
        if let query = exchange.query {
            out.query = Self.rawQueryPairs(query).map { pair in
                options.redactQuery.contains(pair.name)
                    ? "\(pair.rawName)=\(RecordingOptions.placeholder)" : scrub(pair.text)
            }.joined(separator: "&")
        }
        out.body = scrub(exchange.body)
        out.responseBody = scrub(exchange.responseBody)
        return out
    }

    private func redact(_ field: HTTPHeaders.Field) -> HTTPHeaders.Field {
        let value = isSecretHeader(field.name) ? RecordingOptions.placeholder : scrub(field.value)
        return HTTPHeaders.Field(name: field.name, value: value)
    }

    func scrub(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let scrubbed = scrub(bytes)
        return scrubbed == bytes ? text : String(decoding: scrubbed, as: UTF8.self)
    }

    func scrub(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        let placeholder = Array(RecordingOptions.placeholder.utf8)
        for secret in secrets { out = Self.replacing(secret, with: placeholder, in: out) }
        let quoted = Array("\"\(RecordingOptions.placeholder)\"".utf8)
        for secret in quotedSecrets { out = Self.replacing(secret, with: quoted, in: out) }
        return out
    }

    /// Every occurrence of `needle` in `haystack` replaced, left to right, without overlaps.
    static func replacing(_ needle: [UInt8], with replacement: [UInt8], in haystack: [UInt8]) -> [UInt8] {
        guard !needle.isEmpty, haystack.count >= needle.count, let first = needle.first else { return haystack }
        var out: [UInt8] = []
        var index = 0
        var copied = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                if out.isEmpty { out.reserveCapacity(haystack.count) }
                out.append(contentsOf: haystack[copied..<index])
                out.append(contentsOf: replacement)
                index += needle.count
                copied = index
            } else {
                index += 1
            }
        }
        if copied == 0 { return haystack }
        out.append(contentsOf: haystack[copied...])
        return out
    }

    /// A raw query split at `&`: each part as sent, its name (raw and decoded) and decoded value.
    static func rawQueryPairs(_ query: String?) -> [(
        text: String, rawName: String, name: String, raw: String, value: String
    )] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { part in
            let text = String(part)
            let pieces = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(pieces[0])
            let raw = pieces.count > 1 ? String(pieces[1]) : ""
            return (
                text, rawName, PercentDecoding.decodeQueryComponent(Array(rawName.utf8)), raw,
                PercentDecoding.decodeQueryComponent(Array(raw.utf8))
            )
        }
    }
}
