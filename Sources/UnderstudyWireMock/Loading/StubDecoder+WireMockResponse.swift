#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// WireMock's `response` object, decoded into a native ``StubResponse``.
extension StubDecoder {
    static let wireMockResponseKeys = [
        "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
        "fixedDelayMilliseconds", "delayDistribution", "fault", "fromConfiguredStub", "proxyBaseUrl",
        "proxyUrlPrefixToRemove", "additionalProxyRequestHeaders", "removeProxyRequestHeaders",
    ]
    static let wireMockUnsupportedResponseKeys = [
        "transformers": "only `response-template` is supported",
        "transformerParameters": "response transformers are not supported",
        "chunkedDribbleDelay": "chunked dribble delays are not supported",
    ]
    /// WireMock's fault names and the native faults they map onto.
    static let wireMockFaults: [String: Fault] = [
        "EMPTY_RESPONSE": .emptyResponse,
        "CONNECTION_RESET_BY_PEER": .connectionReset,
        "RANDOM_DATA_THEN_CLOSE": .randomDataThenClose,
        "MALFORMED_RESPONSE_CHUNK": .malformedResponseChunk,
    ]

    mutating func decodeWireMockResponse(_ node: JSONNode, _ path: JSONPath) -> StubResponse? {
        guard let all = node.members else {
            typeMismatch(node, path, expected: "a WireMock response object")
            return nil
        }
        let errorsBefore = errors.count
        var templated = wireMockGlobalTemplating
        wireMockTemplateParameters = [:]
        var bodyFileMissing = false
        for member in all {
            guard let reason = Self.wireMockUnsupportedResponseKeys[member.key] else { continue }
            if member.key == "transformers", let names = member.value.elements?.compactMap(\.stringValue) {
                // `response-template` is rendered with the native templates (the variables that map
                // directly). WireMock starts with a transformer it has no extension for and ignores it
                // when serving: so does Understudy, saying so.
                // With `--global-response-templating` every mapping is templated, whatever it names.
                templated = wireMockGlobalTemplating || names.contains("response-template")
                let others = names.filter { $0 != "response-template" }
                if !others.isEmpty {
                    let list = others.map { "`\($0)`" }.joined(separator: ", ")
                    warn(
                        member.value.position, path.member(member.key),
                        "WireMock extension transformer \(list) ignored: \(reason), and WireMock ignores a transformer it has no extension for"
                    )
                }
                continue
            } else if member.key == "transformerParameters" {
                // Templates read them as `parameters.NAME` (WireMock's transformers get them too).
                wireMockTemplateParameters = [:]
                for parameter in member.value.members ?? [] {
                    switch parameter.value.value {
                    case .string(let text), .number(let text): wireMockTemplateParameters[parameter.key] = text
                    case .bool(let flag): wireMockTemplateParameters[parameter.key] = flag ? "true" : "false"
                    default: break
                    }
                }
                continue
            } else {
                fail(
                    member.keyPosition, path.member(member.key),
                    "unsupported WireMock feature `\(member.key)`: \(reason)")
            }
        }
        let keys = members(of: node, path, known: Self.wireMockResponseKeys + Self.wireMockUnsupportedResponseKeys.keys)
        var response = StubResponse()
        if let member = keys["status"] {
            if let text = member.value.numberText, let status = Int(text), (100...599).contains(status) {
                response.status = status
            } else if let text = member.value.stringValue, let status = Int(text), (100...599).contains(status) {
                response.status = status  // WireMock's JSON reader takes a number written as a string
                warn(
                    member.value.position, path.member("status"),
                    "`status` is the string \"\(text)\"; read as the number \(status), as WireMock does")
            } else {
                fail(member.value.position, path.member("status"), "expected a status code from 100 to 599")
            }
        }
        if let member = keys["statusMessage"] {
            response.statusMessage = reasonPhrase(member.value, path.member("statusMessage"))
        }
        if let member = keys["headers"] {
            response.headers = decodeHeaders(member.value, path.member("headers"))
        }
        let sources = all.filter { ["body", "jsonBody", "base64Body", "bodyFileName"].contains($0.key) }
        if sources.count > 1 {
            fail(
                sources[1].keyPosition, path.member(sources[1].key),
                "more than one body source; give one of `body`, `jsonBody`, `base64Body`, `bodyFileName`")
        } else if let source = sources.first {
            let sourcePath = path.member(source.key)
            switch source.key {
            case "body":
                if let text = string(source.value, sourcePath) { response.body = Array(text.utf8) }
            case "jsonBody":
                // WireMock writes the JSON back through Jackson: compact, numbers as Java prints them.
                response.body = source.value.value.javaNormalizedNumbers.jsonBytes
            case "base64Body":
                if let text = string(source.value, sourcePath) {
                    if let data = Data(base64Encoded: text, options: [.ignoreUnknownCharacters]) {
                        response.body = Array(data)
                    } else {
                        fail(source.value.position, sourcePath, "`base64Body` is not valid base64")
                    }
                }
            default:
                if let relative = nonEmptyString(source.value, sourcePath, what: "a path under `__files`") {
                    if templated, relative.contains("{{"), wireMockFileOnDisk {
                        // Named per request (`{{request.path.[1]}}.json`): decodeWireMockTemplate picks
                        // among the files of `__files/`.
                    } else if let resolver = bodyFiles {
                        switch resolver.read(relative) {
                        case .success(let file):
                            response.body = file.bytes
                            bodyFilesRead.append(file.realPath)
                        case .failure(let problem)
                        where wireMockFileOnDisk && !(templated && relative.contains("{{"))
                            && problem.message.hasPrefix("cannot read"):
                            // WireMock reads the file when it serves: a missing one fails that request
                            // (a path leaving the root stays an error: Understudy never serves it).
                            warn(
                                source.value.position, sourcePath,
                                "\(problem.message.replacingBodyFileWording); requests this mapping answers get 500, as in WireMock"
                            )
                            missingBodyFile(&response, relative)
                            bodyFileMissing = true
                        case .failure(let problem):
                            fail(source.value.position, sourcePath, problem.message.replacingBodyFileWording)
                        }
                    } else if wireMockFileOnDisk, !(templated && relative.contains("{{")) {
                        warn(
                            source.value.position, sourcePath,
                            "cannot read `bodyFileName` `\(relative)`: there is no `__files` directory; requests this mapping answers get 500, as in WireMock"
                        )
                        missingBodyFile(&response, relative)
                        bodyFileMissing = true
                    } else {
                        fail(
                            source.value.position, sourcePath,
                            "`bodyFileName` needs a mapping file on disk with a `__files` directory; mappings posted to the admin API must use `body`, `jsonBody` or `base64Body`"
                        )
                    }
                }
            }
        }
        if let member = keys["fixedDelayMilliseconds"] {
            response.delayMs = delayBound(member.value, path.member("fixedDelayMilliseconds")) ?? 0
        }
        if let member = keys["delayDistribution"] {
            response.delayDistribution = decodeWireMockDistribution(member.value, path.member("delayDistribution"))
        }
        if let member = keys["fault"] {
            let faultPath = path.member("fault")
            if let name = string(member.value, faultPath) {
                if let fault = Self.wireMockFaults[name] {
                    response.fault = fault
                } else {
                    let names = Self.wireMockFaults.keys.sorted()
                    let closest =
                        EditDistance.closest(to: name, among: names) ?? names.first { $0.hasPrefix(name.uppercased()) }
                    let hint = closest.map { "; did you mean `\($0)`?" } ?? ""
                    fail(
                        member.value.position, faultPath,
                        "unknown WireMock fault `\(name)`\(hint) (expected one of \(names.map { "`\($0)`" }.joined(separator: ", ")))"
                    )
                }
            }
        }
        if let member = keys["proxyBaseUrl"] {
            var proxied = StubResponse()  // the upstream's answer is the whole response; delays still apply
            (proxied.delayMs, proxied.delayDistribution) = (response.delayMs, response.delayDistribution)
            response = proxied
            response.proxy = decodeWireMockProxy(member, prefix: keys["proxyUrlPrefixToRemove"], all: all, path)
            return errors.count == errorsBefore ? response : nil
        } else if let prefix = keys["proxyUrlPrefixToRemove"] {
            fail(prefix.keyPosition, path.member(prefix.key), "`proxyUrlPrefixToRemove` needs `proxyBaseUrl`")
        }
        for key in ["additionalProxyRequestHeaders", "removeProxyRequestHeaders"] {
            guard let member = keys[key] else { continue }
            warn(member.keyPosition, path.member(key), "`\(key)` ignored: there is no `proxyBaseUrl` to send it to")
        }
        if templated, !bodyFileMissing, errors.count == errorsBefore {
            decodeWireMockTemplate(keys, &response, path)
        }
        // Jetty's gzip handler in front of WireMock: the transport decides per answer (status,
        // Content-Type, HEAD, the request's Accept-Encoding), as Jetty does.
        response.compression = .jetty
        return errors.count == errorsBefore ? response : nil
    }

