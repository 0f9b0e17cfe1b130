/// A JSONPath expression from the subset stubs use: `$`, `.name`, `['name']`, `[n]` (negative
/// counts from the end), `[*]` and `.*`, `..name` (deep scan), and filters `[?(@.a.b)]` and
/// `[?(@.a.b OP literal)]` with `== != < <= > >=` and a string, number, boolean or null literal,
/// `[?(@.a in ['x', 'y'])]` / `nin` with a list of literals, and `[?(@.a =~ /regex/i)]` (Jayway's
/// filters, which WireMock's `matchesJsonPath` uses).
public struct JSONPathExpression: Sendable {
    /// The expression as written.
    public let text: String
    let steps: [Step]
    /// Whether the expression can select several values (wildcards, deep scans, filters).
    let isDefinite: Bool
    /// How a selected number is written for a string matcher: as the request wrote it (native
    /// stubs), or as Java writes the number Jayway's JsonPath reads (WireMock roots).
    public var numberText: NumberText = .asWritten

    /// How a selected number becomes text for a string matcher.
    public enum NumberText: Sendable {
        /// As the request's JSON writes it (`20.10` stays `20.10`).
        case asWritten
        /// As WireMock hands it over: an integer as written, any other number as Java's
        /// `Double.toString` writes it (`20.10` is `20.1`, `1e10` is `1.0E10`).
        case java
    }

    enum Step: Sendable {
        case member(String)
        case index(Int)
        case wildcard
        case deepMember(String)
        case filter(Filter)
    }

    struct Filter: Sendable {
        var path: [String]
        /// `in` and `nin` hold an array literal.
        var comparison: (op: String, literal: JSONValue)?
        /// `=~`: the value is a string the whole of which matches.
        var regex: CompiledRegex?
    }

    package struct SyntaxError: Error {
        package var message: String
    }

    /// Parses `text`; the error says what is not in the supported subset.
    public init(_ text: String) throws {
        self.text = text
        var scanner = Array(text.unicodeScalars)[...]
        guard scanner.first == "$" else { throw SyntaxError(message: "a JSON path starts with `$`") }
        scanner = scanner.dropFirst()
        var steps: [Step] = []
        func name(_ s: inout ArraySlice<Unicode.Scalar>) -> String {
            var out = ""
            while let c = s.first, c != ".", c != "[" {
                out.unicodeScalars.append(c)
                s = s.dropFirst()
            }
            return out
        }
        while let c = scanner.first {
            if c == "." {
                scanner = scanner.dropFirst()
                if scanner.first == "." {
                    scanner = scanner.dropFirst()
                    let n = name(&scanner)
                    guard !n.isEmpty, n != "*" else {
                        throw SyntaxError(message: "`..` must be followed by a member name")
                    }
                    steps.append(.deepMember(n))
                    continue
                }
                let n = name(&scanner)
                guard !n.isEmpty else { throw SyntaxError(message: "empty member name after `.`") }
                steps.append(n == "*" ? .wildcard : .member(n))
            } else if c == "[" {
                guard let close = scanner.firstIndex(of: "]") else { throw SyntaxError(message: "`[` without `]`") }
                var inner = String(String.UnicodeScalarView(scanner[scanner.index(after: scanner.startIndex)..<close]))
                if inner.hasPrefix("?(") {
                    // A filter may contain `]` inside a string literal; find the `)]` that ends it.
                    let rest = String(String.UnicodeScalarView(scanner))
                    guard let end = rest.firstRange(of: ")]") else { throw SyntaxError(message: "filter without `)]`") }
                    inner = String(rest[rest.index(rest.startIndex, offsetBy: 3)..<end.lowerBound])
                    steps.append(.filter(try Self.parseFilter(inner)))
                    scanner = scanner.dropFirst(
                        rest.unicodeScalars.distance(from: rest.unicodeScalars.startIndex, to: end.upperBound))
                    continue
                }
                scanner = scanner[scanner.index(after: close)...]
                inner = inner.trimmingSpaces
                if inner == "*" {
                    steps.append(.wildcard)
                } else if let quoted = Self.unquote(inner) {
                    steps.append(.member(quoted))
                } else if let index = Int(inner) {
                    steps.append(.index(index))
                } else {
                    throw SyntaxError(
                        message: "unsupported bracket expression `[\(inner)]` (supported: ['name'], [n], [*], [?(...)])"
                    )
                }
            } else {
                throw SyntaxError(message: "unexpected `\(c)`; expected `.` or `[`")
            }
        }
        self.steps = steps
        self.isDefinite = !steps.contains { step in
            switch step {
            case .wildcard, .deepMember, .filter: return true
            default: return false
            }
        }
    }

