import UnderstudyCore

@testable import UnderstudyServer

/// Bytes as a connection's input buffer holds them, without libevent or a socket: a run of
/// chunks, one per write the client made (so a head that arrives a byte at a time spans chunks
/// and the codec must pull it up, as `evbuffer_pullup` does on a live connection).
struct ChunkedInput: HTTP1Input {
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        var capacity: Int
        /// The unread bytes are `base[start..<end]`.
        var start = 0
        var end = 0
        /// The sizes of the unread chunks, first to last.
        var chunks: [Int] = []

        init() {
            capacity = 64
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private let storage = Storage()
    /// How many `100 Continue` interim responses the codec asked for.
    private(set) var continues = 0

    /// The client writes `bytes`: they arrive as one more chunk.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let storage = self.storage
        let unread = storage.end - storage.start
        if storage.end + bytes.count > storage.capacity {
            let capacity = max(storage.capacity * 2, unread + bytes.count)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: storage.base + storage.start, count: unread)
            storage.base.deallocate()
            storage.base = grown
            storage.capacity = capacity
            storage.start = 0
            storage.end = unread
        }
        bytes.withUnsafeBufferPointer { (storage.base + storage.end).update(from: $0.baseAddress!, count: $0.count) }
        storage.end += bytes.count
        storage.chunks.append(bytes.count)
    }

    var count: Int { storage.end - storage.start }
    var contiguousCount: Int { storage.chunks.first ?? 0 }

    mutating func pullup(_ count: Int) -> UnsafeMutablePointer<UInt8>? {
        guard count <= self.count else { return nil }
        // The bytes are contiguous already: pulling up only merges the first chunks into one.
        var merged = 0
        while merged < count, !storage.chunks.isEmpty { merged += storage.chunks.removeFirst() }
        if merged > 0 { storage.chunks.insert(merged, at: 0) }
        return storage.base + storage.start
    }

    mutating func drain(_ count: Int) {
        precondition(count <= self.count, "drained more than was buffered")
        storage.start += count
        var left = count
        while left > 0 {
            let first = storage.chunks.removeFirst()
            if first > left {
                storage.chunks.insert(first - left, at: 0)
                left = 0
            } else {
                left -= first
            }
        }
    }

    mutating func remove(_ count: Int) -> [UInt8] {
        let taken = min(count, self.count)
        let bytes = Array(UnsafeBufferPointer(start: storage.base + storage.start, count: taken))
        drain(taken)
        return bytes
    }

    mutating func writeContinue() {
        continues += 1
    }
}

/// A reply's bytes as they would go out, without a bufferevent.
struct ArrayOutput: HTTP1Output {
    private(set) var bytes: [UInt8] = []
    private var reserved: UnsafeMutablePointer<UInt8>?

    mutating func reserve(_ size: Int) -> UnsafeMutablePointer<UInt8>? {
        reserved = .allocate(capacity: size)
        return reserved
    }

    mutating func commit(_ count: Int) {
        guard let reserved else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: reserved, count: count))
        reserved.deallocate()
        self.reserved = nil
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// What a codec made of a client's bytes: the requests it handed over and the refusal, if any.
struct DecodedExchange {
    var requests: [HTTPRequest] = []
    var refusal: HTTPRefusal?
    /// The request the refusal answers, as far as it was read (``HTTP1Codec/takeRefusedRequest()``).
    var refused: HTTPRequest?
    /// Bytes left unread when the client was done.
    var unread = 0
    var continues = 0
    /// The replies as the client reads them: `200 ok` to each request and the refusal's status with
    /// its reason, each encoded by the codec right after it handed the request over (so with that
    /// request's method, version and keep-alive), as a connection answers.
    var wire = ArrayOutput()
}

/// Runs `writes` through a fresh codec as a connection does: after each write, every complete
/// request is taken; after a refusal nothing more is read as a request (the connection lingers).
func decode(
    _ writes: [[UInt8]], secure: Bool = false, maxBodyBytes: Int = ServerConfiguration.defaultMaxBodyBytes
) -> DecodedExchange {
    // The daemon's defaults (ServerConfiguration).
    let defaults = ServerConfiguration()
    var codec = HTTP1Codec(
        limits: RequestHeadParser.Limits(
            maxRequestLine: defaults.maxRequestLineBytes, maxFieldBytes: defaults.maxHeaderBytes,
            maxFields: defaults.maxHeaderCount),
        maxBodyBytes: maxBodyBytes, secure: secure)
    var input = ChunkedInput()
    var result = DecodedExchange()
    var date = DateHeader()
    var ignored = Capture()
    writing: for write in writes {
        input.append(write)
        while let arrival = codec.nextRequest(from: &input) {
            switch arrival {
            case .request(let request):
                result.requests.append(request)
                _ = codec.writeHead(
                    HTTPResponse(status: 200, body: Array("ok".utf8)), framing: .content, closeAfter: false,
                    draining: false, date: &date, into: &result.wire, recorder: &ignored)
            case .refused(let refusal):
                result.refusal = refusal
                result.refused = codec.takeRefusedRequest()
                // As `HTTPServer.refuse`: the refusal closes the connection, and has a body.
                codec.phase = .lingering
                codec.exchange.keepAlive = false
                codec.exchange.isHead = false
                _ = codec.writeHead(
                    HTTPResponse(status: refusal.status, body: Array((refusal.reason + "\n").utf8)),
                    framing: .content, closeAfter: true, draining: false, date: &date, into: &result.wire,
                    recorder: &ignored)
                break writing
            }
        }
    }
    result.unread = input.count
    result.continues = input.continues
    return result
}

/// The case's bytes written whole, or one byte at a time.
func writes(of data: [UInt8], bytewise: Bool) -> [[UInt8]] {
    bytewise ? data.map { [$0] } : [data]
}

/// One mirrored case of Tests/BlackBox/test_http1_conformance.py.
struct HTTP1ConformanceCase {
    let name: String
    let source: String
    let data: [UInt8]
    /// (method, path, body) the server must see, in order.
    let requests: [(String, String, String)]
    /// The final status, when the bytes end in a refusal.
    let refused: Int?
    /// The refusal's bytes had no readable method and target.
    let unread: Bool
}

/// Literal pieces of one string (the mirrored cases keep to 120 columns).
func text(_ pieces: String...) -> String { pieces.joined() }

/// Literal pieces of one string, as UTF-8 bytes.
func utf8(_ pieces: String...) -> [UInt8] { Array(pieces.joined().utf8) }

/// What the codec handed its recorder for the last reply.
struct Capture: HTTP1ReplyRecorder {
    var status = 0
    var reason: String?
    var fields: [String] = []
    var body = ""

    mutating func record(status: Int, reason: String?, fields: UnsafeBufferPointer<RawHeaderField>, body: [UInt8]) {
        self.status = status
        self.reason = reason
        self.fields = fields.map {
            String(decoding: $0.name, as: UTF8.self) + ": " + String(decoding: $0.value, as: UTF8.self)
        }
        self.body = String(decoding: body, as: UTF8.self)
    }
}
