import UnderstudyCore
import UnderstudyJSON
import UnderstudyJSONSchema

/// Refuses a key that no OpenAPI object has (`respones` in an Operation), located at the key, with a
/// suggestion.
///
/// OpenAPIKit refuses such keys too, but only while it decodes every object's vendor extensions,
/// which was 70 % of a `check` against a 3 MB spec; so the gate decodes without extensions and this
/// walk, over the raw document, does that part. Schemas are not walked: JSON Schema allows unknown
/// keywords, and OpenAPIKit accepts them too.
enum OpenAPIFieldCheck {
    /// Every unknown key in the OpenAPI objects of `root`, in document order.
    static func findings(in root: JSONNode, file: String, version: String) -> [OpenAPIFinding] {
        var walk = Walk(file: file, version: version, is31: !version.hasPrefix("3.0"))
        walk.visit(root, as: .document, pointer: "")
        return walk.findings
    }

    /// The OpenAPI objects whose fields are fixed.
    enum Object: String {
        case document = "OpenAPI Object"
        case info = "Info Object"
        case contact = "Contact Object"
        case license = "License Object"
        case server = "Server Object"
        case serverVariable = "Server Variable Object"
        case components = "Components Object"
        case paths = "Paths Object"
        case pathItem = "Path Item Object"
        case operation = "Operation Object"
        case externalDocs = "External Documentation Object"
        case parameter = "Parameter Object"
        case requestBody = "Request Body Object"
        case mediaType = "Media Type Object"
        case encoding = "Encoding Object"
        case responses = "Responses Object"
        case response = "Response Object"
        case callback = "Callback Object"
        case example = "Example Object"
        case link = "Link Object"
        case header = "Header Object"
        case tag = "Tag Object"
        case securityScheme = "Security Scheme Object"
        case oauthFlows = "OAuth Flows Object"
        case oauthFlow = "OAuth Flow Object"
    }

    /// What a field holds, as far as this check follows it.
    enum Field {
        /// A value this check does not look into (text, a schema, a security requirement).
        case value
        /// One object of a kind.
        case one(Object)
        /// An array of objects of a kind.
        case list(Object)
        /// An object whose every value is an object of a kind.
        case map(Object)
    }

    /// The fields of `object` in OpenAPI 3.1 (`is31`) or 3.0, from the specification's "Fixed Fields".
    static func fields(of object: Object, is31: Bool) -> [(String, Field)] {
        switch object {
        case .document:
            return [
                ("openapi", .value), ("info", .one(.info)), ("servers", .list(.server)), ("paths", .one(.paths)),
                ("components", .one(.components)), ("security", .value), ("tags", .list(.tag)),
                ("externalDocs", .one(.externalDocs)),
            ] + (is31 ? [("jsonSchemaDialect", .value), ("webhooks", .map(.pathItem))] : [])
        case .info:
            return [
                ("title", .value), ("description", .value), ("termsOfService", .value), ("contact", .one(.contact)),
                ("license", .one(.license)), ("version", .value),
            ] + (is31 ? [("summary", .value)] : [])
        case .contact:
            return [("name", .value), ("url", .value), ("email", .value)]
        case .license:
            return [("name", .value), ("url", .value)] + (is31 ? [("identifier", .value)] : [])
        case .server:
            return [("url", .value), ("description", .value), ("variables", .map(.serverVariable))]
        case .serverVariable:
            return [("enum", .value), ("default", .value), ("description", .value)]
        case .components:
            return [
                ("schemas", .value), ("responses", .map(.response)), ("parameters", .map(.parameter)),
                ("examples", .map(.example)), ("requestBodies", .map(.requestBody)), ("headers", .map(.header)),
                ("securitySchemes", .map(.securityScheme)), ("links", .map(.link)), ("callbacks", .map(.callback)),
            ] + (is31 ? [("pathItems", .map(.pathItem))] : [])
        case .paths, .responses, .callback:
            return []  // maps, walked by `visit`
        case .pathItem:
            return [
                ("$ref", .value), ("summary", .value), ("description", .value), ("servers", .list(.server)),
                ("parameters", .list(.parameter)),
            ] + ["get", "put", "post", "delete", "options", "head", "patch", "trace"].map { ($0, .one(.operation)) }
        case .operation:
            return [
                ("tags", .value), ("summary", .value), ("description", .value), ("externalDocs", .one(.externalDocs)),
                ("operationId", .value), ("parameters", .list(.parameter)), ("requestBody", .one(.requestBody)),
                ("responses", .one(.responses)), ("callbacks", .map(.callback)), ("deprecated", .value),
                ("security", .value), ("servers", .list(.server)),
            ]
        case .externalDocs:
            return [("description", .value), ("url", .value)]
        case .parameter, .header:
            return (object == .parameter ? [("name", .value), ("in", .value)] : []) + [
                ("description", .value), ("required", .value), ("deprecated", .value), ("allowEmptyValue", .value),
                ("style", .value), ("explode", .value), ("allowReserved", .value), ("schema", .value),
                ("example", .value), ("examples", .map(.example)), ("content", .map(.mediaType)),
            ]
        case .requestBody:
            return [("description", .value), ("content", .map(.mediaType)), ("required", .value)]
        case .mediaType:
            return [
                ("schema", .value), ("example", .value), ("examples", .map(.example)), ("encoding", .map(.encoding)),
            ]
        case .encoding:
            return [
                ("contentType", .value), ("headers", .map(.header)), ("style", .value), ("explode", .value),
                ("allowReserved", .value),
            ]
        case .response:
            return [
                ("description", .value), ("headers", .map(.header)), ("content", .map(.mediaType)),
                ("links", .map(.link)),
            ]
        case .example:
            return [("summary", .value), ("description", .value), ("value", .value), ("externalValue", .value)]
        case .link:
            return [
                ("operationRef", .value), ("operationId", .value), ("parameters", .value), ("requestBody", .value),
                ("description", .value), ("server", .one(.server)),
            ]
        case .tag:
            return [("name", .value), ("description", .value), ("externalDocs", .one(.externalDocs))]
        case .securityScheme:
            return [
                ("type", .value), ("description", .value), ("name", .value), ("in", .value), ("scheme", .value),
                ("bearerFormat", .value), ("flows", .one(.oauthFlows)), ("openIdConnectUrl", .value),
            ]
        case .oauthFlows:
            return ["implicit", "password", "clientCredentials", "authorizationCode"].map { ($0, .one(.oauthFlow)) }
        case .oauthFlow:
            return [("authorizationUrl", .value), ("tokenUrl", .value), ("refreshUrl", .value), ("scopes", .value)]
        }
    }

