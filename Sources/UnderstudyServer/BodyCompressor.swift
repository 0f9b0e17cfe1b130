#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import UnderstudyCore

/// A response's `compress`, carried out on the event loop before the reply is written: the body is
/// compressed with zlib (gzip or deflate) or brotli (br), labelled with `Content-Encoding`, and `Vary` names
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
        guard let encoded = encoded(original, setting) else { return }
        var label = setting.coding.rawValue
        if setting.mistake == .wrongLabel { label = setting.coding == .gzip ? "deflate" : "gzip" }
        headers.replaceOrAdd(name: "Content-Encoding", value: label)
        if headers.contains("Content-Length") {
            headers.replaceOrAdd(name: "Content-Length", value: String(encoded.count))
        }
        response.body = encoded
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

    /// The bytes sent for `body` under `setting`, its mistake made: the setting's memo when `body`
    /// is the one it last encoded (a static body: compressed once per response and coding), else
    /// encoded now and remembered. Nil when the library fails or is missing (the body goes as it is).
    static func encoded(_ body: [UInt8], _ setting: ResponseCompression) -> [UInt8]? {
        if let bytes = setting.memo.encoded(body, setting.coding, setting.mistake) { return bytes }
        guard var bytes = compress(body, setting.coding) else { return nil }
        switch setting.mistake {
        case nil, .wrongLabel?: break
        case .twice?: bytes = compress(bytes, setting.coding) ?? bytes
        case .truncated?: bytes = Array(bytes.prefix(bytes.count / 2))
        }
        setting.memo.remember(body, setting.coding, setting.mistake, bytes)
        return bytes
    }

    /// `bytes` in `coding`, or nil if the library fails or is missing.
    static func compress(_ bytes: [UInt8], _ coding: ContentCoding) -> [UInt8]? {
        switch coding {
        case .gzip, .deflate: return DeflateStreams.current.compress(bytes, gzip: coding == .gzip)
        case .br: return brotliCompress(bytes)
        }
    }

    /// Why `coding` cannot be compressed with here, or nil: what ``CompressionLibraries/install()``
    /// installs, so a stub asking for `br` without libbrotli1 fails to load. Only br is checked (and
    /// brotli opened, at load time, by a stub that asks for it): zlib is on every Debian system, and
    /// opening it at load time would move its cost to start-up.
    static func unavailability(of coding: ContentCoding) -> String? {
        guard coding == .br, brotli == nil else { return nil }
        return "`compress: \"br\"` needs brotli's encoder (libbrotlienc.so.1), which cannot be opened here; "
            + "on Debian: apt-get install libbrotli1"
    }

    /// zlib's entry points, opened the first time a body is compressed (`swift_once`, so two event
    /// loops racing to it open it once); nil when libz.so.1 cannot be opened. Unchecked: a table of
    /// function pointers written once by that initialiser and only read after it.
    nonisolated(unsafe) static let zlib: understudy_zlib? = {
        var api = understudy_zlib()
        return understudy_zlib_load(&api) == 1 ? api : nil
    }()

    /// brotli's encoder, opened (through the same loader) the first time a stub asks for `br`; nil
    /// when libbrotlienc.so.1 cannot be opened.
    nonisolated(unsafe) static let brotli: understudy_brotli? = {
        var api = understudy_brotli()
        return understudy_brotli_load(&api) == 1 ? api : nil
    }()

    /// `bytes` in brotli at ``UNDERSTUDY_BROTLI_QUALITY``, or nil if brotli fails or is missing.
    static func brotliCompress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let api = brotli, let run = api.compress, let maxSize = api.max_size else { return nil }
        let bound = maxSize(bytes.count)
        guard bound > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: bound)
        var written = bound
        let succeeded = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                run(
                    UNDERSTUDY_BROTLI_QUALITY, UNDERSTUDY_BROTLI_WINDOW, UNDERSTUDY_BROTLI_MODE_GENERIC, source.count,
                    source.baseAddress, &written, target.baseAddress)
            }
        }
        guard succeeded == 1 else { return nil }
        output.removeSubrange(written...)
        return output
    }
}

/// The compressors' part of a program's start-up.
public enum CompressionLibraries {
    /// Installs the check of ``CompressionSupport`` (a stub's `compress: "br"` without brotli's
    /// library fails to load); the CLI calls it before loading stubs.
    public static func install() {
        CompressionSupport.install { BodyCompressor.unavailability(of: $0) }
    }
}

/// The deflate streams of one thread (an event loop), one for gzip and one for zlib's deflate, each
/// set up once and reset between bodies (`deflateReset`): setting a stream up (its window and hash
/// tables allocated and cleared) was most of a compressed answer's cost. Kept in a thread-specific
/// slot, so no lock; ended when the thread exits.
final class DeflateStreams {
    private var gzip: UnsafeMutablePointer<z_stream>?
    private var zlib: UnsafeMutablePointer<z_stream>?

    deinit {
        for stream in [gzip, zlib] {
            guard let stream else { continue }
            _ = BodyCompressor.zlib?.end?(stream)
            stream.deallocate()
        }
    }

    /// This thread's streams, made on its first compression.
    static var current: DeflateStreams {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<DeflateStreams>.fromOpaque(raw).takeUnretainedValue()
        }
        let streams = DeflateStreams()
        pthread_setspecific(key, Unmanaged.passRetained(streams).toOpaque())
        return streams
    }

    /// The slot, whose destructor releases a thread's streams when it exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<DeflateStreams>.fromOpaque(raw).release()
        }
        return key
    }()

    /// `bytes` in gzip (or zlib-wrapped deflate) at zlib's default level, or nil if zlib fails.
    func compress(_ bytes: [UInt8], gzip wantsGzip: Bool) -> [UInt8]? {
        guard let api = BodyCompressor.zlib, let run = api.run, let bound = api.bound, let reset = api.reset,
            let stream = stream(gzip: wantsGzip, api)
        else { return nil }
        guard reset(stream) == Z_OK else { return nil }
        var output = [UInt8](repeating: 0, count: Int(bound(stream, uLong(bytes.count))) + 32)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                defer {
                    stream.pointee.next_in = nil
                    stream.pointee.next_out = nil
                }
                return run(stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.pointee.total_out)...)
        return output
    }

    /// The stream for the coding, set up on first use; nil if zlib refuses to set it up.
    private func stream(gzip wantsGzip: Bool, _ api: understudy_zlib) -> UnsafeMutablePointer<z_stream>? {
        if let existing = wantsGzip ? gzip : zlib { return existing }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        var api = api
        // 15 bits of window; +16 writes a gzip header and trailer instead of zlib's.
        guard understudy_zlib_deflate_init(&api, stream, Z_DEFAULT_COMPRESSION, wantsGzip ? 15 + 16 : 15) == Z_OK else {
            stream.deallocate()
            return nil
        }
        if wantsGzip { gzip = stream } else { zlib = stream }
        return stream
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
