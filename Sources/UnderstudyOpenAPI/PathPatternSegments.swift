import UnderstudyRegex

/// Which path templates a `pathPattern`/`urlPattern` reaches, read segment by segment.
///
/// The rule: the pattern (without `^`/`$`, and for a `urlPattern` without a query part that starts
/// at a top-level `\?`) is split on its top-level literal `/`s. It reaches a template (after a
/// `servers` base path) with as many segments when each pair agrees:
/// - a literal segment (`events`, `v1\.2`) equals the template's literal segment, or is a value of
///   its `{param}` segment (a `{param}` mixed with text, `{id}.json`, must match it);
/// - a segment with regex constructs (`ev_[a-z0-9]+`) that cannot match a `/` is a value of a
///   `{param}` segment, or matches the template's literal segment whole.
///
/// What this reading cannot decide — a `/` inside a group or a class, a top-level `|`, a quantified
/// `/`, a segment that can match `/` (`.*`, `[^x]`) or a constructed segment against a mixed one —
/// is ``Verdict/undecided(_:)`` with the reason, unless the literal segments before it already
/// rule every template out. A segment that could match nothing is taken as the parameter's value.
enum PathPatternSegments {
    /// One segment of the pattern.
    enum Segment: Equatable {
        /// Plain text (escapes resolved).
        case literal(String)
        /// A regex for one segment that cannot match `/`.
        case regex(String)
        /// A regex that may match `/` or whose extent this reading cannot tell.
        case opaque(String)
    }

    enum Verdict: Equatable {
        /// The templates (as written in the spec) the pattern reaches.
        case templates([String])
        /// The pattern cannot be read segment by segment; why.
        case undecided(String)
    }

    /// The templates among `templates` that `pattern` reaches, given the spec's base paths.
    static func reached(pattern: String, isTarget: Bool, templates: [String], basePaths: [String]) -> Verdict {
        let segments: [Segment]
        switch split(pattern, isTarget: isTarget) {
        case .success(let parts): segments = parts
        case .failure(let reason): return .undecided(reason.text)
        }
        var found: [String] = []
        var undecided: String?
        for template in templates {
            for base in basePaths {
                let wanted = pathSegments(base) + pathSegments(template)
                switch compare(segments, wanted) {
                case .match:
                    if !found.contains(template) { found.append(template) }
                case .noMatch:
                    break
                case .unknown(let why):
                    undecided = undecided ?? why
                }
            }
        }
        if !found.isEmpty { return .templates(found) }
        if let undecided { return .undecided(undecided) }
        return .templates([])
    }

    private enum Comparison { case match, noMatch, unknown(String) }

    private static func compare(_ pattern: [Segment], _ template: [String]) -> Comparison {
        for (index, segment) in pattern.enumerated() {
            if case .opaque(let text) = segment {
                // Literal segments before it already failed to agree, or it cannot be read.
                return .unknown("its segment `\(text)` can match a `/` or more than one segment")
            }
            guard index < template.count else { return .noMatch }
            let wanted = template[index]
            let isParameter = wanted.contains("{")
            switch segment {
            case .literal(let text):
                if isParameter {
                    if !templateSegment(wanted, matches: text) { return .noMatch }
                } else if text != wanted {
                    return .noMatch
                }
            case .regex(let text):
                if isParameter {
                    if !(wanted.hasPrefix("{") && wanted.hasSuffix("}") && wanted.dropFirst().allSatisfy({ $0 != "{" }))
                    {
                        return .unknown("its segment `\(text)` is compared with the template segment `\(wanted)`")
                    }
                } else if !((try? CompiledRegex(text))?.matchesWhole(wanted) ?? false) {
                    return .noMatch
                }
            case .opaque:
                break
            }
        }
        return pattern.count == template.count ? .match : .noMatch
    }

