/// Turns a parsed stub document into stubs, collecting every error instead of stopping at the
/// first, each with its file, position, JSON path and (for typos) a suggestion.
struct StubDecoder {
    /// A stub with where its id was written, for duplicate-id errors across files.
    struct Decoded {
        var stub: Stub
        var idPosition: SourcePosition
        var path: JSONPath
    }

    static let documentKeys = ["stubs", "$schema"]
    static let stubKeys = ["id", "description", "request", "responses", "afterLast", "scenario", "whenState", "setState", "rateLimit"]
    static let rateLimitKeys = ["limit", "window", "retryAfter", "algorithm"]

    let file: String
    /// Resolves `bodyFile` paths; `nil` when the document has no file on disk.
    let bodyFiles: BodyFileResolver?
    var errors: [StubFileError] = []
    /// Top-level keys a document may carry besides `stubs` (checked by whoever allows them).
    var otherDocumentKeys: [String] = []

    init(file: String, bodyFiles: BodyFileResolver?) {
        self.file = file
        self.bodyFiles = bodyFiles
    }

    mutating func fail(_ position: SourcePosition, _ path: JSONPath, _ message: String, suggestion: String? = nil) {
        errors.append(StubFileError(file: file, line: position.line, column: position.column,
                                    jsonPath: path.text, message: message, suggestion: suggestion))
    }

    mutating func typeMismatch(_ node: JSONNode, _ path: JSONPath, expected: String) {
        fail(node.position, path, "expected \(expected), found \(article(node.kindName))")
    }

    /// Checks an object's keys: reports unknown keys (with the closest known key) and repeated
    /// keys, and returns the first member for each known key.
    mutating func members(of node: JSONNode, _ path: JSONPath, known: [String]) -> [String: JSONNode.Member] {
        guard let members = node.members else { return [:] }
        var seen: [String: JSONNode.Member] = [:]
        for member in members {
            if !known.contains(member.key) {
                let memberPath = path.member(member.key)
                if let suggestion = EditDistance.closest(to: member.key, among: known) {
                    fail(member.keyPosition, memberPath, "unknown key `\(member.key)`; did you mean `\(suggestion)`?", suggestion: suggestion)
                } else {
                    let list = known.filter { !$0.hasPrefix("$") }.map { "`\($0)`" }.joined(separator: ", ")
                    fail(member.keyPosition, memberPath, "unknown key `\(member.key)`; expected one of \(list)")
                }
                continue
            }
            if seen[member.key] != nil {
                fail(member.keyPosition, path.member(member.key), "key `\(member.key)` appears more than once")
                continue
            }
            seen[member.key] = member
        }
        return seen
    }

    /// Decodes a whole document. `generatedID` names stubs that have no `id`.
    mutating func decodeDocument(_ root: JSONNode, generatedID: (Int) -> String) -> [Decoded] {
        guard root.members != nil else {
            fail(root.position, .root, "expected an object with a `stubs` array, found \(article(root.kindName))")
            return []
        }
        let keys = members(of: root, .root, known: Self.documentKeys + otherDocumentKeys)
        guard let stubsMember = keys["stubs"] else {
            fail(root.position, .root, "missing key `stubs`; a stub file is {\"stubs\": [ ... ]}")
            return []
        }
        guard let elements = stubsMember.value.elements else {
            typeMismatch(stubsMember.value, JSONPath.root.member("stubs"), expected: "an array of stubs")
            return []
        }
        var decoded: [Decoded] = []
        let stubsPath = JSONPath.root.member("stubs")
        for (index, element) in elements.enumerated() {
            if let stub = decodeStub(element, stubsPath.element(index), generatedID: generatedID(index)) {
                decoded.append(stub)
            }
        }
        return decoded
    }

