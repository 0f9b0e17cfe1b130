import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// How recorded exchanges become stubs: what requests match on, which response headers are kept,
/// which secrets are redacted, and which values become templates. `understudy record`,
/// `understudy import-har` and `POST /__admin/recordings/snapshot` take the same options
/// (docs/recording.md).
public struct RecordingOptions: RecordingSettings {
    /// Response headers never kept: they describe one transfer, not the answer (the daemon writes
    /// its own `Date`, `Content-Length` and framing).
    public static let volatileHeaders = [
        "Date", "Content-Length", "Connection", "Transfer-Encoding", "Server", "Keep-Alive",
    ]
    /// What a redacted secret is replaced by, in every file written; on replay a matcher that would
    /// have compared a secret only asks for it to be present.
    public static let placeholder = "REDACTED"

    /// Request headers the stubs match on (by value; a redacted one by presence).
    public var matchHeaders: [String] = []
    /// JSON paths of request-body fields the stubs match on; empty matches the whole JSON body.
    public var matchBody: [String] = []
    /// Response headers dropped besides ``volatileHeaders``.
    public var dropHeaders: [String] = []
    /// Headers (request and response) whose values are secrets.
    public var redactHeaders: [String] = []
    /// Query parameters whose values are secrets.
    public var redactQuery: [String] = []
    /// JSON paths (request and response bodies) whose values are secrets.
    public var redactJSON: [String] = []
    /// Whether dates within ``dateWindowSeconds`` of the exchange's time become `{{now…}}` templates.
    public var templateDates = false
    /// How far from the recording time a date may be and still be taken for "now", in seconds.
    public var dateWindowSeconds: Double = 60
    /// Whether response values that echo a request value become templates that echo it.
    public var echoIDs = false
    /// Bodies longer than this many bytes go to a file under `__files/` (`bodyFile`).
    public var bodyFileThreshold = 16 * 1024
    /// The upstream's base URL (`https://api.example.com`): in response headers it becomes
    /// `{{server.url}}`, so a redirect or a `Link` stays on the stub server.
    public var upstream: String?

    /// The defaults: match method, path, query and body; keep every header but the volatile ones;
    /// redact and template nothing.
    public init() {}

    /// The options of an admin call's JSON body (`matchHeaders`, `matchBody`, `dropHeaders`,
    /// `redactHeaders`, `redactQuery`, `redactJson`, `templateDates`, `dateWindow`, `echoIds`,
    /// `bodyFileThreshold`, `upstream`); `ignoring` lists other keys the call itself reads. An
    /// unknown key or a value of the wrong kind throws, naming it.
    public init(json: JSONValue, ignoring: Set<String> = []) throws(RecordingError) {
        guard case .object(let members) = json else { throw RecordingError("the body must be a JSON object") }
        for member in members where !ignoring.contains(member.key) {
            let value = member.value
            switch member.key {
            case "matchHeaders": matchHeaders = try Self.strings(value, member.key)
            case "matchBody": matchBody = try Self.strings(value, member.key)
            case "dropHeaders": dropHeaders = try Self.strings(value, member.key)
            case "redactHeaders": redactHeaders = try Self.strings(value, member.key)
            case "redactQuery": redactQuery = try Self.strings(value, member.key)
            case "redactJson": redactJSON = try Self.strings(value, member.key)
            case "templateDates": templateDates = try Self.flag(value, member.key)
            case "echoIds": echoIDs = try Self.flag(value, member.key)
            case "dateWindow":
                guard let seconds = value.doubleValue, seconds >= 0 else {
                    throw RecordingError("`dateWindow` must be a number of seconds ≥ 0")
                }
                dateWindowSeconds = seconds
            case "bodyFileThreshold":
                guard let bytes = value.intValue, bytes >= 0 else {
                    throw RecordingError("`bodyFileThreshold` must be a whole number of bytes ≥ 0")
                }
                bodyFileThreshold = bytes
            case "upstream":
                guard let url = value.stringValue else { throw RecordingError("`upstream` must be a URL string") }
                upstream = url
            default:
                let known = Self.jsonKeys + ignoring.sorted()
                let hint = EditDistance.closest(to: member.key, among: known).map { "; did you mean `\($0)`?" } ?? ""
                throw RecordingError(
                    "unknown key `\(member.key)`\(hint) (known: \(known.map { "`\($0)`" }.joined(separator: ", ")))")
            }
        }
        try validate()
    }

    /// The options as ``init(json:ignoring:)`` reads them (what `understudy record --session`
    /// sends the daemon).
    public var json: JSONValue {
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        var members = [
            JSONMember("matchHeaders", strings(matchHeaders)), JSONMember("matchBody", strings(matchBody)),
            JSONMember("dropHeaders", strings(dropHeaders)), JSONMember("redactHeaders", strings(redactHeaders)),
            JSONMember("redactQuery", strings(redactQuery)), JSONMember("redactJson", strings(redactJSON)),
            JSONMember("templateDates", .bool(templateDates)),
            JSONMember("dateWindow", JSONValue(dateWindowSeconds)),
            JSONMember("echoIds", .bool(echoIDs)), JSONMember("bodyFileThreshold", .int(bodyFileThreshold)),
        ]
        if let upstream { members.append(JSONMember("upstream", .string(upstream))) }
        return .object(members)
    }

    /// The keys ``init(json:ignoring:)`` reads.
    public static let jsonKeys = [
        "matchHeaders", "matchBody", "dropHeaders", "redactHeaders", "redactQuery", "redactJson", "templateDates",
        "dateWindow", "echoIds", "bodyFileThreshold", "upstream",
    ]

    /// Throws when a JSON path does not parse.
    public func validate() throws(RecordingError) {
        for (option, paths) in [("match-body", matchBody), ("redact-json", redactJSON)] {
            for path in paths {
                do {
                    _ = try JSONPathExpression(path)
                } catch let error as JSONPathExpression.SyntaxError {
                    throw RecordingError("--\(option) `\(path)` is not a JSON path: \(error.message)")
                } catch {
                    throw RecordingError("--\(option) `\(path)` is not a JSON path")
                }
            }
        }
    }

    private static func strings(_ value: JSONValue, _ key: String) throws(RecordingError) -> [String] {
        guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
            throw RecordingError("`\(key)` must be an array of strings")
        }
        return items.compactMap(\.stringValue)
    }

    private static func flag(_ value: JSONValue, _ key: String) throws(RecordingError) -> Bool {
        guard case .bool(let flag) = value else { throw RecordingError("`\(key)` must be true or false") }
        return flag
    }

    /// Whether the response header `name` is kept.
    func keepsResponseHeader(_ name: String) -> Bool {
        !(Self.volatileHeaders + dropHeaders).contains { HTTPHeaders.namesMatch($0, name) }
    }
}
