/// How the HTTP transport listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback by default so a stub server is never exposed by accident.
    public var host: String
    /// The port to bind; 0 lets the system pick a free one (read back from ``HTTPServer/port``).
    public var port: Int
    /// The largest request body accepted; larger requests get 413 (and are journaled).
    public var maxBodyBytes: Int
    /// The most bytes of header fields accepted; more get 431 (RFC 6585 §5).
    public var maxHeaderBytes: Int
    /// The longest request line accepted; longer ones get 414 (RFC 9112 §3). By default the same
    /// as ``maxHeaderBytes``.
    public var maxRequestLineBytes: Int
    /// The most header fields accepted; more get 431.
    public var maxHeaderCount: Int
    /// Seconds a connection may sit idle (or stall mid-request) before it is closed.
    public var idleTimeoutSeconds: Int
    /// The most HTTP/2 streams a client may have open at once on one connection (the
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` the server announces). nghttp2 enforces it: a client
    /// that opens more gets `RST_STREAM` `REFUSED_STREAM` before it has acknowledged the
    /// SETTINGS, `GOAWAY` `PROTOCOL_ERROR` after.
    public var maxConcurrentStreams: Int
    /// Seconds a graceful stop waits for in-flight responses (delayed ones included).
    public var shutdownGraceSeconds: Double
    /// A PEM file of the CA certificates proxying stubs trust for HTTPS upstreams, instead of
    /// the system's (`--proxy-ca`); nil trusts the system's.
    public var proxyCAFile: String?

    /// 16 MiB, the default body limit.
    public static let defaultMaxBodyBytes = 16 * 1024 * 1024

    /// Creates a configuration; every parameter has the default the CLI uses.
    public init(
        host: String = "127.0.0.1", port: Int = 0, maxBodyBytes: Int = ServerConfiguration.defaultMaxBodyBytes,
        maxHeaderBytes: Int = 64 * 1024, idleTimeoutSeconds: Int = 60, shutdownGraceSeconds: Double = 5,
        maxRequestLineBytes: Int? = nil, maxHeaderCount: Int = 1000, maxConcurrentStreams: Int = 100
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxRequestLineBytes = maxRequestLineBytes ?? maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.maxConcurrentStreams = maxConcurrentStreams
    }

    /// Whether ``host`` only accepts connections from this machine.
    public var isLoopback: Bool {
        host == "127.0.0.1" || host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
