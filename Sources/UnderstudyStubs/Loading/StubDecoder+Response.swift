import UnderstudyStubFormat
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

/// Decoding of one entry of a stub's `responses`.
extension StubDecoder {
    static let responseKeys = StubFormat.Object.response.keys
    static let bodySourceKeys = StubFormat.bodySourceKeys
    /// Bounds that keep later arithmetic (timers, dates, nanosecond windows) far from overflow.
    package static let maximumDelayMs = 86_400_000.0
    static let maximumSeconds = 315_360_000.0

    mutating func decodeResponse(_ node: JSONNode, _ path: JSONPath) -> StubResponse? {
        guard let all = node.members else {
            typeMismatch(node, path, expected: "a response object")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: Self.responseKeys)
        var response = StubResponse()

        if let member = keys["status"] {
            let statusPath = path.member("status")
            if let text = member.value.numberText {
                if let status = Int(text), (100...599).contains(status) {
                    response.status = status
                } else {
                    fail(member.value.position, statusPath, "expected a status code from 100 to 599, found \(text)")
                }
            } else {
                typeMismatch(member.value, statusPath, expected: "a status code from 100 to 599")
            }
        }

        if let member = keys["headers"] {
            response.headers = decodeHeaders(member.value, path.member("headers"))
        }

        // Body sources in written order, so the error points at the second one the reader meets.
        let sources = all.filter { Self.bodySourceKeys.contains($0.key) }
        if sources.count > 1 {
            let names = sources.map { "`\($0.key)`" }.joined(separator: " and ")
            fail(
                sources[1].keyPosition, path.member(sources[1].key),
                "more than one body source (\(names)); give at most one of `body`, `json`, `base64`, `bodyFile`")
        } else if let source = sources.first, let member = keys[source.key] {
            let sourcePath = path.member(source.key)
            switch source.key {
            case "body":
                if let text = string(member.value, sourcePath) { response.body = Array(text.utf8) }
            case "json":
                response.body = member.value.value.jsonBytes
                if !response.headers.contains("Content-Type") {
                    response.headers.append(name: "Content-Type", value: "application/json")
                }
            case "base64":
                if let text = string(member.value, sourcePath) {
                    if let data = Data(base64Encoded: text, options: [.ignoreUnknownCharacters]), Self.isBase64(text) {
                        response.body = Array(data)
                    } else {
                        fail(member.value.position, sourcePath, "`base64` is not valid base64")
                    }
                }
            case "bodyFile":
                if let relative = nonEmptyString(member.value, sourcePath, what: "a path relative to the stub file") {
                    if TemplateText.hasTags(relative), Self.isTemplated(keys["template"]) {
                        break  // a templated name: `decodeTemplate` reads the files it can name
                    }
                    if let resolver = bodyFiles {
                        switch resolver.read(relative) {
                        case .success(let file):
                            response.body = file.bytes
                            bodyFilesRead.append(file.realPath)
                        case .failure(let problem): fail(member.value.position, sourcePath, problem.message)
                        }
                    } else {
                        fail(
                            member.value.position, sourcePath,
                            "`bodyFile` needs a stub file on disk; stubs posted to the admin API must use `body`, `json` or `base64`"
                        )
                    }
                }
            default: break
            }
        }

        if let member = keys["times"] {
            response.times = integer(member.value, path.member("times"), minimum: 1, what: "a repeat count") ?? 1
        }
        if let member = keys["delayMs"], member.value.members != nil {
            response.delayDistribution = decodeDelayDistribution(member.value, path.member("delayMs"))
        } else if let member = keys["delayMs"] {
            let delayPath = path.member("delayMs")
            if let delay = number(member.value, delayPath) {
                if delay >= 0 && delay <= Self.maximumDelayMs {
                    response.delayMs = delay
                } else {
                    fail(
                        member.value.position, delayPath,
                        "`delayMs` must be from 0 to \(Int(Self.maximumDelayMs)) (one day)")
                }
            }
        }
        if let member = keys["retryAfter"] {
            response.retryAfter = decodeRetryAfter(member.value, path.member("retryAfter"))
            if response.headers.contains("Retry-After") {
                fail(
                    member.keyPosition, path.member("retryAfter"),
                    "`retryAfter` and a `Retry-After` header both set the header; give one")
            }
        }
        if let member = keys["statusMessage"] {
            response.statusMessage = reasonPhrase(member.value, path.member("statusMessage"))
        }
        if let member = keys["fault"] {
            decodeFault(member.value, path.member("fault"), into: &response)
        }
        decodeCompression(keys, &response, path)
        var templated = false
        var escaping = TemplateText.Escaping.none
        if let member = keys["template"] {
            switch member.value.kind {
            case .bool(let flag):
                templated = flag
            case .string("html"):
                // Handlebars' escaping (`{{x}}` writes `&amp;`, `&quot;`…): what a WireMock
                // template does, so `convert-wiremock` can write a translated template that answers
                // the same.
                (templated, escaping) = (true, .html)
            default:
                typeMismatch(member.value, path.member("template"), expected: "true, false or \"html\"")
            }
        }
        if let member = keys["proxy"] {
            response.proxy = decodeProxy(member, siblings: all, path)
        }
        if let member = keys["webhooks"] {
            response.webhooks = decodeWebhooks(member.value, path.member("webhooks"))
        }
        decodeStreaming(keys, &response, path, templated: templated)
        if templated, errors.count == errorsBefore {
            response.template = decodeTemplate(keys, response, path, escaping: escaping)
        }
        return errors.count == errorsBefore ? response : nil
    }

