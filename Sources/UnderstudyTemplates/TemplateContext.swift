import UnderstudyMustache
import UnderstudyJSON
import UnderstudyHTTP
import UnderstudyJSON

/// Everything a response template's variables read for one request: the request itself, the
/// base URL it arrived on, the time, its journal `seq` and the engine's seeded generator.
///
/// At load time the loader renders each template once against a *probe* context (no request,
/// ``problems`` set): every name that resolves to nothing is recorded there, which is how
/// unknown variables become load-time errors although mustache itself renders them as empty.
package final class TemplateContext {
    let match: MatchContext
    /// The scheme, host and port the request arrived on, from the transport (see ``UnderstudyResponder/serverURL``).
    let listenerURL: String
    /// Seconds since 1970 when the request was answered.
    let now: Double
    /// The journal `seq` the request gets.
    let seq: Int
    /// Random values; copied back to the engine after rendering, so `--seed` repeats them.
    var generator: SeededGenerator
    /// Set only when validating a template at load time.
    let problems: TemplateProblems?
    /// The response that was sent, which a webhook's templates read as `response.…`; nil for a
    /// response's own templates (the name is then unknown).
    let sent: SentResponse?

    init(
        match: MatchContext, listenerURL: String, now: Double, seq: Int, generator: SeededGenerator,
        problems: TemplateProblems? = nil, sent: SentResponse? = nil
    ) {
        self.sent = sent
        self.match = match
        self.listenerURL = listenerURL
        self.now = now
        self.seq = seq
        self.generator = generator
        self.problems = problems
    }

    /// A context with no request, for checking a template's names at load time.
    /// With `sent`, a webhook's probe: `response.…` is known too.
    static func probe(_ problems: TemplateProblems, sent: Bool = false) -> TemplateContext {
        TemplateContext(
            match: MatchContext(HTTPRequest(method: "GET", path: "/")), listenerURL: "http://127.0.0.1:0",
            now: 0, seq: 1, generator: SeededGenerator(seed: 0), problems: problems,
            sent: sent ? SentResponse(status: 200, headers: HTTPHeaders(), body: []) : nil)
    }

    var isProbe: Bool { problems != nil }

    /// `{{server.url}}`: the listener's URL, named by the request's host when that is a loopback
    /// name of this listener (see ``ServerURL``). Worked out only for templates that use it.
    var serverURL: String {
        ServerURL.arrivedOn(listenerURL, hostHeader: match.request.headers["Host"])
    }

    /// `{{request.port}}`: the port of the listener the request arrived on.
    var listenerPort: String {
        guard let colon = listenerURL.lastIndex(of: ":") else { return "" }
        let port = listenerURL[listenerURL.index(after: colon)...]
        return port.allSatisfy(\.isNumber) ? String(port) : ""
    }

    /// The root every template name starts from.
    var root: TemplateNode { TemplateNode(.root, self) }
}

/// Names a probe render could not resolve, in the order met.
final class TemplateProblems {
    struct Problem {
        /// The dotted name as far as it resolved, plus the part that did not.
        var name: String
        /// The last segment (searched for in the template text to place the error).
        var segment: String
        var message: String
    }
    var list: [Problem] = []

    func unknown(_ parent: String, _ segment: String, known: [String]) {
        let name = parent.isEmpty ? segment : parent + "." + segment
        var message = "unknown template variable `\(name)`"
        if let close = EditDistance.closest(to: segment, among: known) {
            message += "; did you mean `\(parent.isEmpty ? close : parent + "." + close)`?"
        }
        message += " Known \(parent.isEmpty ? "names" : "under `\(parent)`"): \(known.joined(separator: ", "))"
        list.append(Problem(name: name, segment: segment, message: message))
    }

    func invalid(_ name: String, segment: String, _ message: String) {
        list.append(Problem(name: name, segment: segment, message: message))
    }
}

/// The response a webhook follows, as its templates read it (`response.status`,
/// `response.headers.NAME`, `response.body`, `response.json.PATH`): what the engine answered, so
/// the event can name the object the response created.
package final class SentResponse {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]
    private var parsed: JSONValue??

    package init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as JSON, parsed the first time a template asks; nil when it is not JSON.
    var json: JSONValue? {
        if let parsed { return parsed }
        let json = JSONValue.parse(body)
        parsed = .some(json)
        return json
    }
}
