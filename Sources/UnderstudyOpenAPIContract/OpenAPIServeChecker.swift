#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyJSON
import UnderstudyJSONSchema

/// `serve --openapi`: holds every request, and every stub's answer, to an ``OpenAPIContract``.
/// A request must reach an operation (method and path after a `servers` base path), carry its
/// required path, query, header and cookie parameters with values their schemas accept, and a
/// body the operation declares (its media type, and for JSON, valid against the schema). An
/// answer must have a declared status, its required headers, a declared media type and a JSON
/// body valid against the schema. The engine journals what is found and, with
/// ``refusesViolations``, refuses (see `StubEngine+Contract.swift`).
///
/// Driven by the engine's thread, like the engine (sessions share it: one event loop).
public final class OpenAPIServeChecker: ContractChecking {
    /// The contract requests and answers are held to.
    public let contract: OpenAPIContract
    /// `--openapi-mode fail`: violations refuse; `warn`: they are reported only.
    public let refusesViolations: Bool
    private let requestValidator: JSONSchemaValidator
    private let responseValidator: JSONSchemaValidator

    /// A checker for `contract`; `refusesViolations` is `--openapi-mode fail`.
    public init(contract: OpenAPIContract, refusesViolations: Bool) {
        self.contract = contract
        self.refusesViolations = refusesViolations
        requestValidator = contract.validator(direction: .request, strictExtraFields: false)
        responseValidator = contract.validator(direction: .response, strictExtraFields: false)
    }

    // MARK: - Requests

    /// How `request` breaks the contract (empty when it keeps it).
    public func violations(in request: HTTPRequest) -> [ContractViolation] {
        let documents = contract.documents
        let path = Self.percentDecoded(request.path)
        let (rest, byPath) = contract.operations(forPath: path)
        guard !byPath.isEmpty else {
            return [
                ContractViolation(
                    location: "request.path", pointer: documents.label("", "#/paths"),
                    message: "no path of the spec matches \(path)")
            ]
        }
        guard let operation = Self.operation(for: request.method, in: byPath) else {
            let declared = Set(byPath.map(\.method)).sorted().joined(separator: ", ")
            return [
                ContractViolation(
                    location: "request.method",
                    pointer: documents.label("", "#/paths/" + JSONPointer.escape(byPath[0].path)),
                    message: "\(byPath[0].path) has no \(request.method) operation (it declares \(declared))")
            ]
        }
        var found: [ContractViolation] = []
        checkParameters(request, operation, pathValues: operation.pathParameterValues(rest), into: &found)
        checkBody(request, operation, into: &found)
        return found
    }

    /// The operation for `method`; HEAD falls back to GET (a server answers HEAD as GET without the body).
    static func operation(for method: String, in operations: [OpenAPIOperation]) -> OpenAPIOperation? {
        let upper = method.uppercased()
        return operations.first { $0.method == upper }
            ?? (upper == "HEAD" ? operations.first { $0.method == "GET" } : nil)
    }

    private func checkParameters(
        _ request: HTTPRequest, _ operation: OpenAPIOperation, pathValues: [String: String],
        into found: inout [ContractViolation]
    ) {
        let documents = contract.documents
        let query = Self.queryItems(request.query)
        let cookies = Self.cookies(request.headers.values(for: "Cookie"))
        for (index, parameter) in operation.parameters.enumerated() {
            guard let name = parameter["name"]?.stringValue, let place = parameter["in"]?.stringValue else { continue }
            let location = operation.parameterLocations[index]
            let values: [String]
            switch place {
            case "query":
                values = query.filter { $0.name == name }.map(\.value)
            case "header":
                // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
                if ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
                values = request.headers.values(for: name)
            case "path":
                values = pathValues[name].map { [Self.percentDecoded($0)] } ?? []
            case "cookie":
                values = cookies.filter { $0.name == name }.map(\.value)
            default:
                continue
            }
            let label = "request.\(place).\(name)"
            if values.isEmpty {
                if parameter["required"] == .bool(true) {
                    found.append(
                        ContractViolation(
                            location: label,
                            pointer: documents.label(location.document, location.pointer + "/required"),
                            message: "required \(place) parameter `\(name)` is missing"))
                }
                continue
            }
            guard let schema = parameter["schema"] else { continue }
            let schemaPointer = location.pointer + "/schema"
            let resolved = documents.dereference(schema, document: location.document, pointer: schemaPointer)
            let instance = Self.coerce(values, to: resolved.schema, documents, resolved.document)
            let outcome = requestValidator.validate(instance, against: schema, at: schemaPointer, in: location.document)
            for violation in outcome.violations {
                let shown = values.count == 1 ? "`\(values[0])`" : "`\(values.joined(separator: "`, `"))`"
                let at = violation.instancePath.isEmpty ? "" : violation.instancePathText + ": "
                found.append(
                    ContractViolation(
                        location: label,
                        pointer: documents.label(violation.schemaDocument, violation.schemaPointer),
                        message: "\(shown): \(at)\(violation.message)"))
            }
        }
    }

