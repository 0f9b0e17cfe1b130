#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON
import enum UnderstudyStubFormat.StubFormat

/// Recorded exchanges → native stubs: the one recording writer behind `understudy record`,
/// `understudy import-har` and `POST /__admin/recordings/snapshot`. Pure: it reads exchanges and
/// returns the stub document and the body files; ``RecordedStubs/write(to:fileName:)`` puts them
/// on disk.
///
/// The rules (docs/recording.md):
/// - **Secrets** are replaced by ``RecordingOptions/placeholder`` first (``RecordingRedactor``),
///   so nothing after this step, matching included, sees one.
/// - **Matching** is the method, the path, the query (each parameter by value; a redacted one by
///   presence; a parameter that other recordings of the same method and path sent but this one
///   did not, as absent) and the body: JSON as `jsonEquals`, or `jsonPath` matchers on the fields
///   ``RecordingOptions/matchBody`` names; other bodies by their exact text or bytes. Headers only
///   when ``RecordingOptions/matchHeaders`` names them.
/// - **Sequences.** Exchanges whose requests match alike become one stub whose responses are
///   their answers in the order seen; consecutive identical answers collapse into one with `times`.
/// - **Responses** keep their status, their headers minus ``RecordingOptions/volatileHeaders``
///   and ``RecordingOptions/dropHeaders``, and their body bytes exactly: UTF-8 as `body`, other
///   bytes as `base64`, and anything over ``RecordingOptions/bodyFileThreshold`` as a `bodyFile`
///   under `__files/`, named by method, path and a short hash of its content.
public enum StubRecorder {
    /// The stubs for `exchanges`, in the order their first exchange was seen.
    public static func record(_ exchanges: [RecordedExchange], options: RecordingOptions) -> RecordedStubs {
        let redactor = RecordingRedactor(options: options, exchanges: exchanges)
        let templater = RecordingTemplater(options: options)
        var warnings: [String] = []
        // Group by what the stub will match: two requests that the same matcher accepts are one stub.
        var order: [String] = []
        var groups: [String: (request: RequestShape, exchanges: [RecordedExchange])] = [:]
        for exchange in exchanges.map(redactor.redact) {
            let shape = RequestShape(exchange, options: options)
            let key = shape.matcher.jsonText
            if groups[key] == nil {
                order.append(key)
                groups[key] = (shape, [])
            }
            groups[key]!.exchanges.append(exchange)
        }
        // Query parameters each method and path was seen with: a stub demands absent what others sent.
        var routeQueryNames: [String: [String]] = [:]
        for key in order {
            let shape = groups[key]!.request
            for name in shape.queryNames where !(routeQueryNames[shape.route]?.contains(name) ?? false) {
                routeQueryNames[shape.route, default: []].append(name)
            }
        }
        var files = BodyFiles()
        var usedIDs: Set<String> = []
        var stubs: [JSONValue] = []
        for key in order {
            let (shape, recorded) = groups[key]!
            let absent = (routeQueryNames[shape.route] ?? []).filter { !shape.queryNames.contains($0) }
            var responses: [JSONValue] = []
            var lastText = ""
            var lastTimes = 1
            for exchange in recorded {
                let response = Self.response(
                    exchange, options: options, templater: templater, files: &files, warnings: &warnings)
                let text = response.jsonText
                if !responses.isEmpty && text == lastText {
                    lastTimes += 1
                    responses[responses.count - 1] = response.setting("times", to: .number(String(lastTimes)))
                } else {
                    responses.append(response)
                    lastText = text
                    lastTimes = 1
                }
            }
            let id = uniqueID(shape.idStem, &usedIDs)
            let first = recorded[0]
            let target = first.path + (first.query.map { "?" + $0 } ?? "")
            let description =
                "Recorded \(first.method) \(target)"
                + (recorded.count == 1 ? "" : ": \(recorded.count) exchanges, answered in the order seen")
            stubs.append(
                .object([
                    JSONMember(.id, .string(id)),
                    JSONMember(.description, .string(description)),
                    JSONMember(.request, shape.matcher(absentQuery: absent)),
                    JSONMember(.responses, .array(responses)),
                ]))
        }
        return RecordedStubs(
            document: .object([JSONMember(.stubs, .array(stubs))]), bodyFiles: files.files, warnings: warnings,
            exchangeCount: exchanges.count)
    }

