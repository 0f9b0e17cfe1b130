import Foundation
import XCTest
@testable import UnderstudyRegex

/// The linear-time engine behind `matches` and `pathPattern`: the same answers as ICU
/// (`NSRegularExpression`, which it replaced) on the supported syntax, no blow-up on patterns
/// that make a backtracking engine exponential, and clear refusals for what it does not run.
final class RegexEngineTests: XCTestCase {
    private func regex(_ pattern: String, file: StaticString = #filePath, line: UInt = #line) throws -> CompiledRegex {
        do {
            return try CompiledRegex(pattern)
        } catch {
            XCTFail("`\(pattern)` refused: \(error.reason)", file: file, line: line)
            throw error
        }
    }

    private func reason(_ pattern: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try CompiledRegex(pattern)
            XCTFail("`\(pattern)` should be refused", file: file, line: line)
            return ""
        } catch {
            XCTAssertEqual(error.pattern, pattern, file: file, line: line)
            return error.reason
        }
    }

    func testAgreesWithICUOnTheSupportedSyntax() throws {
        let patterns = [
            "abc", "a.c", "a*", "a+b", "ab?c", "a{3}", "a{2,}", "a{1,3}", "a{0,2}b", "(ab)+", "(?:ab|cd)*e",
            "[a-c]+", "[^a-c]+", "[a-z0-9_]+", "[-a]", "[a-]", "[]a]", "[\\]x]+", "\\d+", "\\D+", "\\w+", "\\W",
            "\\s*x\\S",
            "^abc$", "abc$", "^$", "a|b|", "(a|ab)(c|bcd)(d*)", "(a*)*", "(a*)+b", "(a|b)*a(a|b){2}", "x*?y", "a+?",
            "/users/[0-9]+", "^Bearer .+", "id=[0-9]+", "\\bfoo\\b.*", ".*\\Bo\\B.*", "\\Aab\\z", "ab\\Z",
            "\\.\\*\\+\\?\\(\\)",
            "(?i)abc", "(?i:a)b", "a(?i)b|c", "(?i)[a-c]+", "(?i)[^a-c]", "(?i)straße", "(?i)é", "(?m)^b$",
            "(?m)a$\\nb", "(?s)a.c",
            "(?i)(?-i:a)b", "(?is)A.C", "\\x41\\u0042\\t", "[\\d.]+", "[\\w-]+@[\\w.-]+",
            "(?<year>\\d{4})-(?<month>\\d{2})", "é+", "[à-ü]+", ".", "[\\s\\S]*",
        ]
        let texts = [
            "", "a", "b", "abc", "ac", "abbc", "aaa", "aaaa", "aab", "ab", "abab", "ababe", "cdabe", "e", "abcd", "xyz",
            "a-", "-", "]", "]]x", "x", "123", "12a", "a1_B", "!", " \t x!", "abc\n", "abbcd", "abcdd", "abaa", "babb",
            "xxy", "/users/42", "/users/", "/users/4x", "Bearer t.o.k", "Bearer ", "id=12", "id=12&x", "foo bar", "foo",
            "book", "abx", "AB\t", ".*+?()", "3.14", "me@host.org", "2026-11", "2026-11-22", "éé", "àbü", "ç", "\n",
            "a{,2}",
            "{", "a{x}", "x{2}{", "é\n", "ABC", "Ab", "aB", "C", "A\nC", "a\nc", "a\nb", "STRAẞE", "É", "K", "\u{212A}",
            "aB\n",
        ]
        var disagreements: [String] = []
        for pattern in patterns {
            let ours = try regex(pattern)
            let icu = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
            for text in texts {
                let expected = icu.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
                if ours.matchesWhole(text) != expected {
                    disagreements.append("`\(pattern)` on \(text.debugDescription): ICU \(expected)")
                }
                if ours.matchesWholeWithoutCache(text) != expected {
                    disagreements.append("`\(pattern)` on \(text.debugDescription) without the DFA: ICU \(expected)")
                }
            }
        }
        XCTAssertEqual(disagreements, [])
    }

    func testAgreesWithICUOnGeneratedPatterns() throws {
        var generator = PatternGenerator(seed: 0x5EC0_12E)
        let texts = (0..<60).map { _ in generator.text() } + ["", "a", "b", "ab", "ba", "aab", "\n"]
        var disagreements: [String] = []
        for _ in 0..<1_000 {
            let pattern = generator.pattern()
            let ours = try regex(pattern)
            let icu = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
            for text in texts {
                let expected = icu.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
                if ours.matchesWhole(text) != expected {
                    disagreements.append("`\(pattern)` on \(text.debugDescription): ICU \(expected)")
                }
                if ours.matchesWholeWithoutCache(text) != expected {
                    disagreements.append("`\(pattern)` on \(text.debugDescription) without the DFA: ICU \(expected)")
                }
            }
        }
        XCTAssertEqual(Array(disagreements.prefix(10)), [])
    }

    func testTheCachedDFAFallsBackToTheNFAWhenItWouldGrowTooLarge() throws {
        // The DFA for "an a 12 places from the end" needs 2^13 states, far over the cap.
        let regex = try regex("(a|b)*a(a|b){12}")
        var generator = PatternGenerator(seed: 7)
        for _ in 0..<200 {
            let text = String((0..<40).map { _ in generator.coin() ? Character("a") : Character("b") })
            let expected = text.count >= 13 && text[text.index(text.endIndex, offsetBy: -13)] == "a"
            XCTAssertEqual(regex.matchesWhole(text), expected, text)
        }
    }

    func testOneRegexIsSafeToShareAcrossThreads() throws {
        let regex = try regex("/items/[0-9]+/(?:view|edit)")
        let texts = (0..<64).map { "/items/\($0)/" + ($0 % 3 == 0 ? "drop" : "view") }
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                for (index, text) in texts.enumerated() where regex.matchesWhole(text) != (index % 3 != 0) {
                    failures.increment()
                }
            }
        }
        XCTAssertEqual(failures.value, 0)
    }

    func testNonASCIITextGoesThroughTheDFA() throws {
        XCTAssertTrue(try regex("/caf[eé]/[^/]+").matchesWhole("/café/naïve-日本"))
        XCTAssertFalse(try regex("/caf[eé]/[^/]+").matchesWhole("/café/naïve/日本"))
        XCTAssertTrue(try regex("(?i)ÉTÉ.*").matchesWhole("été 2026"))
    }

    func testCaseInsensitivityUsesSimpleCaseMappingOnly() throws {
        // ICU folds ß to "ss" as well; this engine maps one scalar to one scalar.
        XCTAssertTrue(try regex("(?i)straße").matchesWhole("STRAẞE"))
        XCTAssertFalse(try regex("(?i)straße").matchesWhole("STRASSE"))
        XCTAssertTrue(try regex("(?i)[k]").matchesWhole("\u{212A}"), "KELVIN SIGN")
        XCTAssertTrue(try regex("(?i:bearer) .+").matchesWhole("BEARER x"))
        XCTAssertFalse(try regex("(?i:bearer) X").matchesWhole("BEARER x"), "the flag ends with its group")
    }

    func testMatchesTheWholeTextNeverAPart() throws {
        let digits = try regex("[0-9]+")
        XCTAssertTrue(digits.matchesWhole("2026"))
        XCTAssertFalse(digits.matchesWhole("v2026"))
        XCTAssertFalse(digits.matchesWhole("2026a"))
        XCTAssertTrue(try regex("a|ab").matchesWhole("ab"), "a shorter alternative must not end the search")
    }

    func testCatastrophicPatternsAnswerWithoutBacktracking() throws {
        let attack = String(repeating: "a", count: 40) + "!"
        XCTAssertFalse(try regex("(a+)+$").matchesWhole(attack))
        XCTAssertFalse(try regex("(a|aa)*b").matchesWhole(attack))
        XCTAssertFalse(try regex("(a*)*a*(a*)*c").matchesWhole(String(repeating: "a", count: 5_000)))
        XCTAssertTrue(try regex("(a+)+!").matchesWhole(attack))
        let long = String(repeating: "ab", count: 50_000)
        XCTAssertTrue(try regex("(?:a|b|ab)*").matchesWhole(long))
        XCTAssertFalse(try regex("(?:a|b|ab)*c").matchesWhole(long))
    }

    func testBacktrackingConstructsAreRefusedByName() {
        XCTAssertTrue(reason("(a)\\1").contains("backreference `\\1`"))
        XCTAssertTrue(reason("(?<n>a)\\k<n>").contains("named backreference"))
        XCTAssertTrue(reason("a(?=b)").contains("lookahead `(?=`"))
        XCTAssertTrue(reason("a(?!b)").contains("lookahead `(?!`"))
        XCTAssertTrue(reason("(?<=a)b").contains("lookbehind `(?<=`"))
        XCTAssertTrue(reason("(?<!a)b").contains("lookbehind `(?<!`"))
        XCTAssertTrue(reason("(?>a+)b").contains("atomic group"))
        XCTAssertTrue(reason("a++b").contains("possessive quantifier `++`"))
        XCTAssertTrue(reason("a{2,3}+").contains("possessive quantifier"))
        XCTAssertTrue(reason("(?x)a b").contains("the flag `x`"))
        XCTAssertTrue(reason("(?i").contains("unterminated group"))
        XCTAssertTrue(reason("(?#note)a").contains("`(?#`"))
        XCTAssertTrue(reason("\\p{L}").contains("the escape `\\p`"))
        XCTAssertTrue(reason("[a[b]]").contains("nested class"))
        for pattern in ["(a)\\1", "a(?=b)", "a++"] {
            XCTAssertTrue(reason(pattern).contains("linear-time engine"), pattern)
        }
    }

    func testSyntaxErrorsSayWhatAndWhere() {
        XCTAssertTrue(reason("/a(").contains("missing `)`"))
        XCTAssertTrue(reason("a)").contains("unmatched `)` at offset 1"))
        XCTAssertTrue(reason("[z-a]").contains("invalid range `z-a`"))
        XCTAssertTrue(reason("*").contains("nothing to repeat at offset 0"))
        XCTAssertTrue(reason("a**").contains("nothing to repeat"))
        XCTAssertTrue(reason("[abc").contains("missing `]`"))
        XCTAssertTrue(reason("a{3,2}").contains("maximum is below the minimum"))
        XCTAssertTrue(reason("ab\\").contains("lone `\\`"))
        XCTAssertTrue(reason("(?<").contains("group name"))
        XCTAssertTrue(reason("^*").contains("assertion"))
    }

    func testCostIsBoundedAtLoadTime() {
        XCTAssertTrue(reason("a{1001}").contains("too large"))
        XCTAssertTrue(reason("(a{1000}){1000}").contains("too large once its repetitions are expanded"))
        XCTAssertTrue(reason(String(repeating: "a", count: RegexLimits.maxPatternLength + 1)).contains("at most 4096"))
        XCTAssertTrue(
            reason(String(repeating: "(", count: 200) + String(repeating: ")", count: 200)).contains("nest more than"))
        XCTAssertNoThrow(try CompiledRegex("a{1000}"))
    }
}

