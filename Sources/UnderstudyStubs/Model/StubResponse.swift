import UnderstudyHTTP

/// One response in a stub's sequence.
public struct StubResponse: Sendable {
    /// The status code, 100–599.
    public var status: Int
    /// Header fields in the order written.
    public var headers: HTTPHeaders
    /// The body bytes (from `body`, `json`, `base64` or `bodyFile`).
    public var body: [UInt8]
    /// How many times this response is served before the sequence advances (≥ 1).
    public var times: Int
    /// Milliseconds the transport waits before answering.
    public var delayMs: Double
    /// A random delay added to `delayMs`, drawn for each response.
    public var delayDistribution: DelayDistribution? {
        get { extras?.delayDistribution }
        set { extras = Extras.make(newValue, statusMessage, faultParameters, proxy, webhooks, compression) }
    }
    /// The reason phrase of the status line; `nil` uses the standard one.
    public var statusMessage: String? {
        get { extras?.statusMessage }
        set { extras = Extras.make(delayDistribution, newValue, faultParameters, proxy, webhooks, compression) }
    }
    /// What `fault`'s object form adds to it (an HTTP/2 error code, a `GOAWAY`'s last-stream id).
    public var faultParameters: FaultParameters? {
        get { extras?.faultParameters }
        set { extras = Extras.make(delayDistribution, statusMessage, newValue, proxy, webhooks, compression) }
    }
    /// Answer by forwarding the request upstream (`proxy`) instead of from this response's fields.
    public var proxy: ProxySetting? {
        get { extras?.proxy }
        set { extras = Extras.make(delayDistribution, statusMessage, faultParameters, newValue, webhooks, compression) }
    }
    /// Requests the daemon sends after this response (`webhooks`); nil when it sends none.
    public var webhooks: [WebhookSetting]? {
        get { extras?.webhooks }
        set { extras = Extras.make(delayDistribution, statusMessage, faultParameters, proxy, newValue, compression) }
    }
    /// How the transport compresses the body (`compress`, `compressWhen`, `compressMistake`); nil
    /// sends it as written.
    public var compression: ResponseCompression? {
        get { extras?.compression }
        set { extras = Extras.make(delayDistribution, statusMessage, faultParameters, proxy, webhooks, newValue) }
    }
    /// The fields few responses set, boxed: the serving path copies a response per request, and
    /// a `nil` box costs that copy nothing.
    private var extras: Extras?

    private final class Extras: Sendable {
        let delayDistribution: DelayDistribution?
        let statusMessage: String?
        let faultParameters: FaultParameters?
        let proxy: ProxySetting?
        let webhooks: [WebhookSetting]?
        let compression: ResponseCompression?

        init(
            _ delayDistribution: DelayDistribution?, _ statusMessage: String?, _ faultParameters: FaultParameters?,
            _ proxy: ProxySetting?, _ webhooks: [WebhookSetting]?, _ compression: ResponseCompression?
        ) {
            self.compression = compression
            self.webhooks = webhooks
            self.delayDistribution = delayDistribution
            self.statusMessage = statusMessage
            self.faultParameters = faultParameters
            self.proxy = proxy
        }

        static func make(
            _ delayDistribution: DelayDistribution?, _ statusMessage: String?, _ faultParameters: FaultParameters?,
            _ proxy: ProxySetting?, _ webhooks: [WebhookSetting]?, _ compression: ResponseCompression?
        ) -> Extras? {
            delayDistribution == nil && statusMessage == nil && faultParameters == nil && proxy == nil
                && webhooks == nil && compression == nil
                ? nil : Extras(delayDistribution, statusMessage, faultParameters, proxy, webhooks, compression)
        }
    }
    /// A `Retry-After` header computed when the response is sent.
    public var retryAfter: RetryAfterSetting?
    /// A fault the transport carries out instead of a normal answer.
    public var fault: Fault?
    /// The parts rendered per request (`"template": true`); nil for a static response, which
    /// then costs the request path nothing.
    public var template: ResponseTemplate?
    /// How the body is paced (`dribble`, `bytesPerSecond`, `events`); nil writes it at once.
    public var streaming: ResponseStreaming? {
        get { pacing?.streaming }
        set { pacing = newValue.map(Pacing.init) }
    }
    /// `streaming`, boxed: one pointer, so copying a static response costs nothing more.
    private var pacing: Pacing?

    /// Creates a response.
    public init(
        status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], times: Int = 1,
        delayMs: Double = 0, retryAfter: RetryAfterSetting? = nil, fault: Fault? = nil,
        delayDistribution: DelayDistribution? = nil, statusMessage: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.times = times
        self.delayMs = delayMs
        self.retryAfter = retryAfter
        self.fault = fault
        self.extras = Extras.make(delayDistribution, statusMessage, nil, nil, nil, nil)
    }
}

/// The `retryAfter` convenience on a response.
public enum RetryAfterSetting: Sendable, Equatable {
    /// A number of seconds, written exactly as given in the stub (`1.5` → `Retry-After: 1.5`).
    case seconds(String)
    /// An IMF-fixdate this many seconds after the response is sent (after its delay).
    case httpDateIn(Double)
}
