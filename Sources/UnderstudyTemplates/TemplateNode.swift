import UnderstudyJSON
import UnderstudyMustache

/// One name in a template's vocabulary, resolved lazily: mustache asks a node for its children
/// (`request` → `query` → `page`) and renders the last one. Nothing is computed for names a
/// template does not use.
///
/// The vocabulary (docs/dynamic-responses.md, "Templates"):
/// `request.method|path|url|body|port`, `request.pathSegments.N`, `request.query.NAME`,
/// `request.headers.NAME`, `request.form.NAME…`, `request.json.PATH…`, `server.url`, `seq`,
/// `now`, `now.iso|epoch|epochMs`, `now.plus.DURATION.…`, `now.minus.DURATION.…`,
/// `{{#now.format}}PATTERN{{/now.format}}` (also after `plus`/`minus`),
/// `random.uuid|int|number`, `random.int.MIN.MAX`, `random.alphanumeric|alphabetic|numeric|hex.LENGTH`.
///
/// A node is also a mustache sequence, so `{{#request.json.items}}…{{/request.json.items}}` renders
/// once per element of a JSON array (once for any other present value, never for a missing,
/// `null` or `false` one).
struct TemplateNode: MustacheParent, MustacheCustomRenderable, MustacheSequence {
    enum Kind {
        case root, request, server, random
        case pathSegments, query, headers
        /// `response` (a webhook's templates only) and `response.headers`.
        case response, responseHeaders
        /// `now`, shifted by calendar months (years are twelve), then by seconds.
        case now(offset: Double, months: Int)
        /// `now.plus` / `now.minus`: waiting for a duration.
        case shift(sign: Double)
        /// `random.int`, then `random.int.MIN`.
        case randomInt(minimum: Int?)
        /// `random.alphanumeric` and the like: waiting for a length; the characters to draw from.
        case randomString(name: String, alphabet: [UInt8])
        /// `request.form`, or a bracketed group of its fields (`metadata` of `metadata[order]`).
        case form(prefix: String?)
        /// A field of the JSON request body (nil: no such field).
        case json(JSONValue?)
        /// A field of the JSON body in a probe render: any path is accepted.
        case anything
    }

