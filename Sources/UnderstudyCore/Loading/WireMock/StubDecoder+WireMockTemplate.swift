/// WireMock's `response-template` transformer, mapped onto native templates where a variable has
/// a direct equivalent; every other helper or variable is refused by name at its position.
extension StubDecoder {
    /// WireMock template names that mean the same in Understudy's vocabulary.
    static let wireMockTemplateNames = ["request.path", "request.url", "request.method", "request.body"]
    static let wireMockTemplatePrefixes = ["request.query.", "request.headers."]

    mutating func decodeWireMockTemplate(_ keys: ObjectMembers, _ response: inout StubResponse, _ path: JSONPath) {
        let errorsBefore = errors.count
        var native = ObjectMembers()
        if let member = keys["body"] {
            native["body"] = member
            checkWireMockTemplate(member.value, path.member("body"))
        }
        if let member = keys["jsonBody"] {
            native["json"] = member
            checkWireMockTemplate(member.value, path.member("jsonBody"))
        }
        if let member = keys["bodyFileName"] {
            native["bodyFile"] = member
            let text = String(decoding: response.body, as: UTF8.self)
            if let problem = Self.wireMockTemplateProblem(text) {
                fail(member.value.position, path.member("bodyFileName"), "in the body file: \(problem)")
            }
        }
        if let member = keys["headers"] {
            native["headers"] = member
            checkWireMockTemplate(member.value, path.member("headers"))
        }
        if let member = keys["base64Body"] {
            fail(
                member.keyPosition, path.member("base64Body"),
                "`response-template` renders text; a `base64Body` cannot be a template")
        }
        guard errors.count == errorsBefore else { return }
        response.template = decodeTemplate(native, response, path)
    }

    /// Every string under `node` (values and member names) may only use the mapped names.
    private mutating func checkWireMockTemplate(_ node: JSONNode, _ path: JSONPath) {
        switch node.kind {
        case .string(let text):
            if let problem = Self.wireMockTemplateProblem(text) { fail(node.position, path, problem) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { checkWireMockTemplate(element, path.element(index)) }
        case .object(let members):
            for member in members {
                if let problem = Self.wireMockTemplateProblem(member.key) {
                    fail(member.keyPosition, path.member(member.key), problem)
                }
                checkWireMockTemplate(member.value, path.member(member.key))
            }
        default:
            break
        }
    }

    /// The first tag that is not one of the directly mapped variables, as an error message.
    static func wireMockTemplateProblem(_ text: String) -> String? {
        guard TemplateText.hasTags(text) else { return nil }
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                return "unclosed `{{` in a WireMock template"
            }
            var tag = rest[open.upperBound..<close.lowerBound]
            if tag.hasPrefix("{") { tag = tag.dropFirst() }
            let name = String(tag).trimmingSpaces
            let mapped =
                wireMockTemplateNames.contains(name)
                || wireMockTemplatePrefixes.contains {
                    name.hasPrefix($0) && name.count > $0.count
                        && !name.dropFirst($0.count).contains(where: { $0 == " " || $0 == "." || $0 == "[" })
                }
            if !mapped {
                let helper = name.split(separator: " ").first.map(String.init) ?? name
                return
                    "WireMock template `{{\(name)}}` has no Understudy equivalent (`\(helper)`); `response-template` maps only "
                    + "`request.path`, `request.url`, `request.method`, `request.body`, `request.query.NAME` and `request.headers.NAME`"
            }
            rest = rest[close.upperBound...]
            if rest.hasPrefix("}") { rest = rest.dropFirst() }
        }
        return nil
    }
}
