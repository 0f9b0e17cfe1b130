import UnderstudyHTTP
import UnderstudyJSON

/// The templated parts of a response with `"template": true`, compiled at load time. Strings
/// without `{{` stay literal, so only the parts that can vary are rendered per request.
/// A class: a response carries it as one pointer, so copying a static response costs nothing more.
public final class ResponseTemplate: Sendable {
    /// The body's source when it is a template.
    package enum Body: Sendable {
        /// `body` or `bodyFile` text.
        case text(TemplateText)
        /// `json`: string values (and member names) that are templates, rendered and escaped
        /// as JSON strings; the rest written as loaded.
        case json(JSONTemplate)
        /// WireMock's templated `bodyFileName`: the file the rendered name picks.
        case file(FileChoice)
    }

    /// A body file named per request (WireMock's `"bodyFileName": "{{request.path.[1]}}.json"`):
    /// the name is rendered, and picks one of the files read at load time; a name that is none of
    /// them answers as WireMock does for a missing body file (500, `FileNotFoundException`).
    package final class FileChoice: Sendable {
        /// One file of `__files/`: its bytes, or a template when it holds tags.
        package enum File: Sendable {
            case bytes([UInt8])
            /// The compiled template and its text (in native syntax), which `convert-wiremock` writes.
            case template(TemplateText, source: String)
        }

        let name: TemplateText
        /// The name's template text in native syntax (`convert-wiremock` writes it).
        package let nameSource: String
        /// The files by their path under `directory` (`a/b.json`).
        package let files: [String: File]
        /// The `__files` directory, named in the missing file's error page.
        let directory: String
        /// A name used as written, tags and all, instead of rendering `name`: a WireMock mapping's
        /// missing `bodyFileName` whose tags are not rendered (templating off), answered per
        /// request only for the error page's URI and `Accept`.
        package let literalName: String?

        package init(
            name: TemplateText, nameSource: String, files: [String: File], directory: String,
            literalName: String? = nil
        ) {
            self.name = name
            self.nameSource = nameSource
            self.files = files
            self.directory = directory
            self.literalName = literalName
        }

        /// What WireMock answers for a body file `path` that is not there: its servlet container's
        /// (Jetty 9.4's) error page for the `FileNotFoundException`, status 500, with
        /// `Connection: close`, in the first type of the request's `Accept` (by quality) Jetty has
        /// a page for: HTML for `text/html`, `text/*`, `*/*` or no `Accept` at all, JSON for
        /// `application/json` or `text/json`, plain text for `text/plain`; none of them
        /// (`application/vnd.github+json`) is an empty body without a `Content-Type`. The page
        /// holds Jetty's rows (URI, STATUS, MESSAGE, SERVLET, CAUSED BY) and the exception's first
        /// line where Jetty writes its stack trace (the Java frames are left out: they describe
        /// WireMock's code, not the request); the mapping's own headers are not sent, as in WireMock.
        package static func missingFileAnswer(_ path: String, accept: String? = nil, uri: String = "/")
            -> (status: Int, headers: HTTPHeaders, body: [UInt8])
        {
            let message = "java.io.FileNotFoundException: \(path) (No such file or directory)"
            var answer = jettyErrorAnswer(
                status: 500, message: message, uri: uri, servlet: wireMockServlet, cause: message, accept: accept)
            answer.headers.append(name: "Connection", value: "close")
            return answer
        }

        /// What WireMock answers for a directory of `__files/` (with no index file): Jetty's
        /// `DefaultServlet` refuses to list it, 403 in the page the request's `Accept` picks.
        package static func directoryAnswer(accept: String?, uri: String)
            -> (status: Int, headers: HTTPHeaders, body: [UInt8])
        {
            jettyErrorAnswer(
                status: 403, message: "Forbidden", uri: uri,
                servlet: "wiremock.org.eclipse.jetty.servlet.DefaultServlet-" + servletInstance, cause: nil,
                accept: accept)
        }

        /// The servlet a mapping's answer comes from in WireMock, as Jetty names it. Jetty adds
        /// the instance's hash code, which differs on every run; Understudy writes a fixed one.
        static let wireMockServlet =
            "com.github.tomakehurst.wiremock.servlet.WireMockHandlerDispatchingServlet-" + servletInstance
        static let servletInstance = "5eed0000"

        /// Jetty 9.4's `ErrorHandler` page for `status`, in the type `accept` picks
        /// (``JettyErrorPage``), byte for byte as Jetty writes it, less the stack trace's frames.
        static func jettyErrorAnswer(
            status: Int, message: String, uri: String, servlet: String, cause: String?, accept: String?
        ) -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
            var headers: HTTPHeaders = ["Cache-Control": "must-revalidate,no-cache,no-store"]
            let page: String
            switch JettyErrorPage(accept: accept) {
            case .html?:
                headers.append(name: "Content-Type", value: "text/html;charset=ISO-8859-1")
                func escaped(_ text: String) -> String {
                    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
                }
                func row(_ name: String, _ value: String) -> String {
                    "<tr><th>\(name):</th><td>\(escaped(value))</td></tr>\n"
                }
                page =
                    "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=ISO-8859-1\"/>\n"
                    + "<title>Error \(status) \(escaped(message))</title>\n</head>\n"
                    + "<body><h2>HTTP ERROR \(status) \(escaped(message))</h2>\n<table>\n"
                    + row("URI", uri) + row("STATUS", String(status)) + row("MESSAGE", message)
                    + row("SERVLET", servlet) + (cause.map { row("CAUSED BY", $0) } ?? "") + "</table>\n"
                    + (cause.map { "<h3>Caused by:</h3><pre>\(escaped($0))\n</pre>\n" } ?? "")
                    + "\n</body>\n</html>\n"
            case .json?:
                headers.append(name: "Content-Type", value: "application/json")
                // Jetty's member order (a Java HashMap's).
                func quoted(_ text: String) -> String {
                    "\""
                        + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
                        + "\""
                }
                page =
                    "{\n\"servlet\":\(quoted(servlet)),\n" + (cause.map { "\"cause0\":\(quoted($0)),\n" } ?? "")
                    + "\"message\":\(quoted(message)),\n\"url\":\(quoted(uri)),\n\"status\":\"\(status)\"\n}"
            case .plain?:
                headers.append(name: "Content-Type", value: "text/plain;charset=ISO-8859-1")
                page =
                    "HTTP ERROR \(status) \(message)\nURI: \(uri)\nSTATUS: \(status)\nMESSAGE: \(message)\n"
                    + "SERVLET: \(servlet)\n" + (cause.map { "CAUSED BY \($0)\n\($0)\n" } ?? "")
            case nil:
                page = ""
            }
            return (status, headers, Array(page.utf8))
        }

