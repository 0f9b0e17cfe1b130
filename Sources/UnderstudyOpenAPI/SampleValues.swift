import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyOpenAPIContract
import UnderstudyRegex

/// Small values a schema accepts, for generated stubs: required properties only, each from its
/// `const`, `enum`, `example` (when `useExamples`), `default`, or its type and constraints
/// (`pattern`, `format`, `minLength`/`maxLength`, numeric bounds and `multipleOf`, `minItems`).
/// The generator does its best; ``StubGenerator`` has the schema validator judge the result.
struct SampleValues {
    let spec: OpenAPISpec
    /// Whether the spec's own `example`, `examples` and `default` are used before generating.
    var useExamples = true

    /// A value `schema` (in `document`) accepts; `variant` makes sibling array items differ.
    func value(_ schema: JSONValue, document: String, depth: Int = 0, variant: Int = 0) -> JSONValue {
        guard depth < 12 else { return .null }
        if case .string(let reference)? = schema["$ref"], let target = spec.documents.resolve(reference, from: document)
        {
            return value(target.schema, document: target.document, depth: depth + 1, variant: variant)
        }
        if let value = schema["const"] { return value }
        if case .array(let values)? = schema["enum"], !values.isEmpty {
            return values[variant % values.count]
        }
        if useExamples, variant == 0 {
            if let example = schema["example"] { return example }
            if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
            if let value = schema["default"] { return value }
        }
        if case .array(let branches)? = schema["allOf"] {
            // One schema with every branch's keywords: properties and `required` pooled, the
            // first value of any other keyword kept.
            var merged = schema.objectMembers.filter { $0.key != "allOf" }
            var mergedDocument = document
            for branch in branches {
                let resolved = resolve(branch, document: document, depth: depth)
                mergedDocument = resolved.document
                merge(resolved.schema.objectMembers, into: &merged)
            }
            return value(.object(merged), document: mergedDocument, depth: depth + 1, variant: variant)
        }
        for keyword in ["oneOf", "anyOf"] {
            if case .array(let branches)? = schema[keyword], let first = branches.first {
                return value(first, document: document, depth: depth + 1, variant: variant)
            }
        }
        switch Self.type(of: schema) {
        case "object":
            return object(schema, document: document, depth: depth)
        case "array":
            return array(schema, document: document, depth: depth)
        case "integer":
            return number(schema, integer: true, variant: variant)
        case "number":
            return number(schema, integer: false, variant: variant)
        case "boolean":
            return .bool(variant % 2 == 1)
        case "null":
            return .null
        case "string":
            return .string(string(schema, variant: variant))
        default:
            return .object([])
        }
    }

    /// The schema's type: its `type` (the first that is not `null`), else what its keywords imply.
    static func type(of schema: JSONValue) -> String? {
        if case .string(let type)? = schema["type"] { return type }
        if case .array(let types)? = schema["type"] {
            return types.compactMap(\.stringValue).first { $0 != "null" } ?? "null"
        }
        if schema["properties"] != nil || schema["required"] != nil || schema["additionalProperties"] != nil {
            return "object"
        }
        if schema["items"] != nil || schema["prefixItems"] != nil || schema["minItems"] != nil { return "array" }
        if schema["pattern"] != nil || schema["format"] != nil || schema["minLength"] != nil
            || schema["maxLength"] != nil
        {
            return "string"
        }
        if schema["minimum"] != nil || schema["maximum"] != nil || schema["multipleOf"] != nil
            || schema["exclusiveMinimum"] != nil || schema["exclusiveMaximum"] != nil
        {
            return "number"
        }
        return nil
    }

    private func resolve(_ schema: JSONValue, document: String, depth: Int) -> (schema: JSONValue, document: String) {
        var current = (schema: schema, document: document)
        for _ in 0..<12 {
            guard case .string(let reference)? = current.schema["$ref"],
                let target = spec.documents.resolve(reference, from: current.document)
            else { break }
            current = (target.schema, target.document)
        }
        return current
    }

    private func merge(_ members: [JSONMember], into merged: inout [JSONMember]) {
        for member in members {
            guard let index = merged.firstIndex(where: { $0.key == member.key }) else {
                merged.append(member)
                continue
            }
            switch (member.key, merged[index].value, member.value) {
            case ("properties", .object(let old), .object(let new)):
                merged[index].value = .object(old + new.filter { item in !old.contains { $0.key == item.key } })
            case ("required", .array(let old), .array(let new)):
                merged[index].value = .array(old + new.filter { !old.contains($0) })
            default:
                break
            }
        }
    }

    private func object(_ schema: JSONValue, document: String, depth: Int) -> JSONValue {
        var members: [JSONMember] = []
        guard case .array(let required)? = schema["required"] else { return .object([]) }
        for case .string(let name) in required {
            var property = schema["properties"]?[name]
            if property == nil, case .object? = schema["additionalProperties"] {
                property = schema["additionalProperties"]
            }
            let resolved = resolve(property ?? .object([]), document: document, depth: depth)
            if resolved.schema["writeOnly"] == .bool(true) { continue }
            members.append(
                JSONMember(name, value(property ?? .object([]), document: document, depth: depth + 1)))
        }
        return .object(members)
    }

