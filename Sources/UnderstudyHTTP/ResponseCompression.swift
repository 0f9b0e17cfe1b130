#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// The bytes this setting last sent and what they encode, shared by the copies of one stub
    /// response's setting: a static body is compressed once, not per answer.
    public let memo = EncodedBodyMemo()

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

    /// Jetty's gzip for a WireMock root's responses: a new setting (and memo) for each response.
    public static var jetty: ResponseCompression {
        var setting = ResponseCompression(coding: .gzip)
        setting.rules = .jetty
        return setting
    }

    /// Equal when they compress alike; the memo is a cache, not part of the setting.
    public static func == (lhs: ResponseCompression, rhs: ResponseCompression) -> Bool {
        lhs.coding == rhs.coding && lhs.when == rhs.when && lhs.mistake == rhs.mistake && lhs.rules == rhs.rules
    }

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

/// The last body one response's compression setting encoded, and the bytes it sent for it: a
/// static body (the same array every answer, so comparing is a pointer check) is compressed once,
/// and a templated one whose text repeats is not compressed again. The key holds the coding and the
/// mistake too, so a copy of the setting changed afterwards never gets another's bytes. Read and
/// written by the event loops that send the response, under a lock.
public final class EncodedBodyMemo: @unchecked Sendable {
    private struct Entry {
        var source: [UInt8]
        var coding: ContentCoding
        var mistake: StubFormat.CompressMistake?
        var encoded: [UInt8]
    }

    private var entry: Entry?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// An empty memo.
    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The bytes remembered for `source` encoded with `coding` and `mistake`, if they are the last.
    public func encoded(
        _ source: [UInt8], _ coding: ContentCoding, _ mistake: StubFormat.CompressMistake?
    ) -> [UInt8]? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard let entry, entry.coding == coding, entry.mistake == mistake, entry.source == source else { return nil }
        return entry.encoded
    }

    /// Remembers `encoded` as what `source` is sent as, in place of what was remembered before.
    public func remember(
        _ source: [UInt8], _ coding: ContentCoding, _ mistake: StubFormat.CompressMistake?, _ encoded: [UInt8]
    ) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        entry = Entry(source: source, coding: coding, mistake: mistake, encoded: encoded)
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

/// Where the process says which content codings it can compress with, so a stub that asks for one
/// whose library is missing (`br` without libbrotli1) fails to load with the reason, in `serve` and
/// `check` alike, instead of going out uncompressed.
///
/// Written once, at start-up, before any stub is compiled (the daemon's `main`); only read after
/// that, hence no lock. Nothing installed (an embedding program, a unit test) takes every coding
/// as available.
public enum CompressionSupport {
    nonisolated(unsafe) private static var check: (@Sendable (ContentCoding) -> String?)?

    /// Installs the check: for a coding, nil when it is available, else why not.
    public static func install(_ unavailability: @escaping @Sendable (ContentCoding) -> String?) {
        check = unavailability
    }

    /// Why `coding` cannot be compressed with in this process, or nil when it can.
    public static func unavailability(of coding: ContentCoding) -> String? {
        check?(coding)
    }
}

extension EncodedBodyMemo: CustomReflectable {
    /// No children: the memo is a cache of what was last sent, not part of the response's meaning, so a
    /// dump of a stub (the compile step's fingerprint in StubCompilerTests) is the same for two compiles
    /// of one definition instead of showing each memo's lock address.
    public var customMirror: Mirror { Mirror(self, children: EmptyCollection<Mirror.Child>()) }
}