    /// What WireMock answers for a mapping whose body file is missing: its servlet container's
    /// error page for the `FileNotFoundException`, status 500 (without the Java stack trace). The
    /// page's type follows each request's `Accept`, so the answer is chosen per request: a file
    /// choice among no files, which always answers the missing file's page.
    private func missingBodyFile(_ response: inout StubResponse, _ relative: String) {
        let directory = StubLoader.wireMockFilesDirectory(for: file)
        Self.wireMockMissingBodyFile(&response, directory + "/" + relative)
        // A name with tags (templating off) is named as written: WireMock does not render it.
        let literal = TemplateText.hasTags(relative)
        guard case .success(let name) = TemplateText.compile(literal ? "" : relative) else { return }
        response.template = ResponseTemplate(
            body: .file(
                ResponseTemplate.FileChoice(
                    name: name, nameSource: relative, files: [:], directory: directory,
                    literalName: literal ? relative : nil)),
            headers: [],
            eventData: [])
    }

    /// WireMock's answer for a body file `path` that is not there (also when a templated
    /// `bodyFileName` names no file, per request).
    static func wireMockMissingBodyFile(_ response: inout StubResponse, _ path: String) {
        (response.status, response.headers, response.body) = ResponseTemplate.FileChoice.missingFileAnswer(path)
    }

