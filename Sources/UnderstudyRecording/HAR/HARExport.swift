#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// Journal entries → HAR 1.2 (the HTTP Archive format browser devtools and HAR viewers open).
///
/// One implementation serves `GET /__admin/requests.har` and `understudy har JOURNAL.jsonl`: both hand
/// it journal entries as JSON objects (the documented journal line shape), so the file and the live
/// journal convert identically.
///
/// Times: `elapsedMs` counts from the start of the engine that journaled the entry, the main port's
/// or a session's (from its creation), so each entry is placed on its own engine's clock:
/// `startedDateTime` is the wall-clock `time` of that engine's first entry carried forward by the
/// entry's monotonic `elapsedMs`. Gaps between one engine's requests are the server's monotonic
/// gaps even if the wall clock stepped, and entries of sessions created at different times keep
/// their own times. `statusText` is the reason phrase sent: the journal's `response.reason` when
/// the phrase was not the standard one, else the standard phrase for the status. `timings.wait` is how long the server held the request (`outcomeMs -
/// elapsedMs`, or `delayMs` in journals without `outcomeMs`); the journal records no network time,
/// so `send` and `receive` are 0.
public enum HARExport {
    /// `creator.name` in every HAR written: tools that read HAR files show it as the file's source.
    public static let creatorName = "understudy"
    /// `creator.version` in every HAR written (the version of this HAR writer, not of HAR itself).
    public static let creatorVersion = "1.0"

    /// A HAR 1.2 document for `entries` (journal entry objects, ascending `seq`). `defaultHost` is
    /// used for the URL of a request that carried no `Host` header.
    public static func document(entries: [JSONValue], defaultHost: String = "127.0.0.1") -> JSONValue {
        var anchors = ClockAnchors()
        let harEntries = entries.map { entry(for: $0, anchor: anchors.anchor(for: $0), defaultHost: defaultHost) }
        return .object([
            JSONMember(
                "log",
                .object([
                    JSONMember("version", .string("1.2")),
                    JSONMember(
                        "creator",
                        .object([
                            JSONMember("name", .string(creatorName)),
                            JSONMember("version", .string(creatorVersion)),
                        ])),
                    JSONMember("pages", .array([])),
                    JSONMember("entries", .array(harEntries)),
                ]))
        ])
    }

