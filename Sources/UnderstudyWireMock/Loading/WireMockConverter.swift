#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON
import enum UnderstudyStubFormat.StubFormat

/// Converts loaded stubs (WireMock mappings among them) into one native stub document, for
/// `understudy convert-wiremock`: what maps one to one is written; what does not is named in
/// ``Result/notes``.
public enum WireMockConverter {
    /// A converted document and what could not be carried over.
    public struct Result {
        /// `{"stubs": [...]}`, stubs in the order they are tried (so native load order, first
        /// match wins, reproduces WireMock's priority and newest-first rule).
        public var document: JSONValue
        /// One line per feature that was not converted, naming the stub and the feature.
        public var notes: [String]
        /// The files a templated `bodyFile` can pick, by their path below the output directory.
        public var files: [String: [UInt8]] = [:]
    }

    /// Loads `root` (a WireMock root, or any stub paths) and converts every stub.
    public static func convert(paths: [String], options: StubLoadOptions = StubLoadOptions()) throws(StubLoadFailure)
        -> Result
    {
        let set = try StubLoader.load(paths: paths, options: options)
        var result = convert(set.stubs)
        result.notes += set.skipped.map { "\($0.file) mapping \($0.index): skipped, not converted: \($0.reason)" }
        return result
    }

    /// The file `convert-wiremock` writes into its output directory.
    public static let outputFileName = "converted-from-wiremock.json"

