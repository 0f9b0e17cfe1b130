import UnderstudyJSON
import UnderstudyRegex

/// Validates JSON values against JSON Schema draft 2020-12 (the vocabulary OpenAPI 3.1 uses) or
/// OpenAPI 3.0's schema object, reporting every violation with the instance path and the schema
/// pointer of the failing keyword.
///
/// Supported: `type`, `enum`, `const`, the numeric, string, array and object limits, `pattern`
/// (Understudy's linear-time regex engine: no lookaround or backreferences), `required`,
/// `dependentRequired`, `properties`, `patternProperties`, `additionalProperties`, `propertyNames`,
/// `prefixItems`, `items`, `contains`/`minContains`/`maxContains`, `uniqueItems`, `allOf`, `anyOf`,
/// `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`, `$ref` (JSON pointers, across documents
/// through a ``SchemaResolving``), and 3.0's `nullable` and boolean exclusive limits. `format` is an
/// annotation (as in the draft's default); names outside the known list are reported as warnings.
/// Not supported: `unevaluatedProperties`, `unevaluatedItems`, `$dynamicRef`, and `$id`/`$anchor`
/// based resolution (listed in ``unsupportedKeywords`` when met).
public struct JSONSchemaValidator: Sendable {
    /// The schema language.
    public var dialect: SchemaDialect
    /// Direction and strictness.
    public var options: SchemaOptions
    /// Finds `$ref` targets.
    public var resolver: any SchemaResolving

    /// The `format` values JSON Schema and OpenAPI define; others are warned about.
    public static let knownFormats: Set<String> = [
        "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
        "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
        "relative-json-pointer", "regex", "int32", "int64", "float", "double", "byte", "binary", "password",
    ]

    /// Keywords this validator does not evaluate; meeting one is a warning, never a silent pass.
    public static let unsupportedKeywords: Set<String> = [
        "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef",
    ]

    /// A validator.
    public init(dialect: SchemaDialect, options: SchemaOptions = SchemaOptions(), resolver: any SchemaResolving) {
        self.dialect = dialect
        self.options = options
        self.resolver = resolver
    }

    /// What one validation found.
    public struct Outcome: Sendable {
        /// Every violation, in instance order.
        public var violations: [SchemaViolation] = []
        /// Unknown formats and unsupported keywords met (each once).
        public var warnings: [String] = []
        /// Whether the instance is valid.
        public var isValid: Bool { violations.isEmpty }
    }

    /// Validates `instance` against `schema`, which sits at `pointer` in `document`.
    public func validate(
        _ instance: JSONValue, against schema: JSONValue, at pointer: String = "#",
        in document: String = ""
    ) -> Outcome {
        var run = Run(validator: self)
        run.validate(instance, [], schema, SchemaLocation(document: document, pointer: pointer), depth: 0)
        var outcome = Outcome()
        outcome.violations = run.violations
        outcome.warnings = run.warnings
        return outcome
    }

    /// Whether `instance` is valid (stops at nothing, but keeps no messages).
    public func isValid(
        _ instance: JSONValue, against schema: JSONValue, at pointer: String = "#",
        in document: String = ""
    ) -> Bool {
        validate(instance, against: schema, at: pointer, in: document).isValid
    }
}

/// Where a schema is: its document and pointer.
struct SchemaLocation {
    var document: String
    var pointer: String

    func appending(_ tokens: String...) -> SchemaLocation {
        var text = pointer
        for token in tokens { text += "/" + JSONPointer.escape(token) }
        return SchemaLocation(document: document, pointer: text)
    }
}

/// One validation's state.
struct Run {
    let validator: JSONSchemaValidator
    var violations: [SchemaViolation] = []
    var warnings: [String] = []
    private var warned: Set<String> = []

    /// `$ref` chains deeper than this are refused (a schema that refers to itself without consuming
    /// the instance would otherwise never end).
    static let maxDepth = 256

    init(validator: JSONSchemaValidator) {
        self.validator = validator
    }

    private var is30: Bool { validator.dialect == .openAPI30 }

    mutating func fail(_ path: [InstanceStep], _ location: SchemaLocation, _ message: String) {
        violations.append(
            SchemaViolation(
                instancePath: path, schemaPointer: location.pointer, schemaDocument: location.document,
                message: message))
    }

    mutating func warn(_ text: String) {
        if warned.insert(text).inserted { warnings.append(text) }
    }

