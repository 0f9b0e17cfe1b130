/// XMLUnit's placeholders as WireMock enables them (`enablePlaceholders`): an expected text or
/// attribute value that is only `${xmlunit.ignore}`, `${xmlunit.isNumber}` or
/// `${xmlunit.matchesRegex(REGEX)}` accepts any value, a number, or a value the regex matches
/// whole. The delimiters are regular expressions (`placeholderOpeningDelimiterRegex`, …).
final class XMLPlaceholders: @unchecked Sendable, CustomReflectable {
    // Regex values are immutable once built; @unchecked because Regex<AnyRegexOutput> is not
    // declared Sendable on every toolchain.
    private let placeholder: Regex<AnyRegexOutput>
    private let delimiters: (opening: String?, closing: String?)

    /// The delimiters, not the compiled regex (whose internals differ between equal ones).
    var customMirror: Mirror {
        Mirror(self, children: ["opening": delimiters.opening as Any, "closing": delimiters.closing as Any])
    }

    /// The placeholder syntax for these delimiters, or why a delimiter is not a regular expression.
    init(opening: String?, closing: String?) throws(XMLMatchingErrorBox) {
        delimiters = (opening, closing)
        let open = opening ?? #"\$\{"#
        let close = closing ?? #"\}"#
        do {
            placeholder = try Regex(
                #"^\s*(?:"# + open + #")\s*xmlunit\.([A-Za-z]+)(?:\((.*)\))?\s*(?:"# + close + #")\s*$"#)
        } catch {
            throw XMLMatchingErrorBox(message: "a placeholder delimiter is not a valid regular expression: \(error)")
        }
    }

    /// The placeholder in `expected`, checked: an unknown one is an error at compile time.
    func check(_ expected: String) throws(XMLMatchingErrorBox) {
        guard let (name, argument) = parse(expected) else { return }
        switch name {
        case "ignore", "isNumber": return
        case "matchesRegex":
            do { _ = try Regex(argument ?? "") } catch {
                throw XMLMatchingErrorBox(message: "`${xmlunit.matchesRegex(…)}` holds an invalid regular expression")
            }
        default:
            throw XMLMatchingErrorBox(
                message:
                    "unsupported XMLUnit placeholder `xmlunit.\(name)` (supported: `ignore`, `isNumber`, `matchesRegex(…)`)"
            )
        }
    }

    /// The verdict of the placeholder in `expected` on `actual`, or `nil` when `expected` holds
    /// none (then it is compared as text).
    func accepts(_ actual: String, expected: String) -> Bool? {
        guard let (name, argument) = parse(expected) else { return nil }
        switch name {
        case "ignore": return true
        case "isNumber": return Double(actual) != nil
        case "matchesRegex":
            guard let regex = try? Regex(argument ?? "") else { return false }
            return (try? regex.wholeMatch(in: actual)) != nil
        default: return false
        }
    }

    private func parse(_ text: String) -> (String, String?)? {
        guard let match = try? placeholder.wholeMatch(in: text), match.count >= 2,
            let name = match[1].substring
        else { return nil }
        return (String(name), match.count > 2 ? match[2].substring.map(String.init) : nil)
    }
}
