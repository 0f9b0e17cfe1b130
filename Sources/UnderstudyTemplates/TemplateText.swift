import UnderstudyMustache

/// One string of a stub that is a template: parsed by swift-mustache, its names checked against
/// the vocabulary at load time, rendered per request as plain text (no HTML escaping: the
/// transport, the JSON writer and header checks do the escaping each place needs).
package struct TemplateText: Sendable {
    /// What `{{name}}` does to the value it writes (`{{{name}}}` always writes it as it is).
    package enum Escaping: Sendable {
        /// Nothing: responses are not HTML (mustache's TEXT content type), the default.
        case none
        /// HTML entities for `& < > " ' ` =`, as Handlebars writes them (`&amp;`, `&#x27;`, …):
        /// how the WireMock adapter renders templates translated from WireMock's Handlebars.
        case html
    }

    /// Mustache escapes for HTML by default; responses are not HTML, so every template starts
    /// in mustache's TEXT content type (or the registered Handlebars-style HTML one).
    private static let textPragma = "{{% CONTENT_TYPE: TEXT}}"
    private static let htmlPragma: String = {
        MustacheContentTypes.register(HTMLEntityEscaping(), named: "HTML_ENTITIES")
        return "{{% CONTENT_TYPE: HTML_ENTITIES}}"
    }()

    package let template: MustacheTemplate
    /// Whether rendering may draw from the context's seeded generator (a `random.…` name): such a
    /// template must render when its request is answered, in the order the generator's draws were
    /// made, where one that does not may render later with the same result (a webhook's, at its due time).
    /// Judged from the source text, so a literal "random" counts too: a false alarm only renders early.
    package let drawsRandom: Bool

    /// A problem found at load time, placed by template line and column (1-based).
    package struct Problem: Error {
        package var line: Int
        package var column: Int
        package var message: String
    }

    /// Parses `source` and renders it once against a probe request: bad syntax and names
    /// outside the vocabulary are problems.
    /// With `sent`, the template is a webhook's and may read the sent response (`response.…`).
    package static func compile(_ source: String, escaping: Escaping = .none, sent: Bool = false) -> Result<
        TemplateText, Problem
    > {
        if let delimiter = source.firstRange(of: "{{=") {
            let (line, column) = position(of: delimiter.lowerBound, in: source)
            return .failure(
                Problem(
                    line: line, column: column,
                    message: "changing mustache delimiters (`{{=… …=}}`) is not supported in stub templates"))
        }
        // A pragma alone on its line eats the line break after it: keep a leading one.
        let leadingBreak = source.hasPrefix("\n") || source.hasPrefix("\r\n")
        let pragma = escaping == .html ? htmlPragma : textPragma
        let text = pragma + (leadingBreak ? "\n" : "") + source
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            var line = error.context.lineNumber, column = error.context.columnNumber
            if leadingBreak { line -= 1 }
            if line <= 1 { column = max(1, column - pragma.count) }
            return .failure(
                Problem(
                    line: max(1, line), column: max(1, column), message: "template syntax: \(describe(error.error))"))
        } catch {
            return .failure(Problem(line: 1, column: 1, message: "template syntax: \(error)"))
        }
        let problems = TemplateProblems()
        _ = template.render(TemplateContext.probe(problems, sent: sent).root)
        if let first = problems.list.first {
            let (line, column) = place(first, in: source)
            return .failure(Problem(line: line, column: column, message: first.message))
        }
        return .success(TemplateText(template: template, drawsRandom: source.contains("random")))
    }

    /// Renders for one request.
    package func render(_ context: TemplateContext) -> String {
        template.render(context.root)
    }

    /// Whether `text` has anything mustache would treat as a tag.
    package static func hasTags(_ text: String) -> Bool {
        text.utf8.count >= 2 && text.contains("{{")
    }

    /// The tag that names the problem's segment: the first `{{…}}` containing it.
    private static func place(_ problem: TemplateProblems.Problem, in source: String) -> (Int, Int) {
        var search = source.startIndex
        while let open = source[search...].firstRange(of: "{{") {
            guard let close = source[open.upperBound...].firstRange(of: "}}") else { break }
            let tag = source[open.upperBound..<close.lowerBound]
            if !problem.segment.isEmpty, let hit = tag.firstRange(of: problem.segment) {
                return position(of: hit.lowerBound, in: source)
            }
            if problem.segment.isEmpty || tag.contains(problem.name) {
                return position(of: open.lowerBound, in: source)
            }
            search = close.upperBound
        }
        return (1, 1)
    }

    package static func position(of index: String.Index, in source: String) -> (Int, Int) {
        var line = 1, column = 1
        for scalar in source.unicodeScalars[..<index] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    private static func describe(_ error: Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "\(error)" }
        switch error {
        case .sectionCloseNameIncorrect: return "a section closes with a different name than it opened with"
        case .unfinishedName: return "a tag is not closed with `}}`"
        case .expectedSectionEnd: return "a section `{{#…}}` is never closed with `{{/…}}`"
        case .invalidSetDelimiter: return "invalid delimiter change"
        case .unrecognisedConfigVariable, .invalidConfigVariableSyntax: return "unsupported `{{% … }}` pragma"
        default: return "\(error)"
        }
    }
}

/// Handlebars' HTML escaping (`{{name}}` in a WireMock template): `&amp;`, `&lt;`, `&gt;`,
/// `&quot;`, `&#x27;`, `&#x60;`, `&#x3D;`.
package struct HTMLEntityEscaping: MustacheContentType {
    package init() {}

    package func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: { "&<>\"'`=".utf8.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#x27;"
            case "`": out += "&#x60;"
            case "=": out += "&#x3D;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