    package static let rootNames = ["request", "server", "now", "seq", "random"]
    package static let responseNames = ["status", "headers", "body", "json"]
    package static let requestNames = [
        "method", "path", "url", "port", "pathSegments", "query", "headers", "body", "json", "form",
    ]
    package static let nowNames = ["iso", "epoch", "epochMs", "format", "plus", "minus"]
    package static let randomNames = ["uuid", "int", "number"] + randomAlphabets.map(\.name)
    /// `random.NAME.LENGTH`: a string of LENGTH characters drawn from the alphabet.
    static let randomAlphabets: [(name: String, alphabet: [UInt8])] = [
        ("alphanumeric", Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)),
        ("alphabetic", Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)),
        ("numeric", Array("0123456789".utf8)), ("hex", Array("0123456789abcdef".utf8)),
    ]

    let kind: Kind
    let context: TemplateContext

    init(_ kind: Kind, _ context: TemplateContext) {
        self.kind = kind
        self.context = context
    }

    func child(named name: String) -> Any? {
        let found = lookUp(name)
        if found == nil, let problems = context.problems { report(name, problems) }
        return found
    }

    private func lookUp(_ name: String) -> Any? {
        let match = context.match
        switch kind {
        case .root:
            switch name {
            case "request": return TemplateNode(.request, context)
            case "response": return context.sent == nil ? nil : TemplateNode(.response, context)
            case "server": return TemplateNode(.server, context)
            case "now": return TemplateNode(.now(offset: 0, months: 0), context)
            case "random": return TemplateNode(.random, context)
            case "seq": return String(context.seq)
            default: return nil
            }
        case .request:
            switch name {
            case "method": return match.request.method
            case "path": return match.path
            case "url": return match.target
            case "port": return context.listenerPort
            case "body": return match.bodyText
            case "pathSegments": return TemplateNode(.pathSegments, context)
            case "query": return TemplateNode(.query, context)
            case "headers": return TemplateNode(.headers, context)
            case "form": return TemplateNode(.form(prefix: nil), context)
            case "json":
                return context.isProbe ? TemplateNode(.anything, context) : TemplateNode(.json(match.bodyJSON), context)
            default: return nil
            }
        case .server:
            return name == "url" ? context.serverURL : nil
        case .response:
            guard let sent = context.sent else { return nil }
            switch name {
            case "status": return String(sent.status)
            case "body": return String(decoding: sent.body, as: UTF8.self)
            case "headers": return TemplateNode(.responseHeaders, context)
            case "json":
                return context.isProbe ? TemplateNode(.anything, context) : TemplateNode(.json(sent.json), context)
            default: return nil
            }
        case .responseHeaders:
            if context.isProbe { return "" }
            return context.sent?.headers[name] ?? ""
        case .now(let offset, let months):
            let seconds = TimeFormatting.addingMonths(months, to: context.now) + offset
            switch name {
            case "iso": return TimeFormatting.iso8601Milliseconds(seconds)
            case "epoch": return String(Int64((seconds).rounded(.down)))
            case "epochMs": return String(Int64((seconds * 1000).rounded(.down)))
            case "format":
                // A section whose text is the pattern: `{{#now.format}}yyyy-MM-dd{{/now.format}}`.
                let problems = context.problems
                return MustacheLambda { (pattern: String) -> Any? in
                    if let letter = TimeFormatting.unsupportedPatternLetter(pattern) {
                        problems?.invalid(
                            "now.format", segment: "format",
                            "`now.format` does not know the pattern letter `\(letter)` in `\(pattern)`; "
                                + "known: y M d E H h m s S a Z X, and 'quoted' text")
                    }
                    return TimeFormatting.formatted(seconds, pattern: pattern)
                }
            case "plus": return offset == 0 && months == 0 ? TemplateNode(.shift(sign: 1), context) : nil
            case "minus": return offset == 0 && months == 0 ? TemplateNode(.shift(sign: -1), context) : nil
            default: return nil
            }
        case .shift(let sign):
            if let months = Self.months(of: name) {
                return TemplateNode(.now(offset: 0, months: Int(sign) * months), context)
            }
            return Self.seconds(of: name).map { TemplateNode(.now(offset: sign * $0, months: 0), context) }
        case .random:
            switch name {
            case "uuid": return Self.uuid(&context.generator)
            case "number": return String(context.generator.nextUnit())
            case "int": return TemplateNode(.randomInt(minimum: nil), context)
            default:
                guard let found = Self.randomAlphabets.first(where: { $0.name == name }) else { return nil }
                return TemplateNode(.randomString(name: found.name, alphabet: found.alphabet), context)
            }
        case .randomString(_, let alphabet):
            guard let length = Int(name), length >= 0, length <= 4096 else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(length)
            for _ in 0..<length { out.append(alphabet[Int(context.generator.next() % UInt64(alphabet.count))]) }
            return String(decoding: out, as: UTF8.self)
        case .randomInt(let minimum):
            guard let bound = Int(name), bound >= 0 else { return nil }
            guard let minimum else { return TemplateNode(.randomInt(minimum: bound), context) }
            guard bound >= minimum else { return nil }
            return String(Int.random(in: minimum...bound, using: &context.generator))
        case .pathSegments:
            guard let index = Int(name), index >= 0 else { return nil }
            if context.isProbe { return "" }
            let segments = match.path.split(separator: "/", omittingEmptySubsequences: true)
            return index < segments.count ? String(segments[index]) : ""
        case .query:
            if context.isProbe { return "" }
            return match.queryPairs.first { $0.name == name }?.value ?? ""
        case .headers:
            if context.isProbe { return "" }
            return match.request.headers[name] ?? ""
        case .json(let value):
            switch value {
            case .object?: return TemplateNode(.json(value?[name]), context)
            case .array(let elements)?:
                guard let index = Int(name), index >= 0, index < elements.count else {
                    return TemplateNode(.json(nil), context)
                }
                return TemplateNode(.json(elements[index]), context)
            default: return TemplateNode(.json(nil), context)
            }
        case .anything:
            return TemplateNode(.anything, context)
        case .form(let prefix):
            // A probe accepts any field, nested or not: the names are the client's.
            if context.isProbe { return TemplateNode(.anything, context) }
            return formField(prefix.map { "\($0)[\(name)]" } ?? name)
        }
    }

    /// The first value of form field `name` (as written, brackets included), or, when the form
    /// has only fields nested under it (`metadata[order]` for `metadata`), that group; empty when
    /// there is neither. Mustache names cannot hold brackets, so `request.form.metadata.order`
    /// reads `metadata[order]`.
    private func formField(_ name: String) -> Any {
        let pairs = FormBody.pairs(context.match)
        if let pair = pairs.first(where: { $0.name == name }) { return pair.value }
        let nested = name + "["
        if pairs.contains(where: { $0.name.hasPrefix(nested) }) { return TemplateNode(.form(prefix: name), context) }
        return ""
    }

    var renderText: String {
        switch kind {
        case .now(let offset, let months):
            return TimeFormatting.iso8601Milliseconds(TimeFormatting.addingMonths(months, to: context.now) + offset)
        case .randomInt(nil):
            return String(Int.random(in: 0...Int(Int32.max), using: &context.generator))
        case .randomInt(let minimum?):
            context.problems?.invalid(
                "random.int.\(minimum)", segment: String(minimum),
                "`random.int.\(minimum)` needs a maximum too: `random.int.\(minimum).MAX`")
            return ""
        case .shift:
            context.problems?.invalid(
                "now.plus", segment: "plus", "`now.plus` / `now.minus` need a duration, e.g. `now.plus.1h.iso`")
            return ""
        case .json(let value):
            switch value {
            case .string(let text)?: return text
            case .number(let text)?: return text
            case .bool(let flag)?: return flag ? "true" : "false"
            case .null?, nil: return ""
            case let other?: return String(decoding: other.jsonBytes, as: UTF8.self)
            }
        case .anything:
            return ""
        case .randomString(let name, _):
            context.problems?.invalid(
                "random.\(name)", segment: name, "`random.\(name)` needs a length: `random.\(name).LENGTH`")
            return ""
        case .root, .request, .server, .random, .pathSegments, .query, .headers, .response, .responseHeaders, .form:
            let group = Self.groupName(kind)
            context.problems?.invalid(
                group, segment: group.split(separator: ".").last.map(String.init) ?? group,
                "`\(group)` is a group of values, not a value; name one of its fields")
            return ""
        }
    }

    var isNull: Bool {
        switch kind {
        case .json(let value):
            if case .null? = value { return true }
            if case .bool(false)? = value { return true }
            return value == nil
        default:
            return false
        }
    }

    private func report(_ name: String, _ problems: TemplateProblems) {
        switch kind {
        case .root:
            problems.unknown("", name, known: context.sent == nil ? Self.rootNames : Self.rootNames + ["response"])
        case .response: problems.unknown("response", name, known: Self.responseNames)
        case .request: problems.unknown("request", name, known: Self.requestNames)
        case .server: problems.unknown("server", name, known: ["url"])
        case .now(let offset, let months):
            let unshifted = offset == 0 && months == 0
            problems.unknown(
                unshifted ? "now" : "now.plus.…", name,
                known: unshifted ? Self.nowNames : ["iso", "epoch", "epochMs"])
        case .shift:
            problems.invalid(
                "now.plus.\(name)", segment: name,
                "`\(name)` is not a duration; write a whole number and a unit: `500ms`, `30s`, `5m`, `2h`, `1d`, `3mo`, `1y`"
            )
        case .random: problems.unknown("random", name, known: Self.randomNames)
        case .randomString(let alphabet, _):
            problems.invalid(
                "random.\(alphabet).\(name)", segment: name,
                "`random.\(alphabet).LENGTH` takes a whole number of characters from 0 to 4096; found `\(name)`")
        case .randomInt:
            problems.invalid(
                "random.int.\(name)", segment: name,
                "`random.int.MIN.MAX` takes whole numbers from 0, MIN ≤ MAX; found `\(name)`")
        case .pathSegments:
            problems.invalid(
                "request.pathSegments.\(name)", segment: name,
                "`request.pathSegments.N` takes a 0-based index; found `\(name)`")
        case .query, .headers, .json, .anything, .responseHeaders, .form: break
        }
    }

    private static func groupName(_ kind: Kind) -> String {
        switch kind {
        case .root: return "."
        case .request: return "request"
        case .server: return "server"
        case .random: return "random"
        case .pathSegments: return "request.pathSegments"
        case .query: return "request.query"
        case .headers: return "request.headers"
        case .form(let prefix): return prefix.map { "request.form.\($0)" } ?? "request.form"
        case .response: return "response"
        case .responseHeaders: return "response.headers"
        default: return "?"
        }
    }

    /// A section over the node: each element of a JSON array, the node itself once for any other
    /// present value, nothing for a missing, `null` or `false` JSON value.
    func makeIterator() -> IndexingIterator<[TemplateNode]> {
        switch kind {
        case .json(.array(let elements)?): return elements.map { TemplateNode(.json($0), context) }.makeIterator()
        case .json: return (isNull ? [] : [self]).makeIterator()
        default: return [self].makeIterator()
        }
    }

    /// `500ms`, `30s`, `5m`, `2h`, `1d` in seconds.
    /// A calendar duration in months: `3mo`, or `2y` (24 months); nil for any other text.
    static func months(of duration: String) -> Int? {
        let digits = duration.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 6, let amount = Int(digits) else { return nil }
        switch duration.dropFirst(digits.count) {
        case "mo": return amount
        case "y": return amount * 12
        default: return nil
        }
    }

    static func seconds(of duration: String) -> Double? {
        let digits = duration.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 9, let amount = Double(digits) else { return nil }
        switch duration.dropFirst(digits.count) {
        case "ms": return amount / 1000
        case "s": return amount
        case "m": return amount * 60
        case "h": return amount * 3600
        case "d": return amount * 86_400
        default: return nil
        }
    }

    /// A version 4 UUID from the seeded generator, lower-case.
    static func uuid(_ generator: inout SeededGenerator) -> String {
        let high = (generator.next() & ~0xF000) | 0x4000
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, word) in [high, low].enumerated() {
            for nibble in 0..<16 {
                let position = index * 16 + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 { out.append(UInt8(ascii: "-")) }
                out.append(digits[Int((word >> UInt64(60 - nibble * 4)) & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension SeededGenerator {
    /// A version-4 UUID drawn from this generator, as `{{random.uuid}}` draws one: the
    /// engine's webhook event ids come from the same seeded stream as the templates' values.
    package mutating func uuid() -> String { TemplateNode.uuid(&self) }
}
