import UnderstudyCore
import UnderstudyJSON
/// WireMock's Handlebars templates translated into native templates, tag by tag, at load time: the
/// engine renders native names only, and does not learn Handlebars. What translates
/// (docs/wiremock.md, "Response templates"):
///
/// - `request.path|url|method|body|port`, `request.path.[N]` and `request.pathSegments.[N]`,
///   `request.query.NAME` (`.[N]`: the first value), `request.headers.NAME` (or `.[NAME]`),
///   `request.baseUrl` (`server.url`);
/// - `now` with `offset` (seconds to years) and `format` (`epoch`, `unix` or a date pattern);
/// - `randomValue` (`type` `UUID`, or `ALPHANUMERIC`, `ALPHABETIC`, `NUMERIC`, `HEXADECIMAL` with
///   `length`), `randomInt` with `lower` and `upper`;
/// - `jsonPath request.body '$.a[0].b'` (members and indexes);
/// - `{{#each (jsonPath request.body '$.items') as |item|}}…{{/each}}` with `item`, `item.NAME`,
///   `this`, `@index`, `@first`, `@last`, and `{{#if|unless @first|@last}}…{{/if|unless}}` inside.
///
/// `{{name}}` escapes the value for HTML as Handlebars does; `{{{name}}}` writes it as it is.
/// Every other helper (`date`, `math`, `range`, `size`, `#if` on a value, …) is refused by name.
enum WireMockHandlebars {
    /// Why a template has no native translation.
    struct Untranslatable: Error {
        var message: String
    }

    /// An open block: how the native text closes it, and the name `as |name|` gave its element.
    private struct Block {
        var helper: String
        var close: String
        var alias: String?
    }

    /// WireMock's helpers that have no native equivalent, refused by name.
    static let unsupportedHelpers: Set<String> = [
        "date", "parseDate", "math", "range", "size", "array", "arrayAdd", "arrayRemove", "assign", "base64",
        "contains", "matches", "regexExtract", "formatJson", "formatXml", "hostname", "lookup",
        "pickRandom",
        "random", "randomDecimal", "systemValue", "trim", "abbreviate", "capitalize", "join", "replace", "split",
        "substring", "toJson", "parseJson", "val", "with", "xPath", "soapXPath", "urlEncode", "eq", "neq", "gt", "lt",
        "and", "or", "not", "stringFormat", "numberFormat", "upper", "lower",
    ]