    private mutating func decodeStub(_ node: JSONNode, _ path: JSONPath, generatedID: String) -> Decoded? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "a stub object")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: Self.stubKeys)

        var id = generatedID
        var idGenerated = true
        var idPosition = node.position
        if let member = keys["id"] {
            if let text = nonEmptyString(member.value, path.member("id"), what: "a stub id") {
                id = text
                idGenerated = false
                idPosition = member.value.position
            }
        }
        let description = keys["description"].flatMap { string($0.value, path.member("description")) }

        var request = RequestPattern()
        var requestJSON: JSONValue?
        if let member = keys["request"] {
            requestJSON = member.value.value
            request = decodeRequest(member.value, path.member("request")) ?? RequestPattern()
        }

        var responses: [StubResponse] = []
        if let member = keys["responses"] {
            let responsesPath = path.member("responses")
            if let elements = member.value.elements {
                if elements.isEmpty {
                    fail(member.value.position, responsesPath, "`responses` is empty; give at least one response")
                }
                for (index, element) in elements.enumerated() {
                    if let response = decodeResponse(element, responsesPath.element(index)) {
                        responses.append(response)
                    }
                }
            } else {
                typeMismatch(member.value, responsesPath, expected: "a non-empty array of responses")
            }
        } else {
            fail(node.position, path, "missing key `responses`; a stub needs at least one response")
        }

        var afterLast = AfterLast.repeat
        if let member = keys["afterLast"] {
            afterLast = enumValue(member.value, path.member("afterLast"), AfterLast.self) ?? .repeat
        }

        let scenario = keys["scenario"].flatMap { nonEmptyString($0.value, path.member("scenario"), what: "a scenario name") }
        let whenState = keys["whenState"].flatMap { nonEmptyString($0.value, path.member("whenState"), what: "a state name") }
        let setState = keys["setState"].flatMap { nonEmptyString($0.value, path.member("setState"), what: "a state name") }
        if keys["scenario"] == nil {
            for key in ["whenState", "setState"] {
                if let member = keys[key] {
                    fail(member.keyPosition, path.member(key), "`\(key)` needs `scenario`: name the scenario whose state it refers to")
                }
            }
        }

        var rateLimit: RateLimitRule?
        if let member = keys["rateLimit"] {
            rateLimit = decodeRateLimit(member.value, path.member("rateLimit"))
        }

        guard errors.count == errorsBefore else { return nil }
        var stub = Stub(id: id, file: file, description: description, request: request, requestJSON: requestJSON,
                        responses: responses, afterLast: afterLast, scenario: scenario, whenState: whenState,
                        setState: setState, rateLimit: rateLimit)
        stub.idGenerated = idGenerated
        return Decoded(stub: stub, idPosition: idPosition, path: path)
    }

    private mutating func decodeRateLimit(_ node: JSONNode, _ path: JSONPath) -> RateLimitRule? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"limit\": 10, \"window\": 1}")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(of: node, path, known: Self.rateLimitKeys)
        var limit = 1
        if let member = keys["limit"] {
            limit = integer(member.value, path.member("limit"), minimum: 1, what: "a request count") ?? 1
        } else {
            fail(node.position, path, "missing key `limit` (requests allowed per window)")
        }
        var window = 1.0
        if let member = keys["window"] {
            let windowPath = path.member("window")
            if let value = number(member.value, windowPath) {
                if value > 0 && value <= Self.maximumSeconds {
                    window = value
                } else {
                    fail(member.value.position, windowPath, "`window` must be a number of seconds greater than 0 and at most \(Int(Self.maximumSeconds)) (ten years)")
                }
            }
        } else {
            fail(node.position, path, "missing key `window` (seconds)")
        }
        let format = keys["retryAfter"].flatMap { enumValue($0.value, path.member("retryAfter"), RateLimitRule.RetryAfterFormat.self) }
        let algorithm = keys["algorithm"].flatMap { enumValue($0.value, path.member("algorithm"), RateLimitRule.Algorithm.self) }
        guard errors.count == errorsBefore else { return nil }
        return RateLimitRule(limit: limit, window: window, retryAfter: format ?? .seconds, algorithm: algorithm ?? .slidingWindow)
    }
}