    private static func unquote(_ text: String) -> String? {
        guard text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first else {
            return nil
        }
        return String(text.dropFirst().dropLast())
    }

    private static func parseFilter(_ text: String) throws -> Filter {
        var left = text.trimmingSpaces, comparison: (String, JSONValue)?, regex: CompiledRegex?
        if let range = text.firstRange(of: "=~") {
            left = String(text[..<range.lowerBound]).trimmingSpaces
            let right = String(text[range.upperBound...]).trimmingSpaces
            guard right.hasPrefix("/"), let close = right.lastIndex(of: "/"), close > right.startIndex else {
                throw SyntaxError(message: "`=~` takes a regular expression in slashes, such as `/abc.*/i`")
            }
            let flags = right[right.index(after: close)...]
            guard flags.allSatisfy({ $0 == "i" }) else {
                throw SyntaxError(message: "unsupported regular expression flags `\(flags)` (only `i`)")
            }
            let pattern = (flags.isEmpty ? "" : "(?i)") + right[right.index(after: right.startIndex)..<close]
            do {
                regex = try CompiledRegex(pattern)
            } catch {
                throw SyntaxError(message: "invalid regular expression `\(pattern)`: \(error.reason)")
            }
        } else if let range = text.firstRange(of: " nin ") ?? text.firstRange(of: " in "),
            Self.isOperand(String(text[..<range.lowerBound]).trimmingSpaces)
        {
            left = String(text[..<range.lowerBound]).trimmingSpaces
            let right = String(text[range.upperBound...]).trimmingSpaces
            guard right.hasPrefix("["), right.hasSuffix("]") else {
                throw SyntaxError(message: "`in` and `nin` take a list such as `['a', 'b']`")
            }
            let items = right.dropFirst().dropLast().split(separator: ",").map { String($0).trimmingSpaces }
            let op = String(text[range]).trimmingSpaces
            comparison = (op, .array(try items.filter { !$0.isEmpty }.map(literal)))
        } else {
            for op in ["==", "!=", "<=", ">=", "<", ">"] {
                if let range = text.firstRange(of: op) {
                    left = String(text[..<range.lowerBound]).trimmingSpaces
                    comparison = (op, try literal(String(text[range.upperBound...]).trimmingSpaces))
                    break
                }
            }
        }
        guard left == "@" || left.hasPrefix("@.") else {
            throw SyntaxError(message: "a filter compares `@` or `@.member`, found `\(left)`")
        }
        let path = left == "@" ? [] : left.dropFirst(2).split(separator: ".").map(String.init)
        return Filter(path: path, comparison: comparison, regex: regex)
    }

    /// `@` or `@.a.b` (so ` in ` inside a string literal is not taken for the operator).
    private static func isOperand(_ text: String) -> Bool {
        text.hasPrefix("@") && !text.contains(where: { " '\"=<>!".contains($0) })
    }

    /// A filter's string, number, boolean or null literal.
    private static func literal(_ text: String) throws -> JSONValue {
        if let s = unquote(text) { return .string(s) }
        if text == "true" || text == "false" { return .bool(text == "true") }
        if text == "null" { return .null }
        if Double(text) != nil { return .number(text) }
        throw SyntaxError(message: "unsupported filter literal `\(text)`")
    }

