import UnderstudyStubFormat

/// A content coding the transport compresses with: the stub format's own enum (``StubFormat/Compression``).
public typealias ContentCoding = StubFormat.Compression

/// How the transport compresses a response's body (a response's `compress`, `compressWhen` and
/// `compressMistake`): the coding, when it applies, and a mistake made on purpose, if any.
public struct ResponseCompression: Sendable, Equatable {
    /// The content coding (`Content-Encoding`) the body is compressed with.
    public var coding: StubFormat.Compression
    /// When it applies: when the request accepts the coding, always or never.
    public var when: StubFormat.CompressWhen
    /// A compressed answer wrong on purpose; nil sends it right.
    public var mistake: StubFormat.CompressMistake?
    /// Whose rules decide: the stub format's, or Jetty's gzip handler's (a WireMock root).
    public var rules: Rules = .native

    /// Whose rules a compression follows.
    public enum Rules: Sendable, Equatable {
        /// The stub format's: `when` decides, and `accepted` adds `Vary: Accept-Encoding`.
        case native
        /// Jetty's `GzipHandler` as WireMock 2.35 configures it: gzip for a 2xx answer with a body
        /// (not 204) to `GET`, `POST`, `PUT`, `PATCH` or `DELETE` whose `Content-Type` is compressible (not an image but SVG, audio,
        /// video or an archive) and which sets no `Content-Encoding`, when the request accepts gzip,
        /// even a 2-byte or empty body; such an answer gets `Vary: Accept-Encoding, User-Agent`
        /// whatever the request accepts, or `Vary: User-Agent` when its own `Vary` names
        /// `Accept-Encoding`.
        case jetty
    }

    /// Jetty's gzip for a WireMock root's responses.
    public static let jetty: ResponseCompression = {
        var setting = ResponseCompression(coding: .gzip)
        setting.rules = .jetty
        return setting
    }()

    /// A compression setting.
    public init(
        coding: StubFormat.Compression, when: StubFormat.CompressWhen = .accepted,
        mistake: StubFormat.CompressMistake? = nil
    ) {
        self.coding = coding
        self.when = when
        self.mistake = mistake
    }

    /// Whether a request whose `Accept-Encoding` field values are `acceptEncoding` gets the body
    /// compressed: per RFC 9110 §12.5.3, a coding listed with `q=0` is refused, one listed (or `*`)
    /// with any other weight accepted; no field accepts nothing here (the server may choose
    /// identity, and a test of compression wants the client to ask).
    public func applies(acceptEncoding: [String]) -> Bool {
        switch when {
        case .never: return false
        case .always: return true
        case .accepted: return Self.accepts(acceptEncoding, coding.rawValue)
        }
    }

    /// Whether `values` (the `Accept-Encoding` fields) accept `coding`: named or `*`, weight above 0.
    public static func accepts(_ values: [String], _ coding: String) -> Bool {
        var wildcard: Bool?
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";")
                guard let first = parts.first else { continue }
                let name = first.trimmingSpaces().lowercased()
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    if pair.count == 2, pair[0].trimmingSpaces().lowercased() == "q" {
                        weight = Double(pair[1].trimmingSpaces()) ?? 1
                    }
                }
                if name == coding || (coding == "gzip" && name == "x-gzip") { return weight > 0 }
                if name == "*" { wildcard = weight > 0 }
            }
        }
        return wildcard ?? false
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
