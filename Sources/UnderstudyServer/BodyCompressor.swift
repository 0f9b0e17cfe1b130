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
        var headers = response.headers
        if setting.when == .accepted { addVary(to: &headers) }
        defer { response.headers = headers }
        guard setting.applies(acceptEncoding: request.headers.values(for: "Accept-Encoding")),
            !headers.contains("Content-Encoding"), response.fault == nil
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

    /// `bytes` in `coding` at zlib's default level, or nil if zlib fails (then the body goes as it is).
    static func compress(_ bytes: [UInt8], _ coding: ContentCoding) -> [UInt8]? {
        var stream = z_stream()
        // 15 bits of window; +16 writes a gzip header and trailer instead of zlib's.
        let windowBits: Int32 = coding == .gzip ? 15 + 16 : 15
        guard understudy_deflate_init(&stream, Z_DEFAULT_COMPRESSION, windowBits) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
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