    private func checkBody(_ request: HTTPRequest, _ operation: OpenAPIOperation, into found: inout [ContractViolation])
    {
        let documents = contract.documents
        let bodyPointer = operation.pointer + "/requestBody"
        guard let declared = operation.operation["requestBody"] else {
            if !request.body.isEmpty {
                found.append(
                    ContractViolation(
                        location: "request.body", pointer: documents.label("", operation.pointer),
                        message: "\(operation.method) \(operation.path) declares no request body, but one was sent"))
            }
            return
        }
        let requestBody = documents.dereference(declared, document: "", pointer: bodyPointer)
        if request.body.isEmpty {
            if requestBody.schema["required"] == .bool(true) {
                found.append(
                    ContractViolation(
                        location: "request.body",
                        pointer: documents.label(requestBody.document, requestBody.pointer + "/required"),
                        message: "a request body is required"))
            }
            return
        }
        let contentPointer = requestBody.pointer + "/content"
        guard case .object(let content)? = requestBody.schema["content"], !content.isEmpty else { return }
        let declaredTypes = content.map { OpenAPIContract.mediaType($0.key) }
        let sent = request.headers["Content-Type"].map(OpenAPIContract.mediaType)
        guard let chosen = OpenAPIContract.chosenMediaType(sent: sent, declared: declaredTypes) else {
            found.append(
                ContractViolation(
                    location: "request.header.Content-Type",
                    pointer: documents.label(requestBody.document, contentPointer),
                    message: "\(sent.map { "media type \($0) is" } ?? "a body without a Content-Type is") not declared "
                        + "(it declares \(declaredTypes.joined(separator: ", ")))"))
            return
        }
        let media = documents.dereference(
            content[chosen].value, document: requestBody.document,
            pointer: contentPointer + "/" + JSONPointer.escape(content[chosen].key))
        checkJSON(
            request.body, mediaType: declaredTypes[chosen], sent: sent, media: media, location: "request.body",
            validator: requestValidator, into: &found)
    }

    /// Validates a JSON body against `media`'s schema (when the media type is JSON and has one).
    private func checkJSON(
        _ body: [UInt8], mediaType: String, sent: String?, media: ResolvedSchema, location: String,
        validator: JSONSchemaValidator, into found: inout [ContractViolation]
    ) {
        let documents = contract.documents
        guard OpenAPIContract.isJSON(mediaType) || (sent.map(OpenAPIContract.isJSON) ?? false),
            let schema = media.schema["schema"]
        else { return }
        let instance: JSONValue
        do {
            instance = try JSONParser.parse(body).value
        } catch {
            found.append(
                ContractViolation(
                    location: location, pointer: documents.label(media.document, media.pointer),
                    message: "the body is not JSON (\(error.message) at line \(error.position.line), column "
                        + "\(error.position.column)), but \(mediaType) is declared with a schema"))
            return
        }
        let outcome = validator.validate(instance, against: schema, at: media.pointer + "/schema", in: media.document)
        for violation in outcome.violations {
            found.append(
                ContractViolation(
                    location: location, pointer: documents.label(violation.schemaDocument, violation.schemaPointer),
                    message: "\(violation.instancePathText): \(violation.message)"))
        }
    }

    // MARK: - Answers

