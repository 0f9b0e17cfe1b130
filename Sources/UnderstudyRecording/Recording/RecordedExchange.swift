#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// One request and the answer it got, as recording reads it: from a journal entry (a snapshot, or
/// `understudy record`) or from a HAR entry (`understudy import-har`). Bodies are the full bytes:
/// an input that kept only part of a body is refused before it gets here, since a stub made from
/// it would answer something the real API never sent.
public struct RecordedExchange: Sendable {
    /// The request method as sent.
    public var method: String
    /// The path as sent (still percent-encoded).
    public var path: String
    /// The query as sent, without `?`; nil when the target had none.
    public var query: String?
    /// The request's header fields, in order.
    public var headers: [HTTPHeaders.Field]
    /// The request body.
    public var body: [UInt8]
    /// The status answered.
    public var status: Int
    /// The response's header fields, in order, as sent.
    public var responseHeaders: [HTTPHeaders.Field]
    /// The whole response body.
    public var responseBody: [UInt8]
    /// When the request was made, in seconds since 1970 (the reference for `--template-dates`);
    /// nil when the input does not say.
    public var time: Double?

    /// An exchange from its parts.
    public init(
        method: String, path: String, query: String? = nil, headers: [HTTPHeaders.Field] = [], body: [UInt8] = [],
        status: Int, responseHeaders: [HTTPHeaders.Field] = [], responseBody: [UInt8] = [], time: Double? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.time = time
    }

    /// The exchange a journal entry (its documented JSON object) records, or nil for an entry that
    /// is not a stub's answer: an unmatched request (the daemon's own 404), a fault, a client that
    /// left, a refusal. A response body the journal cut (`truncated`, by `--journal-body-limit`)
    /// throws: recording needs every byte.
    public init?(journalEntry entry: JSONValue) throws(RecordingError) {
        guard case .bool(true)? = entry["matched"], entry["outcome"]?.stringValue == "answered",
            let response = entry["response"], let status = response["status"]?.intValue,
            let method = entry["method"]?.stringValue, let path = entry["path"]?.stringValue
        else { return nil }
        let seq = entry["seq"]?.intValue ?? 0
        if case .bool(true)? = response["truncated"] {
            let size = response["bodySize"]?.intValue ?? 0
            throw RecordingError(
                "journal entry \(seq) (\(method) \(path)): the journal kept only part of its \(size)-byte response "
                    + "body (--journal-body-limit); record with a limit above the largest body, e.g. "
                    + "`understudy serve --journal-body-limit \(max(size, 1 << 20))`, or use `understudy record`")
        }
        self.method = method
        self.path = path
        self.query = entry["query"]?.stringValue
        self.headers = Self.headerFields(entry["headers"])
        self.body = try Self.body(text: entry["body"], base64: entry["bodyBase64"], what: "journal entry \(seq)")
        self.status = status
        self.responseHeaders = Self.headerFields(response["headers"])
        self.responseBody = try Self.body(
            text: response["body"], base64: response["bodyBase64"], what: "journal entry \(seq)")
        self.time = entry["time"]?.stringValue.flatMap(TimeFormatting.parseISO8601Milliseconds).map { $0 / 1000 }
    }

    /// The journal's header shape, `{"name": ["v1", "v2"]}`, as ordered fields.
    static func headerFields(_ value: JSONValue?) -> [HTTPHeaders.Field] {
        guard case .object(let members)? = value else { return [] }
        var fields: [HTTPHeaders.Field] = []
        for member in members {
            switch member.value {
            case .array(let values):
                for value in values {
                    fields.append(HTTPHeaders.Field(name: member.key, value: value.stringValue ?? ""))
                }
            case .string(let text):
                fields.append(HTTPHeaders.Field(name: member.key, value: text))
            default:
                continue
            }
        }
        return fields
    }

    static func body(text: JSONValue?, base64: JSONValue?, what: String) throws(RecordingError) -> [UInt8] {
        if let encoded = base64?.stringValue {
            guard let data = Data(base64Encoded: encoded) else { throw RecordingError("\(what): body is not base64") }
            return Array(data)
        }
        return Array((text?.stringValue ?? "").utf8)
    }

    /// The request's decoded query pairs, in order.
    var queryPairs: [(name: String, value: String)] { PercentDecoding.queryPairs(query) }
}

/// Why recording could not turn its input into stubs (a truncated body, a file that is not HAR, a
/// directory that cannot be written), as the CLI prints it and the admin API answers it.
public struct RecordingError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, naming the entry or file.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
