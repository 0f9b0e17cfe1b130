import UnderstudyStubFormat

/// The compile step: the one place a native stub's JSON becomes the engine's ``Stub``.
///
/// Every source of native stubs reaches it as the format's value, ``StubDefinition`` (the stub
/// object as written, with its positions): the loader splits a stub file, a body posted to
/// `POST /__admin/stubs` and a session's `stubs` into definitions
/// (``StubDecoder/definitions(in:)``), and a test kit builder gives its own (`Stub.definition`).
/// Compiling checks every key and value while it builds the runtime stub, collecting every error
/// with file, line, column, JSON path and, for a typo, the key meant. The parts of a stub are read
/// by ``StubDecoder``'s readers (`StubDecoder+Request.swift`, `+Response`, `+Matchers`,
/// `+RateLimit`, ...); a new stub field is read here or in one of them.
public enum StubCompiler {
    /// Compiles one definition on its own (a builder's, say): the runtime stub, or every error in
    /// it, positioned as its definition is. A built stub cannot use `bodyFile` (it has no stub
    /// file for the path to be relative to).
    public static func compile(_ definition: StubDefinition) throws(StubLoadFailure) -> Stub {
        var decoder = StubDecoder(file: definition.file, bodyFiles: nil)
        let compiled = compile(definition, with: &decoder)
        guard let stub = compiled?.stub, decoder.errors.isEmpty else {
            throw StubLoadFailure(errors: decoder.errors)
        }
        return stub
    }

    /// Compiles the definitions of one document with that document's decoder (its file and
    /// body-file resolver), which collects the errors. Every stub with an id is returned, those with
    /// errors without their runtime stub, so their ids still count in the duplicate-id check.
    static func compile(_ definitions: [StubDefinition], with decoder: inout StubDecoder) -> [DecodedStub] {
        var compiled: [DecodedStub] = []
        compiled.reserveCapacity(definitions.count)
        for definition in definitions {
            if let stub = compile(definition, with: &decoder) { compiled.append(stub) }
        }
        return compiled
    }

    /// Compiles one definition; a stub without an `id` is named `<file>#<index>`.
    static func compile(_ definition: StubDefinition, with decoder: inout StubDecoder) -> DecodedStub? {
        decoder.compileStub(definition.node, definition.path, generatedID: "\(definition.file)#\(definition.index)")
    }
}

/// A stub's own keys, read by the compile step; its parts go to the part readers.
extension StubDecoder {
    /// Compiles one stub's node at `path`. `nil` only when the stub is not an object or its `id`
    /// is invalid: then there is no id to check for duplicates.
    fileprivate mutating func compileStub(_ node: JSONNode, _ path: JSONPath, generatedID: String) -> DecodedStub? {
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

        let idempotency = keys["idempotency"].flatMap { decodeIdempotency($0.value, path.member("idempotency")) }

        let earlyRetries = keys["earlyRetries"].flatMap {
            enumValue($0.value, path.member("earlyRetries"), EarlyRetries.self)
        }

        let openAPISkip = keys["openapi"].flatMap { decodeOpenAPISkip($0.value, path.member("openapi")) }

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
        stub.openAPISkip = openAPISkip
        stub.idempotency = idempotency
        stub.earlyRetries = earlyRetries
        return DecodedStub(stub: stub, id: id, idGenerated: idGenerated, file: file, idPosition: idPosition, path: path)
    }

    /// `openapi: {"skip": "why"}`: the reason (``Stub/openAPISkip``); the engine serves the stub alike.
    private mutating func decodeOpenAPISkip(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard node.members != nil else {
            typeMismatch(node, path, expected: "an object like {\"skip\": \"why this stub is off-spec\"}")
            return nil
        }
        let keys = members(
            of: node, path, known: ["skip"],
            required: [RequiredKey(key: "skip", why: "say why the stub is left out of the OpenAPI check")])
        guard let member = keys["skip"] else { return nil }
        return nonEmptyString(member.value, path.member("skip"), what: "a reason")
    }
}