    /// `/a/{b}/` → `["a", "{b}"]`.
    static func pathSegments(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// Whether `value` is a concrete segment of the template segment `segment` (`{id}.json`).
    private static func templateSegment(_ segment: String, matches value: String) -> Bool {
        var pattern = ""
        var inName = false
        for character in segment {
            if inName {
                if character == "}" { inName = false }
            } else if character == "{" {
                inName = true
                pattern += "[^/]+"
            } else {
                pattern += escape(character)
            }
        }
        return (try? CompiledRegex(pattern))?.matchesWhole(value) ?? false
    }

    private static func escape(_ character: Character) -> String {
        "\\^$.|?*+()[]{}/".contains(character) ? "\\" + String(character) : String(character)
    }

    struct Unreadable: Error { var text: String }

    /// The pattern's segments, or why it cannot be split.
    static func split(_ source: String, isTarget: Bool) -> Result<[Segment], Unreadable> {
        var text = Array(source)
        if text.first == "^" { text.removeFirst() }
        if text.last == "$", text.count < 2 || text[text.count - 2] != "\\" { text.removeLast() }
        if text.first == "/" {
            text.removeFirst()
        } else if text.starts(with: ["\\", "/"]) {
            text.removeFirst(2)
        } else {
            return .failure(Unreadable(text: "it does not start with `/`"))
        }
        var segments: [String] = []
        var current = ""
        var depth = 0
        var inClass = false
        var index = 0
        func close() {
            segments.append(current)
            current = ""
        }
        while index < text.count {
            let character = text[index]
            if character == "\\", index + 1 < text.count {
                let next = text[index + 1]
                if next == "/" && (depth > 0 || inClass) {
                    return .failure(Unreadable(text: "a `/` is inside a group or a character class"))
                }
                if next == "/" {
                    if isQuantifier(at: index + 2, in: text) {
                        return .failure(Unreadable(text: "a `/` is quantified"))
                    }
                    close()
                    index += 2
                    continue
                }
                if next == "?" && depth == 0 && !inClass && isTarget { break }  // the query part
                current += String(character) + String(next)
                index += 2
                continue
            }
            if inClass {
                if character == "]" && !current.hasSuffix("[") && !current.hasSuffix("[^") { inClass = false }
                if character == "/" { return .failure(Unreadable(text: "a `/` is inside a character class")) }
                current.append(character)
                index += 1
                continue
            }
            switch character {
            case "[":
                inClass = true
            case "(":
                if isTarget, depth == 0,
                    Array(text[index...]).starts(with: Array("(\\?"))
                        || Array(text[index...]).starts(with: Array("(?:\\?"))
                {
                    // `(\?.*)?`: an optional query part.
                    index = text.count
                    continue
                }
                depth += 1
            case ")":
                depth -= 1
            case "|" where depth == 0:
                return .failure(Unreadable(text: "it has a top-level `|`"))
            case "/":
                if depth > 0 { return .failure(Unreadable(text: "a `/` is inside a group")) }
                if isQuantifier(at: index + 1, in: text) {
                    if index + 2 == text.count && text[index + 1] == "?" {
                        index = text.count  // a trailing `/?`: the path without it
                        continue
                    }
                    return .failure(Unreadable(text: "a `/` is quantified"))
                }
                close()
                index += 1
                continue
            default:
                break
            }
            current.append(character)
            index += 1
        }
        segments.append(current)
        if segments == [""] { segments = [] }  // `/` itself
        return .success(segments.map(classify))
    }

    private static func isQuantifier(at index: Int, in text: [Character]) -> Bool {
        index < text.count && "?*+{".contains(text[index])
    }

    /// Literal text, a regex confined to one segment, or one that may cross a `/`.
    static func classify(_ segment: String) -> Segment {
        var literal = ""
        var isLiteral = true
        var mayMatchSlash = false
        let characters = Array(segment)
        var index = 0
        var inClass = false
        var classStart = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                let next = characters[index + 1]
                if next.isLetter || next.isNumber {
                    isLiteral = false
                    // \S, \W, \D (and any escape this reading does not know) may match `/`.
                    if !"dwsbBntrfv".contains(next) { mayMatchSlash = true }
                } else {
                    literal.append(next)
                }
                index += 2
                continue
            }
            if inClass {
                if character == "]" && index > classStart {
                    inClass = false
                } else if character == "-", index > classStart, index + 1 < characters.count,
                    characters[index + 1] != "]"
                {
                    // A range: does it span `/` (0x2F)?
                    let low = characters[index - 1], high = characters[index + 1]
                    if low <= "/" && "/" <= high { mayMatchSlash = true }
                }
                index += 1
                continue
            }
            switch character {
            case "[":
                isLiteral = false
                inClass = true
                classStart = index + 1
                if index + 1 < characters.count, characters[index + 1] == "^" {
                    mayMatchSlash = true
                    classStart += 1
                }
            case ".":
                isLiteral = false
                mayMatchSlash = true
            case "^", "$", "*", "+", "?", "(", ")", "{", "}", "|":
                isLiteral = false
            default:
                literal.append(character)
            }
            index += 1
        }
        if isLiteral { return .literal(literal) }
        return mayMatchSlash ? .opaque(segment) : .regex(segment)
    }
}