    /// Writes `result` as indented JSON to ``outputFileName`` in `directory` (created if
    /// missing); returns the file's path.
    @discardableResult
    public static func write(_ result: Result, toDirectory directory: String) throws -> String {
        let target = (directory.hasSuffix("/") ? directory : directory + "/") + outputFileName
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data((result.document.prettyJSON() + "\n").utf8).write(to: URL(fileURLWithPath: target))
        for (relative, bytes) in result.files {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return target
    }

    /// How many stubs a converted document holds.
    public static func stubCount(_ result: Result) -> Int {
        if case .array(let items)? = result.document["stubs"] { return items.count }
        return 0
    }

    /// Converts stubs already loaded.
    public static func convert(_ stubs: [Stub]) -> Result {
        var notes: [String] = []
        var files: [String: [UInt8]] = [:]
        let ranks = Stub.ranks(of: stubs)
        let ordered = stubs.indices.sorted { ranks[$0] < ranks[$1] }.map { stubs[$0] }
        let encoded = ordered.map { stub -> JSONValue in
            var members: [JSONMember] = [JSONMember(.id, .string(stub.id))]
            if let description = stub.description { members.append(JSONMember(.description, .string(description))) }
            if let priority = stub.priority { members.append(JSONMember(.priority, .int(priority))) }
            members.append(JSONMember(.request, encode(stub.request)))
            members.append(
                JSONMember(
                    "responses",
                    .array(
                        stub.responses.map {
                            encode(
                                $0, stub: stub.id, wireMock: WireMockMapping.of(stub) != nil, notes: &notes,
                                files: &files)
                        })))
            if stub.afterLast != .repeat { members.append(JSONMember(.afterLast, .string(stub.afterLast.rawValue))) }
            if let scenario = stub.scenario { members.append(JSONMember(.scenario, .string(scenario))) }
            if let state = stub.whenState { members.append(JSONMember(.whenState, .string(state))) }
            if let state = stub.setState { members.append(JSONMember(.setState, .string(state))) }
            if WireMockMapping.of(stub)?.metadata != nil {
                notes.append("\(stub.id): `metadata` is not converted (native stubs have no metadata)")
            }
            if stub.responses.contains(where: { $0.webhooks != nil }) {
                // WireMock's webhook templates escape for HTML and may template the method, which native
                // webhooks do not: written over by hand (docs/webhooks.md), not guessed at.
                notes.append(
                    "\(stub.id): its webhooks are not converted; write them as the response's native `webhooks` (docs/webhooks.md)"
                )
            }
            return .object(members)
        }
        return Result(document: .object([JSONMember(.stubs, .array(encoded))]), notes: notes, files: files)
    }

    static func encode(_ pattern: RequestPattern) -> JSONValue {
        var members: [JSONMember] = []
        if let method = pattern.method { members.append(JSONMember(.method, .string(method))) }
        switch pattern.path {
        case .exact(let path)?: members.append(JSONMember(.path, .string(path)))
        case .pattern(let regex)?: members.append(JSONMember(.pathPattern, .string(regex.pattern)))
        case .exactTarget(let target)?: members.append(JSONMember(.url, .string(target)))
        case .targetPattern(let regex)?: members.append(JSONMember(.urlPattern, .string(regex.pattern)))
        case nil: break
        }
        for (key, matchers) in [("query", pattern.query), ("headers", pattern.headers), ("cookies", pattern.cookies)]
        where !matchers.isEmpty {
            // One key per name; several conditions on one name (basic auth beside an
            // Authorization matcher) become `allOf`. Header names compare without case.
            var groups: [(name: String, matchers: [ValueMatcher])] = []
            for condition in matchers {
                let same: (String) -> Bool =
                    key == "headers" ? { HTTPHeaders.namesMatch($0, condition.name) } : { $0 == condition.name }
                if let at = groups.firstIndex(where: { same($0.name) }) {
                    groups[at].matchers.append(condition.matcher)
                } else {
                    groups.append((condition.name, [condition.matcher]))
                }
            }
            members.append(
                JSONMember(
                    key,
                    .object(
                        groups.map { group in
                            JSONMember(
                                group.name,
                                group.matchers.count == 1
                                    ? group.matchers[0].jsonValue : ValueMatcher.allOf(group.matchers).jsonValue)
                        })))
        }
        if let body = pattern.body { members.append(JSONMember(.body, body.jsonValue)) }
        return .object(members)
    }

    /// Header fields as the native format writes them: one member per name, in first-seen order,
    /// a string for one value and an array for more.
    static func headersObject(_ headers: HTTPHeaders) -> JSONValue {
        var groups: [(name: String, values: [String])] = []
        for field in headers.fields {
            if let at = groups.firstIndex(where: { $0.name == field.name }) {
                groups[at].values.append(field.value)
            } else {
                groups.append((field.name, [field.value]))
            }
        }
        return .object(
            groups.map {
                JSONMember(
                    $0.name, $0.values.count == 1 ? .string($0.values[0]) : .array($0.values.map(JSONValue.string)))
            })
    }

    /// The directory below the output directory that a templated `bodyFile`'s files are written to
    /// (a `__files` directory holds bodies, never stubs).
    static let filesDirectory = StubFileKind.bodyDirectoryName + "/"

    static func encode(
        _ response: StubResponse, stub: String, wireMock: Bool, notes: inout [String], files: inout [String: [UInt8]]
    ) -> JSONValue {
        var members: [JSONMember] = []
        if let proxy = response.proxy {
            // `proxyBaseUrl`: the native `proxy` (its header changes included), with only the delay beside it.
            var fields = [JSONMember(.to, .string(proxy.to))]
            if let prefix = proxy.stripPrefix { fields.append(JSONMember(.stripPrefix, .string(prefix))) }
            if proxy.timeoutMs != ProxySetting.defaultTimeoutMs {
                fields.append(JSONMember(.timeoutMs, JSONValue(proxy.timeoutMs)))
            }
            if !proxy.setHeaders.fields.isEmpty {
                fields.append(JSONMember(.setHeaders, headersObject(proxy.setHeaders)))
            }
            if !proxy.removeHeaders.isEmpty {
                fields.append(JSONMember(.removeHeaders, .array(proxy.removeHeaders.map(JSONValue.string))))
            }
            if !proxy.addResponseHeaders.fields.isEmpty {
                fields.append(JSONMember(.addResponseHeaders, headersObject(proxy.addResponseHeaders)))
            }
            members.append(JSONMember(.proxy, .object(fields)))
        } else {
            members.append(JSONMember(.status, .int(response.status)))
        }
        var bodyFile: String?
        if let template = response.template {
            if case .file(let choice)? = template.body, choice.files.isEmpty,
                choice.literalName != nil || !TemplateText.hasTags(choice.nameSource)
            {
                // A missing body file: a native `bodyFile` must exist, unless its name is a
                // template; the comment tag makes it one, naming the file that is not there, so the
                // stub answers WireMock's 500 (its page by `Accept`) per request as the mapping did.
                // A name whose tags WireMock leaves unrendered (templating off) is written with single
                // braces: native templates have no escape for `{{`, so the page names it so.
                let name = choice.literalName.map { $0.replacing("{{", with: "{").replacing("}}", with: "}") }
                bodyFile = filesDirectory + (name ?? choice.nameSource) + "{{! missing in the WireMock root }}"
                members.append(JSONMember(.template, .string("html")))
            } else if case .file(let choice)? = template.body {
                // A templated `bodyFileName`: the native templated `bodyFile`, beside the files it can pick.
                bodyFile = filesDirectory + choice.nameSource
                for (relative, file) in choice.files {
                    switch file {
                    case .bytes(let bytes): files[filesDirectory + relative] = bytes
                    case .template(_, let source): files[filesDirectory + relative] = Array(source.utf8)
                    }
                }
                members.append(JSONMember(.template, wireMock ? .string("html") : .bool(true)))
            } else {
                // The body and headers hold the template translated into native syntax; a
                // translated WireMock template escapes `{{x}}` for HTML as Handlebars does.
                members.append(JSONMember(.template, wireMock ? .string("html") : .bool(true)))
            }
        }
        if let message = response.statusMessage { members.append(JSONMember(.statusMessage, .string(message))) }
        if !response.headers.fields.isEmpty {
            members.append(JSONMember(.headers, headersObject(response.headers)))
        }
        if let bodyFile {
            members.append(JSONMember(.bodyFile, .string(bodyFile)))
        } else if !response.body.isEmpty {
            if let text = String(validating: response.body, as: UTF8.self) {
                members.append(JSONMember(.body, .string(text)))
            } else {
                members.append(JSONMember(.base64, .string(Data(response.body).base64EncodedString())))
            }
        }
        switch (response.delayMs, response.delayDistribution) {
        case (0, nil): break
        case (let fixed, nil): members.append(JSONMember(.delayMs, JSONValue(fixed)))
        case (0, let distribution?): members.append(JSONMember(.delayMs, distribution.json))
        case (let fixed, .uniform(let low, let high)?):
            members.append(JSONMember(.delayMs, DelayDistribution.uniform(min: low + fixed, max: high + fixed).json))
        case (let fixed, let distribution?):
            notes.append(
                "\(stub): `fixedDelayMilliseconds` (\(JSONValue(fixed).jsonText) ms) beside a lognormal `delayDistribution` is not converted; only the distribution is kept"
            )
            members.append(JSONMember(.delayMs, distribution.json))
        }
        if let fault = response.fault { members.append(JSONMember(.fault, .string(fault.rawValue))) }
        return .object(members)
    }
}

extension BodyMatcher {
    /// The matcher as a native stub file writes it.
    public var jsonValue: JSONValue {
        func one(_ key: String, _ value: JSONValue) -> JSONValue { .object([JSONMember(key, value)]) }
        switch self {
        case .equals(let s): return one("equals", .string(s))
        case .equalsIgnoringCase(let s): return one("equalsIgnoringCase", .string(s))
        case .contains(let s): return one("contains", .string(s))
        case .doesNotContain(let s): return one("doesNotContain", .string(s))
        case .matches(let r): return one("matches", .string(r.pattern))
        case .doesNotMatch(let r): return one("doesNotMatch", .string(r.pattern))
        case .json(let v): return one("json", v)
        case .jsonSubset(let v): return one("jsonSubset", v)
        case .jsonEquals(let v, let options):
            return one(
                "jsonEquals",
                .object(
                    [
                        JSONMember(.value, v), JSONMember(.ignoreArrayOrder, .bool(options.ignoreArrayOrder)),
                        JSONMember(.ignoreExtraElements, .bool(options.ignoreExtraElements)),
                    ] + (options.placeholders ? [JSONMember(.placeholders, true)] : [])))
        case .jsonPath(let expression, let matcher?):
            return one(
                "jsonPath",
                .object([JSONMember(.expression, .string(expression.text)), JSONMember(.matcher, matcher.jsonValue)]))
        case .jsonPath(let expression, nil): return one("jsonPath", .string(expression.text))
        case .jsonPathEquals(let expression, let value, let options):
            return one(
                "jsonPath",
                .object([
                    JSONMember(.expression, .string(expression.text)),
                    JSONMember(
                        "jsonEquals",
                        .object(
                            [
                                JSONMember(.value, value),
                                JSONMember(.ignoreArrayOrder, .bool(options.ignoreArrayOrder)),
                                JSONMember(.ignoreExtraElements, .bool(options.ignoreExtraElements)),
                            ] + (options.placeholders ? [JSONMember(.placeholders, true)] : []))),
                ]))
        case .xmlEquals(let expectation):
            let options = expectation.options
            guard options != XMLComparison() else { return one("xmlEquals", .string(expectation.document)) }
            var members = [JSONMember(.value, .string(expectation.document))]
            if options.placeholders { members.append(JSONMember(.placeholders, true)) }
            if let opening = options.openingDelimiter {
                members.append(JSONMember(.placeholderOpening, .string(opening)))
            }
            if let closing = options.closingDelimiter {
                members.append(JSONMember(.placeholderClosing, .string(closing)))
            }
            if !options.exemptedComparisons.isEmpty {
                members.append(
                    JSONMember(.exemptedComparisons, .array(options.exemptedComparisons.map(JSONValue.string))))
            }
            return one("xmlEquals", .object(members))
        case .xPath(let query, let matcher):
            guard matcher != nil || !query.namespaces.isEmpty else { return one("xPath", .string(query.expression)) }
            var members = [JSONMember(.expression, .string(query.expression))]
            if !query.namespaces.isEmpty {
                members.append(
                    JSONMember(.namespaces, .object(query.namespaces.map { JSONMember($0.prefix, .string($0.uri)) })))
            }
            if let matcher { members.append(JSONMember(.matcher, matcher.jsonValue)) }
            return one("xPath", .object(members))
        case .binaryEquals(let bytes): return one("binary", .string(Data(bytes).base64EncodedString()))
        case .allOf(let all): return one("allOf", .array(all.map(\.jsonValue)))
        case .anyOf(let any): return one("anyOf", .array(any.map(\.jsonValue)))
        case .not(let inner): return one("not", inner.jsonValue)
        case .form(let fields):
            return one("form", .object(fields.map { JSONMember($0.name, $0.matcher.jsonValue) }))
        }
    }
}

extension JSONValue {
    /// The value as indented JSON (two spaces), for files people read; scalars and empty
    /// containers as compact JSON.
    public func prettyJSON(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + $0.prettyJSON(indent: inner) }.joined(separator: ",\n") + "\n" + indent
                + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n"
                + members.map { member in
                    inner + String(decoding: JSONValue.string(member.key).jsonBytes, as: UTF8.self) + ": "
                        + member.value.prettyJSON(indent: inner)
                }.joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return String(decoding: jsonBytes, as: UTF8.self)
        }
    }
}
