import UnderstudyStubFormat

/// Turns a parsed stub document into stubs, collecting every error instead of stopping at the
/// first, each with its file, position, JSON path and (for typos) a suggestion.
struct StubDecoder {
    static let documentKeys = StubFormat.Object.document.keys
    static let stubKeys = StubFormat.Object.stub.keys
    static let rateLimitKeys = StubFormat.Object.rateLimit.keys

    let file: String
    /// Resolves `bodyFile` paths; `nil` when the document has no file on disk.
    let bodyFiles: BodyFileResolver?
    /// Added to the error for a document that is not a stub file (see ``StubFileKind``).
    let notAStubFileHint: String?
    var errors: [StubFileError] = []
    /// The real paths of every `bodyFile` read, so the loader can tell body files from stub files.
    var bodyFilesRead: [String] = []
    /// Top-level keys a document may carry besides `stubs` (checked by whoever allows them).
    var otherDocumentKeys: [String] = []
    /// Problems let pass (WireMock's leniencies), one each.
    var warnings: [StubFileError] = []
    /// WireMock's rules for keys given twice: the last one wins (with a warning) instead of an error.
    var lastDuplicateKeyWins = false
    /// WireMock mappings with a problem are left out (into ``skipped``) instead of failing the file.
    var skippingMappings = false
    /// The mappings left out (see ``skippingMappings``).
    var skipped: [SkippedMapping] = []
    /// A WireMock mapping file on disk: a `bodyFileName` that is missing fails only the requests
    /// it answers (500, as WireMock does) instead of the file.
    var wireMockFileOnDisk = false
    /// WireMock's `--global-response-templating` (``StubLoadOptions``).
    var wireMockGlobalTemplating = false
    /// The `transformerParameters` of the WireMock response being decoded (scalars as text), which
    /// its templates read as `parameters.NAME`.
    var wireMockTemplateParameters: [String: String] = [:]

    init(file: String, bodyFiles: BodyFileResolver?, notAStubFileHint: String? = nil) {
        self.file = file
        self.bodyFiles = bodyFiles
        self.notAStubFileHint = notAStubFileHint
    }

    mutating func fail(_ position: SourcePosition, _ path: JSONPath, _ message: String, suggestion: String? = nil) {
        errors.append(
            StubFileError(
                file: file, line: position.line, column: position.column,
                jsonPath: path.text, message: message, suggestion: suggestion))
    }

    /// Records a leniency: loading goes on, and the line is printed at start-up and in `check`.
    mutating func warn(_ position: SourcePosition, _ path: JSONPath, _ message: String) {
        var warning = StubFileError(
            file: file, line: position.line, column: position.column, jsonPath: path.text, message: message)
        warning.severity = .warning
        warnings.append(warning)
    }

    mutating func typeMismatch(_ node: JSONNode, _ path: JSONPath, expected: String) {
        fail(node.position, path, "expected \(expected), found \(article(node.kindName))")
    }

    /// Decodes a whole document: every stub, including those with errors (`stub` is `nil`), so
    /// their ids still count for duplicate checks. `generatedID` names stubs that have no `id`.
    mutating func decodeDocument(_ root: JSONNode, generatedID: (Int) -> String) -> [DecodedStub] {
        let hint = notAStubFileHint.map { ". \($0)" } ?? ""
        guard let topLevel = root.members else {
            fail(
                root.position, .root, "expected an object with a `stubs` array, found \(article(root.kindName))\(hint)")
            return []
        }
        // A document with no `stubs` and no key that looks like one is not a stub file at all (a
        // JSON body, say): one error, not one per key it happens to have.
        let known = Self.documentKeys + otherDocumentKeys
        let typo = Self.misspelling(
            of: "stubs", among: topLevel.map(\.key).filter { !known.contains($0) }, known: known)
        guard topLevel.contains(where: { $0.key == "stubs" }) || typo != nil else {
            fail(
                root.position, .root, "not a stub file: missing key `stubs`; a stub file is {\"stubs\": [ ... ]}\(hint)"
            )
            return []
        }
        let keys = members(
            of: root, .root, known: known,
            required: [RequiredKey(key: "stubs", why: "a stub file is {\"stubs\": [ ... ]}")])
        guard let stubsMember = keys["stubs"] else { return [] }
        guard let elements = stubsMember.value.elements else {
            typeMismatch(stubsMember.value, JSONPath.root.member("stubs"), expected: "an array of stubs")
            return []
        }
        var decoded: [DecodedStub] = []
        let stubsPath = JSONPath.root.member("stubs")
        for (index, element) in elements.enumerated() {
            if let stub = decodeStub(element, stubsPath.element(index), generatedID: generatedID(index)) {
                decoded.append(stub)
            }
        }
        return decoded
    }