    /// Runs a subschema on its own and returns its violations without recording them.
    mutating func trial(
        _ instance: JSONValue, _ path: [InstanceStep], _ schema: JSONValue, _ location: SchemaLocation,
        depth: Int
    ) -> [SchemaViolation] {
        let saved = violations
        violations = []
        validate(instance, path, schema, location, depth: depth)
        let found = violations
        violations = saved
        return found
    }

    mutating func validate(
        _ instance: JSONValue, _ path: [InstanceStep], _ schema: JSONValue, _ location: SchemaLocation,
        depth: Int
    ) {
        guard depth < Self.maxDepth else {
            fail(path, location, "schema nesting deeper than \(Self.maxDepth) (a $ref cycle?)")
            return
        }
        switch schema {
        case .bool(true): return
        case .bool(false):
            fail(path, location, "no value is allowed here (schema `false`)")
            return
        case .object(let members):
            validateObjectSchema(instance, path, members, schema, location, depth: depth)
        default:
            return  // not a schema: nothing to check (the spec's own validity is OpenAPIKit's to judge)
        }
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    private mutating func validateObjectSchema(
        _ instance: JSONValue, _ path: [InstanceStep], _ members: [JSONMember],
        _ schema: JSONValue, _ location: SchemaLocation, depth: Int
    ) {
        if case .string(let reference)? = schema["$ref"] {
            let refLocation = location.appending("$ref")
            if let target = validator.resolver.resolve(reference, from: location.document) {
                validate(
                    instance, path, target.schema, SchemaLocation(document: target.document, pointer: target.pointer),
                    depth: depth + 1)
            } else {
                fail(path, refLocation, "`$ref` \(reference) names no schema")
            }
            // In OpenAPI 3.0 (and JSON Schema before 2019-09) `$ref` replaces its siblings.
            if is30 { return }
        }
        for member in members where JSONSchemaValidator.unsupportedKeywords.contains(member.key) {
            warn(
                "keyword `\(member.key)` is not supported and was not checked (\(location.document)\(location.pointer))"
            )
        }
        if is30, case .bool(true)? = schema["nullable"], case .null = instance { return }

        // type
        if let type = schema["type"] {
            var names: [String] = []
            switch type {
            case .string(let name): names = [name]
            case .array(let items): names = items.compactMap(\.stringValue)
            default: break
            }
            if !names.isEmpty && !names.contains(where: { Self.instance(instance, hasType: $0) }) {
                let expected = names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")
                fail(path, location.appending("type"), "expected \(expected), found \(Self.typeName(instance))")
                return  // the other keywords would only restate the mismatch
            }
        }
        if let allowed = schema["enum"], case .array(let values) = allowed,
            !values.contains(where: { Self.equal($0, instance) })
        {
            fail(path, location.appending("enum"), "expected one of \(Self.list(values)), found \(Self.show(instance))")
        }
        if let constant = schema["const"], !Self.equal(constant, instance) {
            fail(path, location.appending("const"), "expected \(Self.show(constant)), found \(Self.show(instance))")
        }
        if case .string(let format)? = schema["format"], !JSONSchemaValidator.knownFormats.contains(format) {
            warn("unknown format `\(format)` (\(location.document)\(location.pointer)/format): not checked")
        }

        switch instance {
        case .number(let text):
            if let value = Double(text) { validateNumber(value, path, schema, location) }
        case .string(let text):
            validateString(text, path, schema, location)
        case .array(let items):
            validateArray(items, path, schema, location, depth: depth)
        case .object(let properties):
            validateObject(properties, path, schema, location, depth: depth)
        default:
            break
        }

        // Combinators.
        if case .array(let branches)? = schema["allOf"] {
            for (index, branch) in branches.enumerated() {
                validate(instance, path, branch, location.appending("allOf", String(index)), depth: depth + 1)
            }
        }
        if case .array(let branches)? = schema["anyOf"] {
            var best: [SchemaViolation]?
            var matched = false
            for (index, branch) in branches.enumerated() {
                let found = trial(instance, path, branch, location.appending("anyOf", String(index)), depth: depth + 1)
                if found.isEmpty {
                    matched = true
                    break
                }
                if best == nil || Self.closer(found, than: best!) { best = found }
            }
            if !matched { failCombination("anyOf", path, location, closest: best) }
        }
        if case .array(let branches)? = schema["oneOf"] {
            var passing: [Int] = []
            var best: [SchemaViolation]?
            for (index, branch) in branches.enumerated() {
                let found = trial(instance, path, branch, location.appending("oneOf", String(index)), depth: depth + 1)
                if found.isEmpty {
                    passing.append(index)
                } else if best == nil || Self.closer(found, than: best!) {
                    best = found
                }
            }
            if passing.isEmpty {
                failCombination("oneOf", path, location, closest: best)
            } else if passing.count > 1 {
                fail(
                    path, location.appending("oneOf"),
                    "expected exactly one of the oneOf schemas to match, but \(passing.map(String.init).joined(separator: ", ")) do"
                )
            }
        }
        if let negated = schema["not"],
            trial(instance, path, negated, location.appending("not"), depth: depth + 1).isEmpty
        {
            fail(
                path, location.appending("not"),
                "expected a value the `not` schema refuses, found \(Self.show(instance))")
        }
        if let condition = schema["if"] {
            let holds = trial(instance, path, condition, location.appending("if"), depth: depth + 1).isEmpty
            if holds, let then = schema["then"] {
                validate(instance, path, then, location.appending("then"), depth: depth + 1)
            } else if !holds, let otherwise = schema["else"] {
                validate(instance, path, otherwise, location.appending("else"), depth: depth + 1)
            }
        }
    }

    private mutating func failCombination(
        _ keyword: String, _ path: [InstanceStep], _ location: SchemaLocation,
        closest: [SchemaViolation]?
    ) {
        guard let closest, let first = closest.first else {
            fail(path, location.appending(keyword), "expected a value matching one of the \(keyword) schemas")
            return
        }
        violations.append(
            SchemaViolation(
                instancePath: first.instancePath, schemaPointer: first.schemaPointer,
                schemaDocument: first.schemaDocument,
                message: "\(first.message) (no \(keyword) branch matches; this is the closest)"))
    }

    /// Whether one failed branch is closer to matching than another: fewer violations, deeper first.
    private static func closer(_ a: [SchemaViolation], than b: [SchemaViolation]) -> Bool {
        let depthA = a.map(\.instancePath.count).max() ?? 0
        let depthB = b.map(\.instancePath.count).max() ?? 0
        if depthA != depthB { return depthA > depthB }
        return a.count < b.count
    }

    private mutating func validateNumber(
        _ value: Double, _ path: [InstanceStep], _ schema: JSONValue,
        _ location: SchemaLocation
    ) {
        if let minimum = schema["minimum"]?.doubleValue {
            let exclusive = is30 && schema["exclusiveMinimum"] == .bool(true)
            if exclusive ? value <= minimum : value < minimum {
                fail(
                    path, location.appending("minimum"),
                    "expected a number \(exclusive ? ">" : ">=") \(Self.show(schema["minimum"]!)), found \(Self.number(value))"
                )
            }
        }
        if let maximum = schema["maximum"]?.doubleValue {
            let exclusive = is30 && schema["exclusiveMaximum"] == .bool(true)
            if exclusive ? value >= maximum : value > maximum {
                fail(
                    path, location.appending("maximum"),
                    "expected a number \(exclusive ? "<" : "<=") \(Self.show(schema["maximum"]!)), found \(Self.number(value))"
                )
            }
        }
        if !is30 {
            if let bound = schema["exclusiveMinimum"]?.doubleValue, value <= bound {
                fail(
                    path, location.appending("exclusiveMinimum"),
                    "expected a number > \(Self.show(schema["exclusiveMinimum"]!)), found \(Self.number(value))")
            }
            if let bound = schema["exclusiveMaximum"]?.doubleValue, value >= bound {
                fail(
                    path, location.appending("exclusiveMaximum"),
                    "expected a number < \(Self.show(schema["exclusiveMaximum"]!)), found \(Self.number(value))")
            }
        }
        if let divisor = schema["multipleOf"]?.doubleValue, divisor > 0, !Self.isMultiple(value, of: divisor) {
            fail(
                path, location.appending("multipleOf"),
                "expected a multiple of \(Self.show(schema["multipleOf"]!)), found \(Self.number(value))")
        }
    }

    /// As Python's `jsonschema` decides it: an exact remainder for integers, else an integral quotient.
    static func isMultiple(_ value: Double, of divisor: Double) -> Bool {
        if value.rounded() == value, divisor.rounded() == divisor, abs(value) < 9e15, abs(divisor) < 9e15 {
            return Int64(value) % Int64(divisor) == 0
        }
        let quotient = value / divisor
        guard quotient.isFinite else { return false }
        return quotient.rounded(.towardZero) == quotient
    }

    private mutating func validateString(
        _ text: String, _ path: [InstanceStep], _ schema: JSONValue,
        _ location: SchemaLocation
    ) {
        let length = text.unicodeScalars.count
        if let minimum = Self.count(schema["minLength"]), length < minimum {
            fail(path, location.appending("minLength"), "expected at least \(minimum) characters, found \(length)")
        }
        if let maximum = Self.count(schema["maxLength"]), length > maximum {
            fail(path, location.appending("maxLength"), "expected at most \(maximum) characters, found \(length)")
        }
        if case .string(let pattern)? = schema["pattern"] {
            switch PatternCache.search(pattern, in: text) {
            case .some(true): break
            case .some(false):
                fail(
                    path, location.appending("pattern"),
                    "expected a string matching /\(pattern)/, found \(Self.show(.string(text)))")
            case .none:
                warn(
                    "pattern /\(pattern)/ is not supported by Understudy's regex engine and was not checked (\(location.document)\(location.pointer)/pattern)"
                )
            }
        }
    }

    private mutating func validateArray(
        _ items: [JSONValue], _ path: [InstanceStep], _ schema: JSONValue,
        _ location: SchemaLocation, depth: Int
    ) {
        if let minimum = Self.count(schema["minItems"]), items.count < minimum {
            fail(path, location.appending("minItems"), "expected at least \(minimum) items, found \(items.count)")
        }
        if let maximum = Self.count(schema["maxItems"]), items.count > maximum {
            fail(path, location.appending("maxItems"), "expected at most \(maximum) items, found \(items.count)")
        }
        if schema["uniqueItems"] == .bool(true) {
            outer: for i in items.indices {
                for j in items.indices where j > i && Self.equal(items[i], items[j]) {
                    fail(
                        path, location.appending("uniqueItems"),
                        "expected unique items, but items \(i) and \(j) are equal")
                    break outer
                }
            }
        }
        var prefixCount = 0
        if !is30, case .array(let prefix)? = schema["prefixItems"] {
            prefixCount = prefix.count
            for (index, item) in items.enumerated() where index < prefix.count {
                validate(
                    item, path + [.element(index)], prefix[index], location.appending("prefixItems", String(index)),
                    depth: depth + 1)
            }
        }
        if let itemSchema = schema["items"] {
            if is30, case .array = itemSchema {
            } else {
                for (index, item) in items.enumerated() where index >= prefixCount {
                    validate(item, path + [.element(index)], itemSchema, location.appending("items"), depth: depth + 1)
                }
            }
        }
        if !is30, let contains = schema["contains"] {
            var matches = 0
            for (index, item) in items.enumerated()
            where trial(item, path + [.element(index)], contains, location.appending("contains"), depth: depth + 1)
                .isEmpty
            {
                matches += 1
            }
            let minimum = Self.count(schema["minContains"]) ?? 1
            if matches < minimum {
                fail(
                    path, location.appending(schema["minContains"] == nil ? "contains" : "minContains"),
                    "expected at least \(minimum) item\(minimum == 1 ? "" : "s") matching `contains`, found \(matches)")
            }
            if let maximum = Self.count(schema["maxContains"]), matches > maximum {
                fail(
                    path, location.appending("maxContains"),
                    "expected at most \(maximum) items matching `contains`, found \(matches)")
            }
        }
    }

    // swiftlint:disable:next cyclomatic_complexity
    private mutating func validateObject(
        _ members: [JSONMember], _ path: [InstanceStep], _ schema: JSONValue,
        _ location: SchemaLocation, depth: Int
    ) {
        if let minimum = Self.count(schema["minProperties"]), members.count < minimum {
            fail(
                path, location.appending("minProperties"),
                "expected at least \(minimum) properties, found \(members.count)")
        }
        if let maximum = Self.count(schema["maxProperties"]), members.count > maximum {
            fail(
                path, location.appending("maxProperties"),
                "expected at most \(maximum) properties, found \(members.count)")
        }
        var propertySchemas: [JSONMember] = []
        if case .object(let declared)? = schema["properties"] { propertySchemas = declared }
        if case .array(let required)? = schema["required"] {
            for case .string(let name) in required where !members.contains(where: { $0.key == name }) {
                // A `readOnly` property is not required in a request, a `writeOnly` one not in a response.
                if let property = propertySchemas.first(where: { $0.key == name })?.value, skipsRequired(property) {
                    continue
                }
                fail(path, location.appending("required"), "required property `\(name)` is missing")
            }
        }
        if case .object(let dependencies)? = schema["dependentRequired"] {
            for dependency in dependencies where members.contains(where: { $0.key == dependency.key }) {
                guard case .array(let needed) = dependency.value else { continue }
                for case .string(let name) in needed where !members.contains(where: { $0.key == name }) {
                    fail(
                        path, location.appending("dependentRequired", dependency.key),
                        "property `\(name)` is required when `\(dependency.key)` is present")
                }
            }
        }
        if case .object(let dependencies)? = schema["dependentSchemas"] {
            for dependency in dependencies where members.contains(where: { $0.key == dependency.key }) {
                validate(
                    .object(members), path, dependency.value, location.appending("dependentSchemas", dependency.key),
                    depth: depth + 1)
            }
        }
        var patterns: [(String, JSONValue)] = []
        if case .object(let declared)? = schema["patternProperties"] { patterns = declared.map { ($0.key, $0.value) } }
        let additional = schema["additionalProperties"]
        let strictClosed =
            validator.options.strictExtraFields && additional == nil && patterns.isEmpty
            && !propertySchemas.isEmpty && schema["allOf"] == nil && schema["anyOf"] == nil && schema["oneOf"] == nil
        for member in members {
            let memberPath = path + [.member(member.key)]
            var covered = false
            if let property = propertySchemas.first(where: { $0.key == member.key }) {
                covered = true
                if let refusal = directionRefusal(property.value) {
                    fail(memberPath, location.appending("properties", member.key), refusal)
                }
                validate(
                    member.value, memberPath, property.value, location.appending("properties", member.key),
                    depth: depth + 1)
            }
            for (pattern, patternSchema) in patterns where PatternCache.search(pattern, in: member.key) == true {
                covered = true
                validate(
                    member.value, memberPath, patternSchema, location.appending("patternProperties", pattern),
                    depth: depth + 1)
            }
            if !covered {
                if let additional {
                    if additional == .bool(false) {
                        fail(
                            memberPath, location.appending("additionalProperties"),
                            "property `\(member.key)` is not allowed (additionalProperties is false)")
                    } else {
                        validate(
                            member.value, memberPath, additional, location.appending("additionalProperties"),
                            depth: depth + 1)
                    }
                } else if strictClosed {
                    fail(
                        memberPath, location.appending("properties"),
                        "property `\(member.key)` is not in the schema (--strict-extra-fields)")
                }
            }
            if let names = schema["propertyNames"] {
                let found = trial(
                    .string(member.key), memberPath, names, location.appending("propertyNames"), depth: depth + 1)
                if let first = found.first {
                    violations.append(
                        SchemaViolation(
                            instancePath: memberPath, schemaPointer: first.schemaPointer,
                            schemaDocument: first.schemaDocument,
                            message: "property name `\(member.key)`: \(first.message)"))
                }
            }
        }
    }

    private func skipsRequired(_ property: JSONValue) -> Bool {
        switch validator.options.direction {
        case .none: return false
        case .response: return property["writeOnly"] == .bool(true)
        case .request: return property["readOnly"] == .bool(true)
        }
    }

    private func directionRefusal(_ property: JSONValue) -> String? {
        switch validator.options.direction {
        case .none: return nil
        case .response:
            return property["writeOnly"] == .bool(true) ? "a writeOnly property must not be in a response" : nil
        case .request: return property["readOnly"] == .bool(true) ? "a readOnly property must not be in a request" : nil
        }
    }

    // MARK: Helpers

    /// JSON Schema's equality: numbers by value, object key order ignored, and strings compared by
    /// code points (Swift's `==` would call canonically equivalent strings equal).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in
                    y.contains {
                        $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) && equal($0.value, member.value)
                    }
                }
        default: return a.semanticallyEquals(b)
        }
    }

    static func instance(_ value: JSONValue, hasType name: String) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            return true
        case ("integer", .number(let text)):
            guard let double = Double(text) else { return false }
            return double.isFinite && double.rounded() == double
        default:
            return false
        }
    }

    static func typeName(_ value: JSONValue) -> String {
        if case .number(let text) = value, let double = Double(text), double.rounded() == double { return "integer" }
        return value.kindName
    }

    static func count(_ value: JSONValue?) -> Int? {
        guard let double = value?.doubleValue, double >= 0, double < 1e15 else { return nil }
        return Int(double)
    }

    static func show(_ value: JSONValue) -> String {
        let text = value.jsonText
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    static func list(_ values: [JSONValue]) -> String {
        let shown = values.prefix(8).map(show).joined(separator: ", ")
        return values.count > 8 ? "[\(shown), … (\(values.count) values)]" : "[\(shown)]"
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