    /// `proxyBaseUrl` (with `proxyUrlPrefixToRemove`): the native `proxy`. WireMock answers such a
    /// mapping with the upstream's status and body, ignoring the mapping's: so are they here, with
    /// a warning. What WireMock 2.35.1 does with the rest (checked against the jar): the mapping's
    /// `headers` are added to the upstream's answer, a field of the same name as one of the
    /// upstream's is sent beside it (`addResponseHeaders`); `additionalProxyRequestHeaders` replace
    /// the client's fields of their names, `Host` included, first value only (`setHeaders`).
    /// `removeProxyRequestHeaders` is WireMock 3's (2.35.1 refuses the mapping): the fields are not
    /// forwarded (`removeHeaders`). A `fault` would not be what WireMock does: refused (the mapping skipped).
    private mutating func decodeWireMockProxy(
        _ member: JSONNode.Member, prefix: JSONNode.Member?, all: [JSONNode.Member], _ path: JSONPath
    ) -> ProxySetting? {
        let ignored: Set<String> = ["status", "statusMessage", "body", "jsonBody", "base64Body", "bodyFileName"]
        for other in all where other.key == "fault" {
            fail(
                other.keyPosition, path.member(other.key),
                "`fault` beside `proxyBaseUrl` is not supported (the native `proxy` answers with what the upstream sends)"
            )
        }
        for other in all where ignored.contains(other.key) {
            warn(
                other.keyPosition, path.member(other.key),
                "`\(other.key)` ignored: a `proxyBaseUrl` response answers with the upstream's status, headers and body, as in WireMock"
            )
        }
        let urlPath = path.member("proxyBaseUrl")
        guard let url = nonEmptyString(member.value, urlPath, what: "an http:// or https:// URL") else { return nil }
        if let problem = Self.upstreamURLProblem(url) {
            fail(member.value.position, urlPath, problem.replacing("`to`", with: "`proxyBaseUrl`"))
            return nil
        }
        var setting = ProxySetting(to: url)
        if let prefix {
            let prefixPath = path.member(prefix.key)
            if let text = nonEmptyString(prefix.value, prefixPath, what: "a path prefix such as `/api`") {
                if text.hasPrefix("/") {
                    setting.stripPrefix = text
                } else {
                    fail(prefix.value.position, prefixPath, "`proxyUrlPrefixToRemove` is a path: start it with `/`")
                }
            }
        }
        for other in all {
            switch other.key {
            case "headers":
                setting.addResponseHeaders = decodeHeaders(other.value, path.member(other.key))
            case "additionalProxyRequestHeaders":
                // WireMock sets each name to its first value.
                var first = HTTPHeaders()
                for field in decodeHeaders(other.value, path.member(other.key)).fields where !first.contains(field.name)
                {
                    first.append(name: field.name, value: field.value)
                }
                setting.setHeaders = first
            case "removeProxyRequestHeaders":
                setting.removeHeaders = decodeHeaderNames(other.value, path.member(other.key))
            default:
                break
            }
        }
        return setting
    }