/// Random patterns over `a`, `b`, `.`, classes and groups with every supported operator, and short
/// texts, from a fixed seed so a disagreement is reproducible.
private struct PatternGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func coin() -> Bool {
        next(2) == 0
    }

    mutating func text() -> String {
        String((0..<next(9)).map { _ in ["a", "b", "a", "b", "\n", "B"][next(6)] })
    }

    mutating func pattern(depth: Int = 0) -> String {
        var pattern = next(5) == 0 ? "^" : ""
        pattern += alternation(depth: depth)
        if next(5) == 0 { pattern += "$" }
        return pattern
    }

    private mutating func alternation(depth: Int) -> String {
        (0..<(1 + next(2))).map { _ in concatenation(depth: depth) }.joined(separator: "|")
    }

    private mutating func concatenation(depth: Int) -> String {
        (0..<(1 + next(3))).map { _ in
            let atom = atom(depth: depth)
            return atom + quantifier(bounded: atom.hasPrefix("("))
        }.joined()
    }

    private mutating func atom(depth: Int) -> String {
        switch next(depth < 2 ? 10 : 7) {
        case 0, 1: return "a"
        case 2: return "b"
        case 3: return "."
        case 4: return "[ab]"
        case 5: return "[^a]"
        case 6: return "\\w"
        case 7: return "(" + alternation(depth: depth + 1) + ")"
        case 8: return "(?:" + alternation(depth: depth + 1) + ")"
        default: return "(?i:" + alternation(depth: depth + 1) + ")"
        }
    }

    /// Groups get bounded quantifiers only: an unbounded one around a group that can match
    /// empty sends ICU's backtracking past its limits, and it then answers "no match" wrongly.
    private mutating func quantifier(bounded: Bool) -> String {
        let choices = bounded ? ["", "", "?", "{2}", "{0,2}"] : ["", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}"]
        let base = choices[next(choices.count)]
        return base.isEmpty || next(4) != 0 ? base : base + "?"
    }
}

/// A counter several threads bump.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}