    private func array(_ schema: JSONValue, document: String, depth: Int) -> JSONValue {
        var items: [JSONValue] = []
        if case .array(let prefix)? = schema["prefixItems"] {
            for (index, item) in prefix.enumerated() {
                items.append(value(item, document: document, depth: depth + 1, variant: index))
            }
        }
        let count = Int(schema["minItems"]?.doubleValue ?? 0)
        if items.count < count {
            let itemSchema: JSONValue
            if let items = schema["items"], case .object = items {
                itemSchema = items
            } else {
                itemSchema = .object([])
            }
            for index in items.count..<count {
                // Distinct items, so `uniqueItems` holds where the item schema allows.
                items.append(value(itemSchema, document: document, depth: depth + 1, variant: index))
            }
        }
        return .array(items)
    }

    /// The number nearest 0 (`variant` steps above it) within the bounds and a multiple of `multipleOf`.
    private func number(_ schema: JSONValue, integer: Bool, variant: Int) -> JSONValue {
        var low = schema["minimum"]?.doubleValue
        var high = schema["maximum"]?.doubleValue
        var lowOpen = false, highOpen = false
        switch schema["exclusiveMinimum"] {
        case .bool(true)?: lowOpen = low != nil  // OpenAPI 3.0: `minimum` is exclusive
        case let value? where value.doubleValue != nil:
            if low == nil || value.doubleValue! >= low! { (low, lowOpen) = (value.doubleValue, true) }
        default: break
        }
        switch schema["exclusiveMaximum"] {
        case .bool(true)?: highOpen = high != nil
        case let value? where value.doubleValue != nil:
            if high == nil || value.doubleValue! <= high! { (high, highOpen) = (value.doubleValue, true) }
        default: break
        }
        let step = schema["multipleOf"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil } ?? 1
        // An integer schema with a fractional `multipleOf` (0.5) steps by its least whole multiple.
        let unit =
            integer && step.rounded() != step
            ? (1...1000).lazy.map { Double($0) * step }.first { $0.rounded() == $0 } ?? step : step
        // The least multiple of `unit` above the lower bound (or 0 when 0 is allowed).
        var start: Double
        if let low, low > 0 || (low == 0 && lowOpen) {
            start = (low / unit).rounded(.up) * unit
            if lowOpen && start <= low { start += unit }
        } else if let high, high < 0 || (high == 0 && highOpen) {
            start = (high / unit).rounded(.down) * unit
            if highOpen && start >= high { start -= unit }
        } else {
            start = 0
        }
        if integer { start = start.rounded(.up) }
        var candidate = start + Double(variant) * unit
        if let high, candidate > high || (highOpen && candidate >= high) { candidate = start }
        return .number(Self.format(candidate, integer: integer))
    }

    static func format(_ value: Double, integer: Bool) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// A string satisfying `pattern`, `format` and the length limits as far as the generator can.
    private func string(_ schema: JSONValue, variant: Int) -> String {
        let minimum = Int(schema["minLength"]?.doubleValue ?? 0)
        let maximum = schema["maxLength"]?.doubleValue.map { Int($0) }
        if case .string(let pattern)? = schema["pattern"], let regex = try? CompiledRegex(pattern),
            let sample = regex.sample(minimumLength: minimum)
        {
            return sample
        }
        if let formatted = Self.formatted(schema["format"]?.stringValue, variant: variant) { return formatted }
        var text = variant == 0 ? "x" : "x\(variant)"
        if text.count < minimum { text += String(repeating: "x", count: minimum - text.count) }
        if let maximum, text.count > maximum { text = String(text.prefix(maximum)) }
        return text
    }

    /// A value of a known `format`, or `nil` for one this generator does not know.
    static func formatted(_ format: String?, variant: Int) -> String? {
        let n = variant % 9
        switch format {
        case "date-time": return "2024-01-0\(n + 1)T00:00:00Z"
        case "date": return "2024-01-0\(n + 1)"
        case "time": return "00:00:0\(n)Z"
        case "duration": return "P\(n + 1)D"
        case "uuid": return "00000000-0000-4000-8000-00000000000\(n)"
        case "email", "idn-email": return "someone\(variant == 0 ? "" : String(variant))@example.com"
        case "hostname", "idn-hostname": return "host\(variant == 0 ? "" : String(variant)).example.com"
        case "ipv4": return "192.0.2.\(n + 1)"
        case "ipv6": return "2001:db8::\(n + 1)"
        case "uri", "url", "iri": return "https://example.com/\(variant == 0 ? "" : String(variant))"
        case "uri-reference", "iri-reference", "json-pointer": return "/x\(variant == 0 ? "" : String(variant))"
        case "uri-template": return "https://example.com/{id}"
        case "relative-json-pointer": return "\(n)"
        case "regex": return "^x$"
        case "byte": return ["eA==", "eDE=", "eDI=", "eDM=", "eDQ=", "eDU=", "eDY=", "eDc=", "eDg=", "eDk="][n]
        case "int32", "int64": return "\(variant)"
        case "float", "double": return "\(variant).5"
        default: return nil
        }
    }
}

extension JSONValue {
    /// An object's members; `[]` for anything else.
    var objectMembers: [JSONMember] {
        if case .object(let members) = self { return members }
        return []
    }
}