    /// The values the expression selects in `root`.
    public func select(_ root: JSONValue) -> [JSONValue] {
        var current = [root]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch step {
                case .member(let name):
                    if let found = value[name] { next.append(found) }
                case .index(let i):
                    if case .array(let items) = value {
                        let at = i < 0 ? items.count + i : i
                        if items.indices.contains(at) { next.append(items[at]) }
                    }
                case .wildcard:
                    if case .array(let items) = value { next.append(contentsOf: items) }
                    if case .object(let members) = value { next.append(contentsOf: members.map(\.value)) }
                case .deepMember(let name):
                    Self.deepScan(value, name, into: &next)
                case .filter(let filter):
                    let items: [JSONValue]
                    switch value {
                    case .array(let elements): items = elements
                    case .object: items = [value]
                    default: items = []
                    }
                    next.append(contentsOf: items.filter { Self.holds(filter, on: $0) })
                }
            }
            current = next
        }
        return current
    }

    private static func deepScan(_ value: JSONValue, _ name: String, into out: inout [JSONValue]) {
        switch value {
        case .object(let members):
            for member in members {
                if member.key == name { out.append(member.value) }
                deepScan(member.value, name, into: &out)
            }
        case .array(let items):
            for item in items { deepScan(item, name, into: &out) }
        default: break
        }
    }

    private static func holds(_ filter: Filter, on item: JSONValue) -> Bool {
        var value: JSONValue? = item
        for name in filter.path { value = value?[name] }
        guard let value else { return false }
        if let regex = filter.regex {
            guard case .string(let text) = value else { return false }
            return regex.matchesWhole(text)
        }
        guard let (op, literal) = filter.comparison else { return true }
        switch (value, literal) {
        case (_, .array(let list)) where op == "in" || op == "nin":
            let found = list.contains { value.semanticallyEquals($0) }
            return op == "in" ? found : !found
        case (.number(let a), .number(let b)):
            guard let x = Double(a), let y = Double(b) else { return false }
            switch op {
            case "==": return x == y
            case "!=": return x != y
            case "<": return x < y
            case "<=": return x <= y
            case ">": return x > y
            default: return x >= y
            }
        case (.string(let a), .string(let b)):
            switch op {
            case "==": return a == b
            case "!=": return a != b
            case "<": return a < b
            case "<=": return a <= b
            case ">": return a > b
            default: return a >= b
            }
        default:
            let equal = value.semanticallyEquals(literal)
            return op == "==" ? equal : op == "!=" ? !equal : false
        }
    }

    /// What the expression selects as one value: a definite path's value (nil when missing or
    /// null), an indefinite one's selection as an array (nil when empty).
    package func selection(_ root: JSONValue) -> JSONValue? {
        let selected = select(root)
        if isDefinite {
            guard let value = selected.first, value != .null else { return nil }
            return value
        }
        return selected.isEmpty ? nil : .array(selected)
    }

    /// Whether the expression selects something (a definite path: a value that is neither null
    /// nor an empty object or array; otherwise: a non-empty selection) and, with `matcher`,
    /// whether the selection's text satisfies it (a single value as itself, several as a JSON
    /// array, or any one element of a selected array). When it selects nothing, a matcher that
    /// accepts a missing value (`absent`, WireMock's `{"expression": …, "absent": true}`) holds.
    package func accepts(_ root: JSONValue, _ matcher: ValueMatcher?) -> Bool {
        let selected = select(root)
        if isDefinite {
            guard let value = selected.first, value != .null, !Self.isEmptyContainer(value) else {
                return matcher?.acceptsMissing ?? false
            }
            guard let matcher else { return true }
            if matcher.accepts(value: text(of: value)) { return true }
            if case .array(let items) = value { return items.contains { matcher.accepts(value: text(of: $0)) } }
            return false
        }
        guard !selected.isEmpty else { return matcher?.acceptsMissing ?? false }
        guard let matcher else { return true }
        return selected.contains { matcher.accepts(value: text(of: $0)) }
            || matcher.accepts(value: JSONValue.array(selected).matchText)
    }

    /// An empty object or array selects nothing, as in WireMock's `matchesJsonPath`.
    private static func isEmptyContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): return items.isEmpty
        case .object(let members): return members.isEmpty
        default: return false
        }
    }

    /// A selected value's text for a string matcher (``NumberText``).
    private func text(of value: JSONValue) -> String {
        if numberText == .java, case .number(let written) = value { return Self.javaNumberText(written) }
        return value.matchText
    }

    /// The number as Jayway's JsonPath hands it to WireMock, then written by Java: an integer
    /// (no `.`, no exponent) as written, anything else as a `double` by `Double.toString`
    /// (plain from 10^-3 up to 10^7, else `d.dddE±n`; the shortest digits that read back).
    package static func javaNumberText(_ written: String) -> String {
        guard written.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let number = Double(written),
            number.isFinite
        else { return written }
        if number == 0 { return number.sign == .minus ? "-0.0" : "0.0" }
        let magnitude = Swift.abs(number)
        var shortest = "\(magnitude)"
        var exponent = 0
        if let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(shortest[shortest.index(after: e)...]) ?? 0
            shortest = String(shortest[..<e])
        }
        let parts = shortest.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
        var point = parts[0].count + exponent
        while digits.count > 1 && digits.hasPrefix("0") {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        let sign = number < 0 ? "-" : ""
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
            if point >= digits.count {
                return sign + digits + String(repeating: "0", count: point - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: point)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let mantissa = digits.count == 1 ? digits + ".0" : String(digits.prefix(1)) + "." + digits.dropFirst()
        return sign + mantissa + "E" + String(point - 1)
    }
}
