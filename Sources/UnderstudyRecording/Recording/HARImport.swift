#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// HAR 1.2 → recorded exchanges, for `understudy import-har`: a browser's or a proxy's HAR, or the
/// one `understudy har` and `GET /__admin/requests.har` export.
///
/// An entry without a response (status 0) or whose HAR holds no body (browsers leave out bodies
/// they did not keep) is skipped and said; an entry whose body the exporter cut (`_truncated`, as
/// Understudy's export marks a journal's truncated body) refuses the file, since a stub made from
/// it would answer something the API never sent. HAR's `content.text` is the decoded body (HAR
/// 1.2: "decompressed and unchunked"), so `Content-Encoding` is not kept with it.
public enum HARImport {
    /// The exchanges of `bytes` (a HAR document), in the file's order, and a sentence for each
    /// entry skipped.
    public static func exchanges(fromHAR bytes: [UInt8]) throws(RecordingError) -> (
        exchanges: [RecordedExchange], skipped: [String]
    ) {
        guard let document = JSONValue.parse(bytes) else { throw RecordingError("not JSON, so not a HAR file") }
        guard let entries = document["log"]?["entries"]?.arrayValue else {
            throw RecordingError("not a HAR file: `log.entries` is missing")
        }
        var exchanges: [RecordedExchange] = []
        var skipped: [String] = []
        for (index, entry) in entries.enumerated() {
            let what = "entry \(index)"
            guard let request = entry["request"], let method = request["method"]?.stringValue,
                let url = request["url"]?.stringValue
            else { throw RecordingError("\(what): `request.method` and `request.url` are required") }
            let target = Self.target(of: url)
            guard let response = entry["response"], let status = response["status"]?.intValue, status > 0 else {
                skipped.append("\(what) (\(method) \(url)): no response")
                continue
            }
            let content = response["content"]
            if case .bool(true)? = content?["_truncated"] {
                throw RecordingError(
                    "\(what) (\(method) \(url)): its body was cut when the HAR was written (_truncated); export it "
                        + "from a journal with a --journal-body-limit above its size")
            }
            let size = content?["size"]?.intValue ?? 0
            guard let text = content?["text"]?.stringValue ?? (size <= 0 ? "" : nil) else {
                skipped.append("\(what) (\(method) \(url)): the HAR holds no response body")
                continue
            }
            let body = try Self.bytes(text, base64: content?["encoding"]?.stringValue == "base64", what: what)
            let post = request["postData"]
            let requestBody = try Self.bytes(
                post?["text"]?.stringValue ?? "",
                base64: post?["_encoding"]?.stringValue == "base64" || post?["encoding"]?.stringValue == "base64",
                what: what)
            let responseHeaders = Self.headers(response["headers"]).filter {
                !HTTPHeaders.namesMatch($0.name, "content-encoding")
            }
            exchanges.append(
                RecordedExchange(
                    method: method, path: target.path, query: target.query, headers: Self.headers(request["headers"]),
                    body: requestBody, status: status, responseHeaders: responseHeaders, responseBody: body,
                    time: entry["startedDateTime"]?.stringValue.flatMap(TimeFormatting.parseISO8601Milliseconds)
                        .map { $0 / 1000 }))
        }
        return (exchanges, skipped)
    }

    /// The path and query of an absolute URL (`https://host/a?b=1#f` → `/a`, `b=1`).
    static func target(of url: String) -> (path: String, query: String?) {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? (rest.firstIndex(of: "?").map { rest[$0...] } ?? "")
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        return (path.isEmpty ? "/" : path, parts.count > 1 ? String(parts[1]) : nil)
    }

    /// HAR's `[{"name", "value"}]`, without HTTP/2 pseudo-headers (`:authority`).
    static func headers(_ value: JSONValue?) -> [HTTPHeaders.Field] {
        (value?.arrayValue ?? []).compactMap { item in
            guard let name = item["name"]?.stringValue, !name.hasPrefix(":") else { return nil }
            return HTTPHeaders.Field(name: name, value: item["value"]?.stringValue ?? "")
        }
    }

    static func bytes(_ text: String, base64: Bool, what: String) throws(RecordingError) -> [UInt8] {
        guard base64 else { return Array(text.utf8) }
        guard let data = Data(base64Encoded: text) else { throw RecordingError("\(what): a body is not valid base64") }
        return Array(data)
    }

    /// Reads the HAR file at `path` and converts it as ``exchanges(fromHAR:)`` does.
    public static func exchanges(fromFile path: String) throws(RecordingError) -> (
        exchanges: [RecordedExchange], skipped: [String]
    ) {
        guard let data = FileManager.default.contents(atPath: path) else { throw RecordingError("cannot read \(path)") }
        return try exchanges(fromHAR: Array(data))
    }
}