    mutating func decodeWireMockDistribution(_ node: JSONNode, _ path: JSONPath) -> DelayDistribution? {
        guard node.members != nil else {
            typeMismatch(
                node, path, expected: "an object like {\"type\": \"lognormal\", \"median\": 80, \"sigma\": 0.4}")
            return nil
        }
        let keys = members(of: node, path, known: ["type", "lower", "upper", "median", "sigma", "maxValue"])
        guard let type = keys["type"].flatMap({ string($0.value, path.member("type")) }) else {
            if keys["type"] == nil { fail(node.position, path, "missing key `type` (`uniform` or `lognormal`)") }
            return nil
        }
        switch type {
        case "uniform":
            guard let lower = keys["lower"], let upper = keys["upper"] else {
                fail(node.position, path, "a uniform distribution needs `lower` and `upper`")
                return nil
            }
            guard let low = delayBound(lower.value, path.member("lower")),
                let high = delayBound(upper.value, path.member("upper"))
            else { return nil }
            guard low <= high else {
                fail(upper.value.position, path.member("upper"), "`upper` must be at least `lower`")
                return nil
            }
            return .uniform(min: low, max: high)
        case "lognormal":
            guard let medianNode = keys["median"], let sigmaNode = keys["sigma"] else {
                fail(node.position, path, "a lognormal distribution needs `median` and `sigma`")
                return nil
            }
            guard let median = delayBound(medianNode.value, path.member("median")),
                let sigma = number(sigmaNode.value, path.member("sigma"))
            else { return nil }
            guard sigma >= 0, sigma <= 10 else {
                fail(sigmaNode.value.position, path.member("sigma"), "`sigma` must be from 0 to 10")
                return nil
            }
            let cap = keys["maxValue"].flatMap { delayBound($0.value, path.member("maxValue")) }
            return .lognormal(median: median, sigma: sigma, max: cap ?? Self.maximumDelayMs)
        default:
            fail(
                keys["type"]!.value.position, path.member("type"),
                "unknown delay distribution `\(type)`; expected `uniform` or `lognormal`")
            return nil
        }
    }
}

extension JSONValue {
    /// Numbers as Jackson writes them back: integers as written, others as a Java `double` prints.
    var javaNormalizedNumbers: JSONValue {
        switch self {
        case .number(let text):
            guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = Double(text) else {
                return self
            }
            return .number(value.description)
        case .array(let items): return .array(items.map(\.javaNormalizedNumbers))
        case .object(let members): return .object(members.map { JSONMember($0.key, $0.value.javaNormalizedNumbers) })
        default: return self
        }
    }
}

extension String {
    /// The body-file resolver speaks of `bodyFile`; WireMock mappings call it `bodyFileName`.
    var replacingBodyFileWording: String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: "`bodyFile`") {
            out += rest[..<range.lowerBound] + "`bodyFileName`"
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