    private static func uniqueID(_ stem: String, _ used: inout Set<String>) -> String {
        var id = stem
        var counter = 2
        while used.contains(id) {
            id = "\(stem)-\(counter)"
            counter += 1
        }
        used.insert(id)
        return id
    }

    // MARK: - Responses

    static func response(
        _ exchange: RecordedExchange, options: RecordingOptions, templater: RecordingTemplater,
        files: inout BodyFiles, warnings: inout [String]
    ) -> JSONValue {
        var members = [JSONMember(.status, .number(String(exchange.status)))]
        let kept = exchange.responseHeaders.filter { !$0.name.hasPrefix(":") && options.keepsResponseHeader($0.name) }
        let text = String(validating: exchange.responseBody, as: UTF8.self)
        let (templated, skipped) = templater.apply(to: exchange, headers: kept, body: text)
        if skipped {
            warnings.append(
                "\(exchange.method) \(exchange.path): its response contains `{{`, so it is kept as recorded, untemplated"
            )
        }
        if !templated.headers.isEmpty { members.append(JSONMember(.headers, headerObject(templated.headers))) }
        let body: [UInt8] = templated.body.map { Array($0.utf8) } ?? exchange.responseBody
        if body.count > options.bodyFileThreshold {
            let name = files.add(body, method: exchange.method, path: exchange.path, headers: kept)
            members.append(JSONMember(.bodyFile, .string(name)))
        } else if let bodyText = templated.body {
            if !bodyText.isEmpty { members.append(JSONMember(.body, .string(bodyText))) }
        } else {
            members.append(JSONMember(.base64, .string(Data(body).base64EncodedString())))
        }
        if templated.templated { members.append(JSONMember(.template, .bool(true))) }
        return .object(members)
    }

    /// Fields → the format's header object: a name once, with an array for repeated values.
    static func headerObject(_ fields: [HTTPHeaders.Field]) -> JSONValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if values[key] == nil { names.append(field.name) }
            values[key, default: []].append(field.value)
        }
        return .object(
            names.map { name in
                let all = values[name.lowercased()]!
                return JSONMember(name, all.count == 1 ? .string(all[0]) : .array(all.map(JSONValue.string)))
            })
    }
}

/// The request side of a recorded exchange: the matcher its stub gets.
struct RequestShape {
    /// `METHOD path`, what query parameters are compared across.
    let route: String
    /// The decoded names of the query parameters the request sent, in order, once each.
    let queryNames: [String]
    /// The stub id's stem: `recorded-get-orders-7`.
    let idStem: String
    private let members: [JSONMember]
    private let query: [JSONMember]

    init(_ exchange: RecordedExchange, options: RecordingOptions) {
        let method = exchange.method.uppercased()
        route = "\(method) \(exchange.path)"
        idStem = "recorded-\(method.lowercased())-\(BodyFiles.slug(exchange.path))"
        var members = [JSONMember(.method, .string(method)), JSONMember(.path, .string(exchange.path))]
        var names: [String] = []
        var values: [String: [String]] = [:]
        for pair in exchange.queryPairs {
            if values[pair.name] == nil { names.append(pair.name) }
            values[pair.name, default: []].append(pair.value)
        }
        queryNames = names
        query = names.map { name -> JSONMember in
            let all = values[name]!
            if options.redactQuery.contains(name) { return JSONMember(name, ["present": true]) }
            return JSONMember(name, all.count == 1 ? .string(all[0]) : ["allOf": .array(all.map(JSONValue.string))])
        }
        var headers: [JSONMember] = []
        for name in options.matchHeaders {
            let value = exchange.headers.first { HTTPHeaders.namesMatch($0.name, name) }?.value
            let matcher: JSONValue
            if let value {
                // A redacted secret, or an id the response echoes (`--echo-ids`: the answer follows
                // whatever id comes), is matched on presence: the recorded value was one request's.
                let echoed =
                    options.echoIDs
                    && RecordingTemplater.echoesHeader(
                        name, of: exchange,
                        keptHeaders: exchange.responseHeaders.filter { options.keepsResponseHeader($0.name) })
                matcher = value == RecordingOptions.placeholder || echoed ? ["present": true] : .string(value)
            } else {
                matcher = ["absent": true]
            }
            headers.append(JSONMember(name, matcher))
        }
        if !headers.isEmpty { members.append(JSONMember(.headers, .object(headers))) }
        if let body = Self.bodyMatcher(exchange.body, options: options) { members.append(JSONMember(.body, body)) }
        self.members = members
    }