        /// Jetty's error pages, by the media types that pick them.
        package enum JettyErrorPage: Equatable {
            case html, json, plain

            /// The page an `Accept` value picks: its media ranges by quality (q=0 left out), the more
            /// specific first among equals, the first Jetty has a page for; nil for none. No `Accept`
            /// header is HTML.
            package init?(accept: String?) {
                guard let accept else {
                    self = .html
                    return
                }
                func trimmed(_ text: Substring) -> String {
                    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
                    return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
                }
                var ranges: [(type: String, quality: Double, specificity: Int, order: Int)] = []
                for (order, item) in accept.split(separator: ",").enumerated() {
                    let parts = item.split(separator: ";").map(trimmed)
                    guard let type = parts.first?.lowercased(), !type.isEmpty else { continue }
                    var quality = 1.0
                    for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                        quality = Double(parameter.dropFirst(2)) ?? 1.0
                    }
                    guard quality > 0 else { continue }
                    ranges.append((type, quality, type == "*/*" ? 0 : type.hasSuffix("/*") ? 1 : 2, order))
                }
                ranges.sort { ($0.quality, $0.specificity, -$0.order) > ($1.quality, $1.specificity, -$1.order) }
                for range in ranges {
                    switch range.type {
                    case "text/html", "text/*", "*/*": self = .html
                    case "text/json", "application/json": self = .json
                    case "text/plain": self = .plain
                    default: continue
                    }
                    return
                }
                return nil
            }
        }
    }

    package let body: Body?
    /// Header values that are templates, by index into the response's headers.
    package let headers: [(index: Int, template: TemplateText)]
    /// SSE `data` fields that are templates, by event index.
    package let eventData: [(index: Int, template: TemplateText)]

    package init(
        body: Body?, headers: [(index: Int, template: TemplateText)], eventData: [(index: Int, template: TemplateText)]
    ) {
        self.body = body
        self.headers = headers
        self.eventData = eventData
    }

    /// Whether anything at all varies (a `"template": true` response without tags renders nothing).
    package var isEmpty: Bool { body == nil && headers.isEmpty && eventData.isEmpty }

    /// The body bytes, headers and events for one request.
    package func render(
        into headers: inout HTTPHeaders, body: inout [UInt8], status: inout Int,
        stream: inout ResponseStreaming?, _ context: TemplateContext
    ) {
        switch self.body {
        case .file(let choice)?:
            var name = Substring(choice.literalName ?? choice.name.render(context))
            while name.hasPrefix("/") { name = name.dropFirst() }
            switch choice.files[String(name)] {
            case .bytes(let bytes)?: body = bytes
            case .template(let text, _)?: body = Array(text.render(context).utf8)
            case nil:
                (status, headers, body) = FileChoice.missingFileAnswer(
                    choice.directory + "/" + name, accept: context.match.request.headers["Accept"],
                    uri: context.match.request.path)
                return
            }
        case .text(let text)?:
            body = Array(text.render(context).utf8)
        case .json(let json)?:
            let writer = JSONWriter(capacity: 256)
            json.write(into: writer, context)
            body = writer.bytes
        case nil:
            break
        }
        if !self.headers.isEmpty {
            var fields = headers.fields
            for (index, template) in self.headers where index < fields.count {
                // Request data must not end the header early: line breaks and NUL become spaces.
                let value = template.render(context)
                fields[index].value =
                    value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
                    ? String(
                        decoding: value.utf8.map { $0 == 0x0A || $0 == 0x0D || $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
                    : value
            }
            headers = HTTPHeaders(fields)
        }
        if !eventData.isEmpty, case .events(var events)? = stream {
            for (index, template) in eventData where index < events.count {
                events[index].data = template.render(context)
            }
            stream = .events(events)
        }
    }
}

/// A `json` body whose strings may be templates.
/// Not `indirect`: the recursion goes through arrays, and boxed cases hide their pointers in tag
/// bits, which LeakSanitizer (scripts/fuzz) then reports as leaks.
package enum JSONTemplate: Sendable {
    /// What a typed string (`"{{number now.epoch}}"`) becomes: the rendered text read as this
    /// JSON type, `null` when it renders empty, and the text as a string when it is not of the type.
    package enum Typed: String, Sendable, CaseIterable {
        case number, boolean, json
    }

    case literal(JSONValue)
    case string(TemplateText)
    /// A string that is one typed tag: its value is written as a number, boolean or JSON value.
    case typed(TemplateText, Typed)
    case array([JSONTemplate])
    case object([(key: JSONTemplate, value: JSONTemplate)])

    /// Whether any of its strings draws from the seeded generator (``TemplateText/drawsRandom``).
    package var drawsRandom: Bool {
        switch self {
        case .literal: return false
        case .string(let text), .typed(let text, _): return text.drawsRandom
        case .array(let elements): return elements.contains { $0.drawsRandom }
        case .object(let members): return members.contains { $0.key.drawsRandom || $0.value.drawsRandom }
        }
    }

    package func write(into writer: JSONWriter, _ context: TemplateContext) {
        switch self {
        case .literal(let value):
            writer.value(value)
        case .string(let text):
            writer.appendJSONString(text.render(context))
        case .typed(let text, let type):
            Self.writeTyped(text.render(context), as: type, into: writer)
        case .array(let elements):
            writer.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.append(",") }
                element.write(into: writer, context)
            }
            writer.append("]")
        case .object(let members):
            writer.append("{")
            for (index, member) in members.enumerated() {
                if index > 0 { writer.append(",") }
                member.key.write(into: writer, context)
                writer.append(":")
                member.value.write(into: writer, context)
            }
            writer.append("}")
        }
    }

    /// `text` as a `type` value: a JSON number (as written), `true`/`false`, or any JSON value;
    /// `null` when empty; otherwise the text as a string, so the body stays valid JSON.
    static func writeTyped(_ text: String, as type: Typed, into writer: JSONWriter) {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty {
            writer.append("null" as StaticString)
            return
        }
        let value = JSONValue.parse(Array(trimmed.utf8))
        switch (type, value) {
        case (.number, .number?), (.boolean, .bool?), (.json, _?): writer.value(value!)
        default: writer.appendJSONString(text)
        }
    }

    /// The typed tag a JSON string is, if it is one: `{{number NAME}}`, `{{boolean NAME}}` or
    /// `{{json NAME}}` and nothing else; the type and the plain tag `{{NAME}}` to compile.
    package static func typedTag(_ text: String) -> (Typed, String)? {
        guard text.hasPrefix("{{"), text.hasSuffix("}}"), !text.hasPrefix("{{{") else { return nil }
        let inner = String(text.dropFirst(2).dropLast(2)).trimmingSpaces
        guard let space = inner.firstIndex(of: " "), let type = Typed(rawValue: String(inner[..<space])) else {
            return nil
        }
        let name = String(inner[inner.index(after: space)...]).trimmingSpaces
        guard !name.isEmpty, !name.contains("{"), !name.contains("}") else { return nil }
        return (type, "{{" + name + "}}")
    }

    /// Whether any part renders per request.
    package var varies: Bool {
        if case .literal = self { return false }
        return true
    }
}