    /// `nil` only when the stub is not an object or its `id` is invalid: then there is no id to
    /// check for duplicates.
    private mutating func decodeStub(_ node: JSONNode, _ path: JSONPath, generatedID: String) -> DecodedStub? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "a stub object")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(
            of: node, path, known: Self.stubKeys,
            required: [RequiredKey(key: "responses", why: "a stub needs at least one response")])

        var id: String? = generatedID
        var idGenerated = true
        var idPosition = node.position
        if let member = keys["id"] {
            id = nonEmptyString(member.value, path.member("id"), what: "a stub id")
            idGenerated = false
            idPosition = member.value.position
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
        }

        var afterLast = AfterLast.repeat
        if let member = keys["afterLast"] {
            afterLast = enumValue(member.value, path.member("afterLast"), AfterLast.self) ?? .repeat
        }

        let scenario = keys["scenario"].flatMap {
            nonEmptyString($0.value, path.member("scenario"), what: "a scenario name")
        }
        let whenState = keys["whenState"].flatMap {
            nonEmptyString($0.value, path.member("whenState"), what: "a state name")
        }
        let setState = keys["setState"].flatMap {
            nonEmptyString($0.value, path.member("setState"), what: "a state name")
        }
        if keys["scenario"] == nil {
            for key in ["whenState", "setState"] {
                if let member = keys[key] {
                    fail(
                        member.keyPosition, path.member(key),
                        "`\(key)` needs `scenario`: name the scenario whose state it refers to")
                }
            }
        }

        var rateLimit: RateLimitRule?
        if let member = keys["rateLimit"] {
            rateLimit = decodeRateLimit(member.value, path.member("rateLimit"))
        }

        let priority = keys["priority"].flatMap {
            integer($0.value, path.member("priority"), minimum: 1, what: "a priority")
        }
        var tokenExpiresIn: Double?
        if let member = keys["tokenExpiresIn"], let seconds = number(member.value, path.member("tokenExpiresIn")) {
            if seconds > 0 && seconds.isFinite {
                tokenExpiresIn = seconds
            } else {
                fail(
                    member.value.position, path.member("tokenExpiresIn"),
                    "`tokenExpiresIn` must be a number of seconds > 0, like 3600")
            }
        }

        if let member = keys["openapi"] {
            decodeOpenAPISkip(member.value, path.member("openapi"))
        }

        guard let id else { return nil }
        let decoded = DecodedStub(
            stub: nil, id: id, idGenerated: idGenerated, file: file, idPosition: idPosition, path: path)
        guard errors.count == errorsBefore else { return decoded }
        var stub = Stub(
            id: id, file: file, description: description, request: request, requestJSON: requestJSON,
            responses: responses, afterLast: afterLast, scenario: scenario, whenState: whenState,
            setState: setState, rateLimit: rateLimit)
        stub.idGenerated = idGenerated
        stub.priority = priority
        stub.tokenExpiresIn = tokenExpiresIn
        return DecodedStub(stub: stub, id: id, idGenerated: idGenerated, file: file, idPosition: idPosition, path: path)
    }

    /// `openapi: {"skip": "why"}`: read by `check --openapi` only; the engine serves the stub alike.
    private mutating func decodeOpenAPISkip(_ node: JSONNode, _ path: JSONPath) {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"skip\": \"why this stub is off-spec\"}")
            return
        }
        let keys = members(
            of: node, path, known: ["skip"],
            required: [RequiredKey(key: "skip", why: "say why the stub is left out of the OpenAPI check")])
        if let member = keys["skip"] {
            _ = nonEmptyString(member.value, path.member("skip"), what: "a reason")
        }
    }

    private mutating func decodeRateLimit(_ node: JSONNode, _ path: JSONPath) -> RateLimitRule? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"limit\": 10, \"window\": 1}")
            return nil
        }
        let errorsBefore = errors.count
        let keys = members(
            of: node, path, known: Self.rateLimitKeys,
            required: [
                RequiredKey(key: "limit", why: "give the number of requests allowed per window"),
                RequiredKey(key: "window", why: "give the window's length in seconds"),
            ])
        var limit = 1
        if let member = keys["limit"] {
            limit = integer(member.value, path.member("limit"), minimum: 1, what: "a request count") ?? 1
        }
        var window = 1.0
        if let member = keys["window"] {
            let windowPath = path.member("window")
            if let value = number(member.value, windowPath) {
                if value > 0 && value <= Self.maximumSeconds {
                    window = value
                } else {
                    fail(
                        member.value.position, windowPath,
                        "`window` must be a number of seconds greater than 0 and at most \(Int(Self.maximumSeconds)) (ten years)"
                    )
                }
            }
        }
        let format = keys["retryAfter"].flatMap {
            enumValue($0.value, path.member("retryAfter"), RateLimitRule.RetryAfterFormat.self)
        }
        let algorithm = keys["algorithm"].flatMap {
            enumValue($0.value, path.member("algorithm"), RateLimitRule.Algorithm.self)
        }
        let dialect = keys["headers"].flatMap {
            enumValue($0.value, path.member("headers"), RateLimitRule.HeaderDialect.self)
        }
        var rule = RateLimitRule(
            limit: limit, window: window, algorithm: algorithm ?? .slidingWindow, headers: dialect ?? .ietf)
        // GitHub's primary rate limit sends no `Retry-After`: its clients go by `X-RateLimit-Reset`.
        rule.retryAfter = format ?? (rule.headers == .github ? .none : .seconds)
        decodeRefusal(keys, path, into: &rule)
        guard errors.count == errorsBefore else { return nil }
        return rule
    }
}
