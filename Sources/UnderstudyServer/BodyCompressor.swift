import CZlib
import UnderstudyCore

/// A response's `compress`, carried out on the event loop before the reply is written: the body is
/// compressed with zlib (gzip or deflate), labelled with `Content-Encoding`, and `Vary` names
/// `Accept-Encoding` when the answer depended on it. The journal keeps the body as the stub wrote
/// it (``JournalTicket/bodyBeforeEncoding``) and the head as sent, so its `Content-Encoding` says
/// which coding went out. The codecs then frame the compressed bytes like any body (a
/// `Content-Length`, an HTTP/2 `DATA` frame), so neither protocol sees anything new.
enum BodyCompressor {
    /// Applies `response.compression` for `request`: compresses the body (or, for a mistake, breaks
    /// it as asked) when the setting applies, and notes the original body on `journal`.
    static func apply(_ response: inout HTTPResponse, for request: HTTPRequest, journal: JournalTicket?) {
        guard let setting = response.compression else { return }
        response.compression = nil
        guard response.fault == nil else { return }
        var headers = response.headers
        switch setting.rules {
        case .native:
            if setting.when == .accepted { addVary(to: &headers) }
        case .jetty:
            guard jettyCompresses(response.status, headers, request.method) else { return }
            addJettyVary(to: &headers)
        }
        defer { response.headers = headers }
        guard setting.applies(acceptEncoding: request.headers.values(for: "Accept-Encoding")),
            !headers.contains("Content-Encoding")
        else { return }
        let original = response.body
        guard var compressed = compress(original, setting.coding) else { return }
        var label = setting.coding.rawValue
        switch setting.mistake {
        case nil: break
        case .wrongLabel?: label = setting.coding == .gzip ? "deflate" : "gzip"
        case .twice?: compressed = compress(compressed, setting.coding) ?? compressed
        case .truncated?: compressed = Array(compressed.prefix(compressed.count / 2))
        }
        headers.replaceOrAdd(name: "Content-Encoding", value: label)
        if headers.contains("Content-Length") {
            headers.replaceOrAdd(name: "Content-Length", value: String(compressed.count))
        }
        response.body = compressed
        journal?.bodyBeforeEncoding = original
    }

    /// The methods whose answers WireMock has Jetty compress, compared exactly as Jetty does (`get`
    /// is not `GET`; `HEAD`, `OPTIONS` and `TRACE` are left alone: measured on the 2.35.1 jar).
    static let jettyMethods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    /// Whether Jetty's gzip handler (WireMock 2.35) takes an answer: 2xx with a body, one of
    /// ``jettyMethods``, no
    /// `Content-Encoding` of its own, and a `Content-Type` (or none) outside its excluded types.
    static func jettyCompresses(_ status: Int, _ headers: HTTPHeaders, _ method: String) -> Bool {
        guard (200..<300).contains(status), status != 204, jettyMethods.contains(method),
            !headers.contains("Content-Encoding")
        else { return false }
        guard let type = headers["Content-Type"] else { return true }
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
        if media.hasPrefix("image/") { return media == "image/svg+xml" }
        if media.hasPrefix("audio/") || media.hasPrefix("video/") { return false }
        return !jettyExcludedTypes.contains(media)
    }

    /// The archive types Jetty's `GzipHandler` never compresses again (besides images, audio and video).
    static let jettyExcludedTypes: Set<String> = [
        "application/compress", "application/zip", "application/gzip", "application/bzip2", "application/brotli",
        "application/x-xz", "application/x-rar-compressed", "text/event-stream",
    ]

    /// Jetty's `Vary`: a field `User-Agent` when the answer's own `Vary` names `Accept-Encoding`,
    /// else a field `Accept-Encoding, User-Agent`, after the answer's own fields.
    static func addJettyVary(to headers: inout HTTPHeaders) {
        let namesIt = headers.values(for: "Vary").contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: " \t").lowercased() == "accept-encoding" }
        }
        headers.append(name: "Vary", value: namesIt ? "User-Agent" : "Accept-Encoding, User-Agent")
    }

    /// Adds `Accept-Encoding` to `Vary` unless a `Vary` field already names it (or is `*`).
    static func addVary(to headers: inout HTTPHeaders) {
        for value in headers.values(for: "Vary") {
            for item in value.split(separator: ",") {
                let name = item.trimmingCharacters(in: " \t").lowercased()
                if name == "accept-encoding" || name == "*" { return }
            }
        }
        headers.append(name: "Vary", value: "Accept-Encoding")
    }

    /// zlib's entry points, opened the first time a body is compressed (`swift_once`, so two event
    /// loops racing to it open it once); nil when libz.so.1 cannot be opened. Unchecked: a table of
    /// function pointers written once by that initialiser and only read after it.
    nonisolated(unsafe) static let zlib: understudy_zlib? = {
        var api = understudy_zlib()
        return understudy_zlib_load(&api) == 1 ? api : nil
    }()

    /// `bytes` in `coding` at zlib's default level, or nil if zlib fails (then the body goes as it is).
    static func compress(_ bytes: [UInt8], _ coding: ContentCoding) -> [UInt8]? {
        guard var api = zlib, let run = api.run, let end = api.end, let bound = api.bound else { return nil }
        var stream = z_stream()
        // 15 bits of window; +16 writes a gzip header and trailer instead of zlib's.
        let windowBits: Int32 = coding == .gzip ? 15 + 16 : 15
        guard understudy_zlib_deflate_init(&api, &stream, Z_DEFAULT_COMPRESSION, windowBits) == Z_OK else {
            return nil
        }
        defer { _ = end(&stream) }
        var output = [UInt8](repeating: 0, count: Int(bound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return run(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