    /// How a stub's answer to `request` breaks the contract (empty when it keeps it). An answer
    /// to a request that reaches no operation is not checked: the request was reported.
    public func violations(in response: HTTPResponse, answering request: HTTPRequest) -> [ContractViolation] {
        let documents = contract.documents
        let (_, byPath) = contract.operations(forPath: Self.percentDecoded(request.path))
        guard let operation = Self.operation(for: request.method, in: byPath),
            case .object(let declared)? = operation.responses
        else { return [] }
        let responsesPointer = operation.pointer + "/responses"
        guard let entry = OpenAPIContract.declaredResponse(for: response.status, in: declared) else {
            return [
                ContractViolation(
                    location: "response.status", pointer: documents.label("", responsesPointer),
                    message: "status \(response.status) is not declared for \(operation.method) \(operation.path) "
                        + "(it declares \(declared.map(\.key).joined(separator: ", ")))")
            ]
        }
        let resolved = documents.dereference(
            entry.value, document: "", pointer: responsesPointer + "/" + JSONPointer.escape(entry.key))
        var found: [ContractViolation] = []
        if case .object(let headers)? = resolved.schema["headers"] {
            for header in headers where header.key.lowercased() != "content-type" {
                let pointer = resolved.pointer + "/headers/" + JSONPointer.escape(header.key)
                let definition = documents.dereference(header.value, document: resolved.document, pointer: pointer)
                if definition.schema["required"] == .bool(true), !response.headers.contains(header.key) {
                    found.append(
                        ContractViolation(
                            location: "response.header.\(header.key)",
                            pointer: documents.label(definition.document, definition.pointer),
                            message: "required response header `\(header.key)` is missing"))
                }
            }
        }
        // A paced body (server-sent events, a dribble) is sent as it is; its bytes are not one JSON value.
        guard !response.body.isEmpty, response.streaming == nil else { return found }
        let contentPointer = resolved.pointer + "/content"
        guard case .object(let content)? = resolved.schema["content"], !content.isEmpty else {
            found.append(
                ContractViolation(
                    location: "response.body", pointer: documents.label(resolved.document, resolved.pointer),
                    message: "the stub sends a body, but status \(entry.key) of \(operation.method) \(operation.path) "
                        + "declares none"))
            return found
        }
        let declaredTypes = content.map { OpenAPIContract.mediaType($0.key) }
        let sent = response.headers["Content-Type"].map(OpenAPIContract.mediaType)
        guard let chosen = OpenAPIContract.chosenMediaType(sent: sent, declared: declaredTypes) else {
            found.append(
                ContractViolation(
                    location: "response.header.Content-Type",
                    pointer: documents.label(resolved.document, contentPointer),
                    message: "\(sent.map { "media type \($0) is" } ?? "a body without a Content-Type is") not declared "
                        + "for status \(entry.key) of \(operation.method) \(operation.path) "
                        + "(it declares \(declaredTypes.joined(separator: ", ")))"))
            return found
        }
        let media = documents.dereference(
            content[chosen].value, document: resolved.document,
            pointer: contentPointer + "/" + JSONPointer.escape(content[chosen].key))
        checkJSON(
            response.body, mediaType: declaredTypes[chosen], sent: sent, media: media, location: "response.body",
            validator: responseValidator, into: &found)
        return found
    }

    // MARK: - Reading the request

    /// A parameter's text as the value its schema expects: a number or boolean when the schema's
    /// `type` says so and the text is one (else the string, which the schema then refuses with
    /// "expected integer, found string"), an array for `type: array` (repeated names, or one
    /// comma-separated value), else the string.
    static func coerce(_ values: [String], to schema: JSONValue, _ documents: OpenAPIDocuments, _ document: String)
        -> JSONValue
    {
        let type = declaredType(schema)
        if type == "array" {
            let items =
                values.count == 1
                ? values[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : values
            let itemSchema = schema["items"].map { documents.dereference($0, document: document, pointer: "#").schema }
            return .array(items.map { scalar($0, type: itemSchema.flatMap(declaredType)) })
        }
        return scalar(values[0], type: type)
    }

    private static func scalar(_ text: String, type: String?) -> JSONValue {
        switch type {
        case "integer", "number":
            if let node = try? JSONParser.parse(Array(text.utf8)), case .number(let number) = node.value {
                return .number(number)
            }
        case "boolean":
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        default:
            break
        }
        return .string(text)
    }

    /// The schema's `type` (the first that is not `null` when it lists several, as 3.1 may).
    private static func declaredType(_ schema: JSONValue) -> String? {
        switch schema["type"] {
        case .string(let type)?: return type
        case .array(let types)?: return types.compactMap(\.stringValue).first { $0 != "null" }
        default: return nil
        }
    }

    /// `a=1&b=x%20y&c` → `[(a, 1), (b, x y), (c, "")]` (`+` is a space, as forms write it).
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in percentDecoded(String(text.replacing("+", with: " "))) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `Cookie: a=1; b=2` headers as name-value pairs.
    static func cookies(_ headers: [String]) -> [(name: String, value: String)] {
        headers.flatMap { header in
            header.split(separator: ";").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = OpenAPIContract.trimmed(parts[0])
                return (name, parts.count > 1 ? OpenAPIContract.trimmed(parts[1]) : "")
            }
        }
    }

    /// `%XX` decoded (an invalid sequence is kept as written).
    static func percentDecoded(_ text: String) -> String {
        text.removingPercentEncoding()
    }
}