    /// Converts a JSON Lines journal (the `--journal` file) to HAR bytes. Blank lines are skipped;
    /// a line that is not a JSON object throws, naming its line number.
    public static func har(fromJournalLines bytes: [UInt8], defaultHost: String = "127.0.0.1") throws(HARExportError)
        -> [UInt8]
    {
        var entries: [JSONValue] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let value = JSONValue.parse(Array(line)), case .object = value else {
                throw HARExportError(line: lineNumber, message: "not a journal entry (a JSON object on one line)")
            }
            guard value["seq"]?.doubleValue != nil, value["method"]?.stringValue != nil,
                value["path"]?.stringValue != nil
            else {
                throw HARExportError(
                    line: lineNumber, message: "not a journal entry: `seq`, `method` and `path` are required")
            }
            entries.append(value)
        }
        return document(entries: entries, defaultHost: defaultHost).jsonBytes
    }

    /// Reads a JSON Lines journal file (`-` is standard input) and converts it; a missing or
    /// unreadable file throws with line 0.
    public static func har(fromJournalFile path: String, defaultHost: String = "127.0.0.1") throws(HARExportError)
        -> [UInt8]
    {
        let data: Data?
        if path == "-" {
            data = Data(readStandardInput())
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw HARExportError(line: 0, message: "cannot read \(path)") }
        return try har(fromJournalLines: Array(data), defaultHost: defaultHost)
    }

    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    // MARK: - One entry

    /// Wall-clock milliseconds at each engine's `elapsedMs` zero. Entries of the main port have no
    /// `session`; each session's carry its id. An engine's anchor comes from its first entry that
    /// has both `time` and `elapsedMs`; a `seq` that does not increase (a journal file appended to
    /// by a later daemon run, whose clock starts again) takes a new anchor.
    struct ClockAnchors {
        private var anchors: [String: (anchor: Double, lastSeq: Double)] = [:]

        mutating func anchor(for entry: JSONValue) -> Double? {
            let clock = entry["session"]?.stringValue ?? ""
            let seq = entry["seq"]?.doubleValue ?? 0
            if let known = anchors[clock], seq > known.lastSeq {
                anchors[clock]?.lastSeq = seq
                return known.anchor
            }
            guard let time = entry["time"]?.stringValue, let wall = TimeFormatting.parseISO8601Milliseconds(time),
                let elapsed = entry["elapsedMs"]?.doubleValue
            else {
                return anchors[clock]?.anchor
            }
            anchors[clock] = (wall - elapsed, seq)
            return wall - elapsed
        }
    }

    static func entry(for journal: JSONValue, anchor: Double?, defaultHost: String) -> JSONValue {
        let elapsed = journal["elapsedMs"]?.doubleValue ?? 0
        let started: String
        if let anchor {
            // Whole milliseconds, nudged half a millisecond up so the formatter's truncation cannot drop one.
            started = TimeFormatting.iso8601Milliseconds(((anchor + elapsed).rounded() + 0.5) / 1000)
        } else {
            started = journal["time"]?.stringValue ?? TimeFormatting.iso8601Milliseconds(0)
        }
        // How long the server held the request, on the monotonic clock: from arrival to its outcome
        // (`outcomeMs`), else the delay the stub asked for.
        let held = journal["outcomeMs"]?.doubleValue.map { $0 - elapsed } ?? journal["delayMs"]?.doubleValue ?? 0
        let wait = (max(0, held) * 1000).rounded() / 1000
        return .object([
            JSONMember("startedDateTime", .string(started)),
            JSONMember("time", number(wait)),
            JSONMember("request", request(journal, defaultHost: defaultHost)),
            JSONMember("response", response(journal)),
            JSONMember("cache", .object([])),
            JSONMember(
                "timings",
                .object([
                    JSONMember("send", .int(0)),
                    JSONMember("wait", number(wait)),
                    JSONMember("receive", .int(0)),
                ])),
            JSONMember("_understudy", understudyFields(journal)),
        ])
    }

    /// The journal's `protocol` (`HTTP/2`), absent on HTTP/1.1 lines.
    static func httpVersion(_ journal: JSONValue) -> JSONValue {
        journal["protocol"] ?? .string("HTTP/1.1")
    }

    static func request(_ journal: JSONValue, defaultHost: String) -> JSONValue {
        let headers = headerList(journal["headers"])
        let host = firstHeader(headers, "host") ?? defaultHost
        let path = journal["path"]?.stringValue ?? "/"
        let query = journal["query"]?.stringValue
        // The journal writes `scheme` only for TLS requests, so an absent one is plain HTTP.
        let scheme = journal["scheme"]?.stringValue ?? "http"
        let url = "\(scheme)://\(host)\(path)" + (query.map { "?" + $0 } ?? "")
        var members = [
            JSONMember("method", journal["method"] ?? .string("GET")),
            JSONMember("url", .string(url)),
            JSONMember("httpVersion", httpVersion(journal)),
            JSONMember("cookies", .array(requestCookies(headers))),
            JSONMember("headers", .array(headers.map(nameValue))),
            JSONMember("queryString", .array(PercentDecoding.queryPairs(query).map(nameValue))),
        ]
        let body = Body(text: journal["body"]?.stringValue, base64: journal["bodyBase64"]?.stringValue)
        if !body.isEmpty {
            var postData = [
                JSONMember("mimeType", .string(firstHeader(headers, "content-type") ?? "")),
                JSONMember("text", .string(body.harText)),
            ]
            if body.base64 != nil { postData.append(JSONMember("_encoding", .string("base64"))) }
            members.append(JSONMember("postData", .object(postData)))
        }
        members.append(JSONMember("headersSize", .int(-1)))
        members.append(JSONMember("bodySize", .int(body.byteCount)))
        return .object(members)
    }

    static func response(_ journal: JSONValue) -> JSONValue {
        let sent = journal["response"]
        let headers = headerList(sent?["headers"])
        let statusValue = sent?["status"]?.doubleValue ?? journal["status"]?.doubleValue
        let body = Body(text: sent?["body"]?.stringValue, base64: sent?["bodyBase64"]?.stringValue)
        let size = sent?["bodySize"]?.doubleValue.map { Int($0) } ?? body.byteCount
        var content = [
            JSONMember("size", .int(size)),
            JSONMember("mimeType", .string(firstHeader(headers, "content-type") ?? "")),
        ]
        if sent?["body"] != nil || sent?["bodyBase64"] != nil {
            content.append(JSONMember("text", .string(body.harText)))
            if body.base64 != nil { content.append(JSONMember("encoding", .string("base64"))) }
        }
        if case .bool(true)? = sent?["truncated"] {
            content.append(
                JSONMember("comment", .string("body truncated by --journal-body-limit; size is the full size")))
            content.append(JSONMember("_truncated", .bool(true)))
        }
        var members = [
            JSONMember("status", .int(statusValue.map { Int($0) } ?? 0)),
            JSONMember(
                "statusText",
                .string(statusValue.map { sent?["reason"]?.stringValue ?? ReasonPhrase.of(Int($0)) } ?? "")),
            JSONMember("httpVersion", httpVersion(journal)),
            JSONMember("cookies", .array([])),
            JSONMember("headers", .array(headers.map(nameValue))),
            JSONMember("content", .object(content)),
            JSONMember("redirectURL", .string(firstHeader(headers, "location") ?? "")),
            JSONMember("headersSize", .int(-1)),
            JSONMember("bodySize", .int(statusValue == nil ? -1 : size)),
        ]
        if statusValue == nil {
            // Devtools show `_error` for a request that got no response (status 0).
            let why = journal["fault"]?.stringValue ?? journal["outcome"]?.stringValue ?? "no response was sent"
            members.append(JSONMember("_error", .string(why)))
        }
        return .object(members)
    }

    /// The journal's own fields that HAR has no place for.
    static func understudyFields(_ journal: JSONValue) -> JSONValue {
        let keys = [
            "seq", "elapsedMs", "matched", "stub", "responseIndex", "fault", "errorCode", "lastStreamId", "scenario",
            "rateLimited", "delayMs", "outcome", "outcomeMs", "session",
        ]
        return .object(keys.compactMap { key in journal[key].map { JSONMember(key, $0) } })
    }

    // MARK: - Pieces

    /// A body as journaled: UTF-8 text, or base64 for other bytes.
    struct Body {
        var text: String?
        var base64: String?

        var isEmpty: Bool { (text ?? "").isEmpty && (base64 ?? "").isEmpty }
        var harText: String { base64 ?? text ?? "" }
        var byteCount: Int {
            if let base64 { return Data(base64Encoded: base64)?.count ?? 0 }
            return text?.utf8.count ?? 0
        }
    }

    /// `{"name": ["v1", "v2"]}` (the journal's header shape) → ordered pairs.
    static func headerList(_ value: JSONValue?) -> [(name: String, value: String)] {
        guard case .object(let members)? = value else { return [] }
        var list: [(name: String, value: String)] = []
        for member in members {
            switch member.value {
            case .array(let values):
                for value in values { list.append((member.key, value.stringValue ?? "")) }
            case .string(let text):
                list.append((member.key, text))
            default:
                continue
            }
        }
        return list
    }

    static func firstHeader(_ headers: [(name: String, value: String)], _ name: String) -> String? {
        headers.first { HTTPHeaders.namesMatch($0.name, name) }?.value
    }

    static func requestCookies(_ headers: [(name: String, value: String)]) -> [JSONValue] {
        headers.filter { HTTPHeaders.namesMatch($0.name, "cookie") }.flatMap { header in
            header.value.split(separator: ";").compactMap { part -> JSONValue? in
                let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0].drop { $0 == " " })
                guard !name.isEmpty else { return nil }
                return nameValue((name, pair.count > 1 ? String(pair[1]) : ""))
            }
        }
    }

    static func nameValue(_ pair: (name: String, value: String)) -> JSONValue {
        .object([JSONMember("name", .string(pair.name)), JSONMember("value", .string(pair.value))])
    }

    static func number(_ value: Double) -> JSONValue {
        value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .number(String(value))
    }
}

/// A journal line `understudy har` could not convert.
public struct HARExportError: Error, CustomStringConvertible, Sendable {
    /// 1-based line number in the JSON Lines file.
    public var line: Int
    /// What is wrong with that line (or with the file, when `line` is 0), as `understudy har` prints it.
    public var message: String

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