    private struct Walk {
        let file: String
        let version: String
        let is31: Bool
        var findings: [OpenAPIFinding] = []

        mutating func visit(_ node: JSONNode, as object: Object, pointer: String) {
            // Anything not an object is the gate's to refuse; a reference is followed by the loader.
            guard let members = node.members, !members.contains(where: { $0.key == "$ref" }) || object == .pathItem
            else { return }
            switch object {
            case .paths, .callback:
                for member in members where !member.key.hasPrefix("x-") {
                    visit(member.value, as: .pathItem, pointer: pointer + "/" + JSONPointer.escape(member.key))
                }
                return
            case .responses:
                for member in members where !member.key.hasPrefix("x-") {
                    visit(member.value, as: .response, pointer: pointer + "/" + JSONPointer.escape(member.key))
                }
                return
            default:
                break
            }
            let fields = OpenAPIFieldCheck.fields(of: object, is31: is31)
            for member in members where !member.key.hasPrefix("x-") {
                let memberPointer = pointer + "/" + JSONPointer.escape(member.key)
                guard let field = fields.first(where: { $0.0 == member.key })?.1 else {
                    unknown(member, in: object, names: fields.map(\.0), pointer: memberPointer)
                    continue
                }
                switch field {
                case .value:
                    break
                case .one(let child):
                    visit(member.value, as: child, pointer: memberPointer)
                case .list(let child):
                    for (index, item) in (member.value.elements ?? []).enumerated() {
                        visit(item, as: child, pointer: memberPointer + "/\(index)")
                    }
                case .map(let child):
                    for entry in member.value.members ?? [] where !entry.key.hasPrefix("x-") {
                        visit(entry.value, as: child, pointer: memberPointer + "/" + JSONPointer.escape(entry.key))
                    }
                }
            }
        }

        private mutating func unknown(_ member: JSONNode.Member, in object: Object, names: [String], pointer: String) {
            let hint = EditDistance.closest(to: member.key, among: names).map { "did you mean `\($0)`? " } ?? ""
            findings.append(
                OpenAPIFinding(
                    file: file, line: member.keyPosition.line, column: member.keyPosition.column,
                    specPointer: file + "#" + pointer,
                    message: "not a valid OpenAPI \(version) document: `\(member.key)` is not a field of an "
                        + "\(object.rawValue); \(hint)(an extension's name starts with `x-`)"))
        }
    }
}