    /// `compress`, `compressWhen` and `compressMistake`: the last two only beside the first.
    private mutating func decodeCompression(
        _ keys: ObjectMembers, _ response: inout StubResponse, _ path: JSONPath
    ) {
        var coding: StubFormat.Compression?
        var when: StubFormat.CompressWhen?
        var mistake: StubFormat.CompressMistake?
        if let member = keys["compress"] {
            coding = enumValue(member.value, path.member("compress"), StubFormat.Compression.self)
            if let chosen = coding, let reason = CompressionSupport.unavailability(of: chosen) {
                fail(member.value.position, path.member("compress"), reason)
                coding = nil
            }
        }
        if let member = keys["compressWhen"] {
            when = enumValue(member.value, path.member("compressWhen"), StubFormat.CompressWhen.self)
        }
        if let member = keys["compressMistake"] {
            mistake = enumValue(member.value, path.member("compressMistake"), StubFormat.CompressMistake.self)
        }
        guard let coding else {
            for key in ["compressWhen", "compressMistake"] {
                if let member = keys[key], keys["compress"] == nil {
                    fail(
                        member.keyPosition, path.member(key),
                        "`\(key)` needs `compress` beside it (\"gzip\", \"deflate\" or \"br\")")
                }
            }
            return
        }
        response.compression = ResponseCompression(coding: coding, when: when ?? .accepted, mistake: mistake)
    }

    /// Whether a `template` value turns templating on (`true` or `"html"`).
    static func isTemplated(_ member: JSONNode.Member?) -> Bool {
        switch member?.value.kind {
        case .bool(true)?, .string("html")?: return true
        default: return false
        }
    }

    package mutating func decodeHeaders(_ node: JSONNode, _ path: JSONPath) -> HTTPHeaders {
        guard let members = node.members else {
            typeMismatch(node, path, expected: "an object of header name → string or array of strings")
            return HTTPHeaders()
        }
        var headers = HTTPHeaders()
        for member in members {
            let memberPath = path.member(member.key)
            guard !member.key.isEmpty, member.key.utf8.allSatisfy(Self.isTokenByte) else {
                fail(member.keyPosition, memberPath, "`\(member.key)` is not a valid header name")
                continue
            }
            var values: [JSONNode] = []
            if member.value.stringValue != nil {
                values = [member.value]
            } else if let elements = member.value.elements {
                values = elements
            } else {
                typeMismatch(member.value, memberPath, expected: "a string or an array of strings")
                continue
            }
            for (index, valueNode) in values.enumerated() {
                let valuePath = member.value.elements == nil ? memberPath : memberPath.element(index)
                guard let value = string(valueNode, valuePath) else { continue }
                if value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
                    fail(valueNode.position, valuePath, "header values may not contain line breaks or NUL")
                    continue
                }
                headers.append(name: member.key, value: value)
            }
        }
        return headers
    }

    private mutating func decodeRetryAfter(_ node: JSONNode, _ path: JSONPath) -> RetryAfterSetting? {
        if let text = node.numberText {
            guard let value = Double(text), value >= 0 else {
                fail(node.position, path, "`retryAfter` seconds must be 0 or more, found \(text)")
                return nil
            }
            return .seconds(text)
        }
        guard node.members != nil else {
            typeMismatch(node, path, expected: "a number of seconds or {\"httpDateIn\": seconds}")
            return nil
        }
        let keys = members(of: node, path, known: StubFormat.Object.retryAfter.keys)
        guard let member = keys["httpDateIn"] else {
            if node.members?.isEmpty ?? true { fail(node.position, path, "missing key `httpDateIn`") }
            return nil
        }
        let memberPath = path.member("httpDateIn")
        guard let seconds = number(member.value, memberPath) else { return nil }
        guard seconds >= 0, seconds <= Self.maximumSeconds else {
            fail(
                member.value.position, memberPath,
                "`httpDateIn` must be from 0 to \(Int(Self.maximumSeconds)) seconds (ten years)")
            return nil
        }
        return .httpDateIn(seconds)
    }

    private static func isBase64(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                UInt8(ascii: " "):
                return true
            default:
                return false
            }
        }
    }
}