    /// The request matcher, used as the grouping key too (absent parameters aside).
    var matcher: JSONValue { matcher(absentQuery: []) }

    func matcher(absentQuery: [String]) -> JSONValue {
        let allQuery = query + absentQuery.map { JSONMember($0, ["absent": true]) }
        guard !allQuery.isEmpty else { return .object(members) }
        var out = members
        out.insert(JSONMember(.query, .object(allQuery)), at: 2)
        return .object(out)
    }

    /// A JSON body as `jsonEquals` (with redacted fields only required present), or `jsonPath`
    /// matchers on the `--match-body` fields; text as `equals`; other bytes as `binary`.
    static func bodyMatcher(_ body: [UInt8], options: RecordingOptions) -> JSONValue? {
        guard !body.isEmpty else { return nil }
        guard let json = JSONValue.parse(body) else {
            if let text = String(validating: body, as: UTF8.self) { return ["equals": .string(text)] }
            return ["binary": .string(Data(body).base64EncodedString())]
        }
        let placeholder = JSONValue.string(RecordingOptions.placeholder)
        func isRedacted(_ path: String) -> Bool {
            guard options.redactJSON.contains(path), let expression = try? JSONPathExpression(path) else {
                return false
            }
            let selected = expression.select(json)
            return !selected.isEmpty && selected.allSatisfy { $0 == placeholder }
        }
        if !options.matchBody.isEmpty {
            let parts: [JSONValue] = options.matchBody.map { path -> JSONValue in
                let selected = (try? JSONPathExpression(path))?.select(json) ?? []
                if selected.isEmpty { return ["not": ["jsonPath": .string(path)]] }
                if isRedacted(path) || selected.allSatisfy({ $0 == placeholder }) { return ["jsonPath": .string(path)] }
                let value = selected.count == 1 ? selected[0] : .array(selected)
                let text = value.stringValue ?? value.jsonText
                return ["jsonPath": ["expression": .string(path), "matcher": ["equals": .string(text)]]]
            }
            return parts.count == 1 ? parts[0] : ["allOf": .array(parts)]
        }
        let redacted = options.redactJSON.filter(isRedacted)
        guard !redacted.isEmpty else { return ["jsonEquals": ["value": json]] }
        // Every other field as recorded; each secret only present, whatever its value.
        let others: JSONValue = ["jsonEquals": ["value": Self.removingPlaceholders(json), "ignoreExtraElements": true]]
        let present: [JSONValue] = redacted.map { .object([JSONMember(.jsonPath, .string($0))]) }
        return .object([JSONMember(.allOf, .array([others] + present))])
    }

    static func removingPlaceholders(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.filter { $0.value != .string(RecordingOptions.placeholder) }.map {
                    JSONMember($0.key, removingPlaceholders($0.value))
                })
        case .array(let items):
            return .array(items.map(removingPlaceholders))
        default:
            return value
        }
    }
}

/// The body files of a recording, named `__files/<method>-<path>-<hash>.<ext>`; the same bytes
/// for the same method and path are one file.
struct BodyFiles {
    private(set) var files: [RecordedFile] = []
    private var names: Set<String> = []

    mutating func add(_ bytes: [UInt8], method: String, path: String, headers: [HTTPHeaders.Field]) -> String {
        let type = headers.first { HTTPHeaders.namesMatch($0.name, "content-type") }?.value.lowercased() ?? ""
        let name =
            "__files/\(method.lowercased())-\(Self.slug(path))-\(Self.shortHash(bytes)).\(Self.fileExtension(type))"
        if !names.contains(name) {
            names.insert(name)
            files.append(RecordedFile(path: name, bytes: bytes))
        }
        return name
    }

    /// A path as a file-name fragment: letters and digits, runs of anything else as one `-`,
    /// at most 60 characters; `root` for `/`.
    static func slug(_ path: String) -> String {
        var out = ""
        for scalar in PercentDecoding.decodePath(path).unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty && !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        let short = String(out.lowercased().prefix(60))
        return short.isEmpty ? "root" : short
    }

    /// 32 bits of FNV-1a as 8 hex digits: enough to tell one path's bodies apart.
    static func shortHash(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func fileExtension(_ contentType: String) -> String {
        if contentType.contains("json") { return "json" }
        if contentType.contains("html") { return "html" }
        if contentType.contains("xml") { return "xml" }
        if contentType.hasPrefix("text/") { return "txt" }
        return "bin"
    }
}
