import Foundation

/// A regular expression compiled once at load time (ICU syntax, as `NSRegularExpression`).
///
/// `@unchecked Sendable`: the wrapped expression is immutable after creation and
/// `NSRegularExpression` is documented as safe to use from several threads.
public final class CompiledRegex: @unchecked Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// The pattern wrapped in `\A(?:…)\z`, so a match covers the whole text, never just a prefix.
    private let whole: NSRegularExpression

    /// Compiles `pattern`; the error text comes from the regex engine.
    public init(_ pattern: String) throws(RegexSyntaxError) {
        self.pattern = pattern
        do {
            // Compiled bare first so a syntax error is reported against the pattern as written.
            _ = try NSRegularExpression(pattern: pattern, options: [])
            self.whole = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: [])
        } catch {
            throw RegexSyntaxError(pattern: pattern, reason: Self.reason(for: error))
        }
    }

    /// Whether the whole of `text` matches.
    public func matchesWhole(_ text: String) -> Bool {
        let range = NSRange(location: 0, length: text.utf16.count)
        return whole.firstMatch(in: text, options: [], range: range) != nil
    }

    public var description: String { pattern }

    private static func reason(for error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSInvalidValue"] as? String { return "invalid pattern \(detail)" }
        return "not a valid regular expression"
    }
}
