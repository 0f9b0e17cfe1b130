import UnderstudyStubFormat

/// HTTP/2's error codes: the stub format's own enum (``StubFormat/HTTP2ErrorCode``).
public typealias HTTP2ErrorCode = StubFormat.HTTP2ErrorCode
/// A `GOAWAY`'s last-stream id: the stub format's own enum (``StubFormat/GoawayLastStream``).
public typealias GoawayLastStream = StubFormat.GoawayLastStream

/// What `fault`'s object form adds to the fault it names (`{"rstStream": {"errorCode": ...}}`,
/// `{"goaway": {"lastStreamId": ...}}`): the named values (`rst-stream-refused`, `goaway`...) are
/// shorthands with none. The transport and the journal read them through ``frame(of:_:stream:)``,
/// so what is sent and what is journaled come from one place.
public struct FaultParameters: Sendable, Equatable {
    /// The `RST_STREAM` or `GOAWAY` error code; nil: the fault's own (``StubFormat/Fault/http2ErrorCode``).
    public var errorCode: HTTP2ErrorCode?
    /// The `GOAWAY`'s last-stream id; nil: the stream before the faulted one.
    public var lastStream: GoawayLastStream?

    /// Creates parameters.
    public init(errorCode: HTTP2ErrorCode? = nil, lastStream: GoawayLastStream? = nil) {
        self.errorCode = errorCode
        self.lastStream = lastStream
    }

    /// The HTTP/2 frame a fault puts on the wire, as the journal records it.
    public struct Frame: Sendable, Equatable {
        /// The `RST_STREAM` or `GOAWAY` error code sent.
        public var errorCode: HTTP2ErrorCode
        /// A `GOAWAY`'s last-stream id; nil for `RST_STREAM`.
        public var lastStreamID: Int32?

        /// Creates a frame description.
        public init(errorCode: HTTP2ErrorCode, lastStreamID: Int32? = nil) {
            self.errorCode = errorCode
            self.lastStreamID = lastStreamID
        }
    }

    /// What `fault` (with `parameters`) sends on HTTP/2 stream `stream`; nil for a fault that
    /// sends no `RST_STREAM` or `GOAWAY`, and over HTTP/1.1 (`stream` 0), where none is sent.
    public static func frame(of fault: Fault, _ parameters: FaultParameters?, stream: Int32) -> Frame? {
        guard stream != 0, let code = parameters?.errorCode ?? fault.http2ErrorCode else { return nil }
        switch fault {
        case .goaway, .goawayNow:
            return Frame(errorCode: code, lastStreamID: (parameters?.lastStream ?? .previous).resolved(on: stream))
        default:
            return Frame(errorCode: code)
        }
    }
}