    /// The native template for `source`, or why there is none.
    /// `parameters` are the mapping's `transformerParameters` (scalars as text), which WireMock's
    /// templates read as `parameters.NAME`; they are written into the native text as literals.
    /// `requestRoot` is the name the request goes by: `request` in a response, `originalRequest`
    /// in a webhook (WireMock's `Webhooks.applyTemplating` renames it so; `request` is then undefined).
    static func translate(
        _ source: String, parameters: [String: String] = [:], requestRoot: String = "request"
    ) -> Result<String, Untranslatable> {
        var out = ""
        var blocks: [Block] = []
        // The variables `{{formData request.body 'NAME' urlDecode=true}}` bound: `NAME.FIELD` reads
        // `request.form.FIELD` from there on, as WireMock's data variable does.
        var forms: Set<String> = []
        var rest = source[...]
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            let triple = rest[open.upperBound...].hasPrefix("{")
            let start = triple ? rest.index(after: open.upperBound) : open.upperBound
            guard let close = rest[start...].firstRange(of: triple ? "}}}" : "}}") else {
                return .failure(Untranslatable(message: "unclosed `{{` in a WireMock template"))
            }
            let tag = trimmed(rest[start..<close.lowerBound])
            rest = rest[close.upperBound...]
            do {
                out += try translateTag(
                    tag, triple: triple, blocks: &blocks, forms: &forms, parameters: parameters,
                    requestRoot: requestRoot)
            } catch {
                return .failure(
                    Untranslatable(
                        message: "WireMock template `{{\(tag)}}` has no Understudy equivalent: \(error.message)"))
            }
        }
        out += rest
        if let open = blocks.last {
            return .failure(Untranslatable(message: "WireMock template: `{{#\(open.helper)}}` is never closed"))
        }
        return .success(out)
    }

    private static func translateTag(
        _ tag: String, triple: Bool, blocks: inout [Block], forms: inout Set<String>, parameters: [String: String],
        requestRoot: String
    ) throws(Untranslatable)
        -> String
    {
        if tag.hasPrefix("!") { return "" }
        if tag.hasPrefix("~") || tag.hasSuffix("~") {
            throw Untranslatable(message: "whitespace control (`~`) is not supported")
        }
        if tag.hasPrefix("#") { return try openBlock(trimmed(tag.dropFirst()), &blocks, requestRoot) }
        if tag.hasPrefix("/") {
            let name = trimmed(tag.dropFirst())
            guard let block = blocks.popLast() else {
                throw Untranslatable(message: "`{{/\(name)}}` closes no block")
            }
            guard block.helper == name else {
                throw Untranslatable(message: "`{{/\(name)}}` closes `{{#\(block.helper)}}`")
            }
            return block.close
        }
        if tag == "else" || tag.hasPrefix("else ") { throw Untranslatable(message: "`else` is not supported") }
        if tag.hasPrefix(">") || tag.hasPrefix("^") || tag.hasPrefix("&") {
            throw Untranslatable(message: "`\(tag.prefix(1))` tags are not supported")
        }
        let tokens = try tokenize(tag)
        guard let first = tokens.first else { throw Untranslatable(message: "an empty tag") }
        if first.hasPrefix("parameters."), tokens.count == 1 {
            let name = String(first.dropFirst("parameters.".count))
            guard let value = parameters[name] else {
                throw Untranslatable(message: "`transformerParameters` has no scalar `\(name)`")
            }
            guard !value.contains("{{") else {
                throw Untranslatable(message: "a parameter holding `{{` is not supported")
            }
            return triple ? value : HTMLEntityEscaping().escapeText(value)
        }
        if first == "formData" {
            forms.insert(try formData(Array(tokens.dropFirst()), requestRoot))
            return ""  // WireMock's helper renders nothing when it binds a variable
        }
        let value = try expression(first, Array(tokens.dropFirst()), blocks, forms, requestRoot)
        switch value {
        case .name(let name): return triple ? "{{{\(name)}}}" : "{{\(name)}}"
        case .section(let name, let text): return "{{#\(name)}}\(text){{/\(name)}}"
        }
    }

    /// What an expression becomes: a native name, or a section whose text a native lambda reads.
    private enum Native {
        case name(String)
        case section(String, text: String)
    }

    private static func expression(
        _ head: String, _ arguments: [String], _ blocks: [Block], _ forms: Set<String>, _ requestRoot: String
    ) throws(Untranslatable) -> Native {
        switch head {
        case "now": return try now(hash(arguments))
        case "randomValue": return .name(try randomValue(hash(arguments)))
        case "randomInt": return .name(try randomInt(hash(arguments)))
        case "jsonPath": return .name(try jsonPath(arguments, requestRoot))
        default:
            if unsupportedHelpers.contains(head) {
                throw Untranslatable(message: "the helper `\(head)` is not supported")
            }
            guard arguments.isEmpty else {
                throw Untranslatable(message: "the helper `\(head)` is not supported")
            }
            return .name(try path(head, blocks, forms, requestRoot))
        }
    }

    /// `formData request.body 'NAME' urlDecode=true`: the variable's name. WireMock's FormParser splits
    /// the body on `&` and `=` and, with `urlDecode=true`, decodes each side as a form does (`+` a
    /// space): what `request.form` reads. Without it WireMock keeps the values percent-encoded, which
    /// has no native equivalent.
    private static func formData(_ arguments: [String], _ requestRoot: String) throws(Untranslatable) -> String {
        guard arguments.count >= 2, arguments[0] == requestRoot + ".body", let name = unquote(arguments[1]),
            !name.isEmpty, name != requestRoot, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else {
            throw Untranslatable(
                message: "`formData` is supported as `formData \(requestRoot).body 'NAME' urlDecode=true`")
        }
        let options = try hash(Array(arguments.dropFirst(2)))
        if let unknown = options.keys.first(where: { $0 != "urlDecode" && $0 != "encoding" }) {
            throw Untranslatable(message: "`formData` takes `urlDecode` and `encoding`; found `\(unknown)`")
        }
        guard options["urlDecode"] == "true" else {
            throw Untranslatable(
                message:
                    "`formData` without `urlDecode=true` keeps the values percent-encoded; Understudy's `request.form` decodes them"
            )
        }
        if let encoding = options["encoding"], encoding.lowercased() != "utf-8" {
            throw Untranslatable(message: "`formData` decodes UTF-8 only; found encoding `\(encoding)`")
        }
        return name
    }

    private static func openBlock(_ text: String, _ blocks: inout [Block], _ requestRoot: String) throws(Untranslatable)
        -> String
    {
        var tokens = try tokenize(text)
        guard !tokens.isEmpty else { throw Untranslatable(message: "an empty block") }
        let helper = tokens.removeFirst()
        switch helper {
        case "each":
            var alias: String?
            if tokens.count == 3, tokens[1] == "as", tokens[2].hasPrefix("|"), tokens[2].hasSuffix("|") {
                alias = String(tokens[2].dropFirst().dropLast())
                tokens.removeLast(2)
            }
            guard tokens.count == 1 else {
                throw Untranslatable(message: "`#each` takes one list, optionally `as |name|`")
            }
            var list = tokens[0]
            if list.hasPrefix("("), list.hasSuffix(")") {
                let inner = try tokenize(String(list.dropFirst().dropLast()))
                guard inner.first == "jsonPath" else {
                    throw Untranslatable(
                        message:
                            "`#each` goes over `(jsonPath \(requestRoot).body '$…')` only; found `\(inner.first ?? "")`"
                    )
                }
                list = try jsonPath(Array(inner.dropFirst()), requestRoot)
            } else {
                throw Untranslatable(message: "`#each` goes over `(jsonPath \(requestRoot).body '$…')` only")
            }
            blocks.append(Block(helper: "each", close: "{{/\(list)}}", alias: alias))
            return "{{#\(list)}}"
        case "if", "unless":
            let flags = ["@first": "first()", "@last": "last()"]
            guard tokens.count == 1, let flag = flags[tokens[0]], blocks.contains(where: { $0.helper == "each" }) else {
                throw Untranslatable(
                    message: "`#\(helper)` is supported only on `@first` or `@last` inside `#each`")
            }
            let mark = helper == "if" ? "#" : "^"
            blocks.append(Block(helper: helper, close: "{{/\(flag)}}", alias: nil))
            return "{{\(mark)\(flag)}}"
        default:
            throw Untranslatable(message: "the block helper `#\(helper)` is not supported")
        }
    }

    /// A Handlebars path (`request.path.[0]`, `item.name`, `@index`) as a native name.
    private static func path(
        _ text: String, _ blocks: [Block], _ forms: Set<String>, _ requestRoot: String
    ) throws(Untranslatable) -> String {
        let inEach = blocks.contains { $0.helper == "each" }
        switch text {
        case "@index" where inEach: return "index()"
        case "@first" where inEach: return "first()"
        case "@last" where inEach: return "last()"
        case "this" where inEach: return "."
        default: break
        }
        var segments = try split(text)
        if let form = segments.first, forms.contains(form) {
            // `form.FIELD` (or `.[0]`, the same first value): the field as written, no brackets or dots,
            // which a native name could not hold.
            guard segments.count == 2 || (segments.count == 3 && segments[2] == "0"),
                !segments[1].isEmpty,
                segments[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
            else { throw Untranslatable(message: "`\(text)`: a form field is read as `\(form).FIELD` only") }
            return "request.form." + segments[1]
        }
        if inEach {
            if segments.first == "this" { segments.removeFirst() }
            if let alias = blocks.last(where: { $0.helper == "each" })?.alias, segments.first == alias {
                segments.removeFirst()
                return segments.isEmpty ? "." : segments.joined(separator: ".")
            }
            if segments.first != requestRoot {
                return segments.isEmpty ? "." : segments.joined(separator: ".")
            }
        }
        guard segments.first == requestRoot, segments.count >= 2 else {
            if requestRoot != "request", segments.first == "request" {
                throw Untranslatable(
                    message:
                        "a webhook reads the triggering request as `originalRequest` (`{{originalRequest.body}}`); `request` is undefined there"
                )
            }
            throw Untranslatable(message: "unknown variable `\(text)`")
        }
        let field = segments[1]
        let more = segments.dropFirst(2)
        switch field {
        case "url", "method", "body", "port":
            guard more.isEmpty else { break }
            return "request." + field
        case "baseUrl":
            guard more.isEmpty else { break }
            return "server.url"
        case "path", "pathSegments":
            if more.isEmpty, field == "path" { return "request.path" }
            guard more.count == 1, let index = Int(more.first!), index >= 0 else { break }
            return "request.pathSegments.\(index)"
        case "query", "headers":
            // `.[0]` picks the first value, which is what the native name gives.
            guard let name = more.first, more.count == 1 || (more.count == 2 && more.last == "0"),
                !name.isEmpty, !name.contains(where: { $0 == "." || $0 == " " || $0 == "{" || $0 == "}" })
            else { break }
            return "request.\(field).\(name)"
        default:
            break
        }
        throw Untranslatable(message: "the variable `\(text)` is not supported")
    }

    /// `now offset='3 days' format='yyyy-MM-dd'`.
    private static func now(_ options: [String: String]) throws(Untranslatable) -> Native {
        if let unknown = options.keys.first(where: { !["offset", "format", "timezone"].contains($0) }) {
            throw Untranslatable(message: "`now` takes `offset` and `format`; found `\(unknown)`")
        }
        if let zone = options["timezone"], !["UTC", "GMT", "Z"].contains(zone) {
            throw Untranslatable(message: "`now` renders in UTC only; found timezone `\(zone)`")
        }
        var base = "now"
        if let offset = options["offset"] {
            let parts = offset.split(separator: " ")
            let units: [String: (String, Int)] = [
                "second": ("s", 1), "seconds": ("s", 1), "minute": ("m", 1), "minutes": ("m", 1),
                "hour": ("h", 1), "hours": ("h", 1), "day": ("d", 1), "days": ("d", 1),
                "month": ("mo", 1), "months": ("mo", 1), "year": ("y", 1), "years": ("y", 1),
            ]
            guard parts.count == 2, let amount = Int(parts[0]), let scale = units[parts[1].lowercased()] else {
                throw Untranslatable(
                    message:
                        "`offset` takes a whole number and seconds, minutes, hours, days, months or years; found `\(offset)`"
                )
            }
            if amount != 0 { base += (amount < 0 ? ".minus." : ".plus.") + "\(abs(amount) * scale.1)\(scale.0)" }
        }
        switch options["format"] {
        case "epoch"?: return .name(base + ".epochMs")
        case "unix"?: return .name(base + ".epoch")
        case let pattern?:
            if let letter = TimeFormatting.unsupportedPatternLetter(pattern) {
                throw Untranslatable(message: "the date pattern letter `\(letter)` in `\(pattern)` is not supported")
            }
            return .section(base + ".format", text: pattern)
        case nil:
            // WireMock writes an ISO 8601 date without milliseconds.
            return .section(base + ".format", text: "yyyy-MM-dd'T'HH:mm:ss'Z'")
        }
    }

    private static func randomValue(_ options: [String: String]) throws(Untranslatable) -> String {
        if options["uppercase"] == "true" { throw Untranslatable(message: "`uppercase=true` is not supported") }
        let type = options["type"] ?? "ALPHANUMERIC"
        if type == "UUID" { return "random.uuid" }
        let names = [
            "ALPHANUMERIC": "alphanumeric", "ALPHABETIC": "alphabetic", "NUMERIC": "numeric", "HEXADECIMAL": "hex",
        ]
        guard let name = names[type] else {
            throw Untranslatable(message: "`randomValue type='\(type)'` is not supported")
        }
        guard let text = options["length"], let length = Int(text), (0...4096).contains(length) else {
            throw Untranslatable(message: "`randomValue type='\(type)'` needs a `length` from 0 to 4096")
        }
        return "random.\(name).\(length)"
    }

    /// `randomInt lower=1 upper=10`: WireMock's upper bound is exclusive.
    private static func randomInt(_ options: [String: String]) throws(Untranslatable) -> String {
        guard let lower = options["lower"].flatMap({ Int($0) }), let upper = options["upper"].flatMap({ Int($0) }),
            lower >= 0, upper > lower
        else {
            throw Untranslatable(message: "`randomInt` needs whole numbers `lower` ≥ 0 and `upper` > `lower`")
        }
        return "random.int.\(lower).\(upper - 1)"
    }

    /// `jsonPath request.body '$.a.b[0]'` as `request.json.a.b.0`.
    private static func jsonPath(_ arguments: [String], _ requestRoot: String) throws(Untranslatable) -> String {
        guard arguments.count == 2, arguments[0] == requestRoot + ".body", let expression = unquote(arguments[1]) else {
            throw Untranslatable(message: "`jsonPath` is supported as `jsonPath \(requestRoot).body '$.a.b'`")
        }
        guard expression.hasPrefix("$") else { throw Untranslatable(message: "a JSON path starts with `$`") }
        var names: [String] = []
        var rest = expression.dropFirst()
        while let first = rest.first {
            if first == "." {
                rest = rest.dropFirst()
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty, name != "*" else { break }
                names.append(String(name))
                rest = rest.dropFirst(name.count)
            } else if first == "[", let close = rest.firstIndex(of: "]") {
                let inner = rest[rest.index(after: rest.startIndex)..<close]
                if let index = Int(inner), index >= 0 {
                    names.append(String(index))
                } else if let quoted = unquote(String(inner)) {
                    names.append(quoted)
                } else {
                    break
                }
                rest = rest[rest.index(after: close)...]
            } else {
                break
            }
        }
        guard rest.isEmpty, !names.contains(where: { $0.isEmpty || $0.contains(where: { " .{}".contains($0) }) })
        else {
            throw Untranslatable(
                message: "only JSON paths of member names and indexes translate (`$.a.b[0]`); found `\(expression)`")
        }
        return (["request", "json"] + names).joined(separator: ".")
    }

    /// `key=value` arguments (quotes removed).
    private static func hash(_ arguments: [String]) throws(Untranslatable) -> [String: String] {
        var options: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw Untranslatable(message: "unexpected argument `\(argument)`")
            }
            let value = String(argument[argument.index(after: equals)...])
            options[String(argument[..<equals])] = unquote(value) ?? value
        }
        return options
    }

    /// Splits a tag on spaces outside quotes, parentheses and `|…|`.
    private static func tokenize(_ text: String) throws(Untranslatable) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quote: Character?
        var depth = 0
        var inPipes = false
        for character in text {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "(": depth += 1
            case ")": depth -= 1
            case "|": inPipes.toggle()
            default: break
            }
            if character.isWhitespace, depth == 0, !inPipes {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        guard quote == nil, depth == 0 else { throw Untranslatable(message: "an unclosed quote or parenthesis") }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// `a.[b c].d` as `a`, `b c`, `d`; `[0]` as `0`.
    private static func split(_ text: String) throws(Untranslatable) -> [String] {
        var segments: [String] = []
        var rest = text[...]
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { throw Untranslatable(message: "`[` without `]`") }
                segments.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                let segment = rest.prefix { $0 != "." }
                segments.append(String(segment))
                rest = rest.dropFirst(segment.count)
            }
            if rest.first == "." { rest = rest.dropFirst() }
        }
        return segments
    }

    private static func unquote(_ text: String) -> String? {
        guard text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first else {
            return nil
        }
        return String(text.dropFirst().dropLast())
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
