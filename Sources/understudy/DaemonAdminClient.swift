import UnderstudyCore
import UnderstudyLoopbackHTTP

/// Admin calls to a running daemon, for commands that attach to one (`record --session`): the
/// admin token and JSON on top of `LoopbackHTTPClient`, which does the exchange (the test kit's
/// admin client uses the same one).
struct DaemonAdminClient {
    /// What came back.
    typealias Response = LoopbackHTTPResponse

    /// The exchange, with the daemon's host and port and the call's deadline (30 s).
    let http: LoopbackHTTPClient
    /// Sent as `Authorization: Bearer` (the daemon's `--admin-token`).
    var token: String?

    /// A client for `url` (`http://127.0.0.1:PORT`, perhaps with a trailing `/`); nil when the URL
    /// is not a plain `http://` host and port with nothing after it.
    init?(url: String, token: String?) {
        guard let http = LoopbackHTTPClient(url: url) else { return nil }
        self.http = http
        self.token = token
    }

    /// Sends `method path` with `body` (JSON) and returns the whole answer.
    func call(_ method: String, _ path: String, body: [UInt8]? = nil) throws(LoopbackHTTPError) -> Response {
        var headers: [(name: String, value: String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try http.exchange(method: method, target: path, headers: headers, body: body)
    }
}

extension LoopbackHTTPResponse {
    /// The body as JSON (nil when it is not).
    var json: JSONValue? { JSONValue.parse(body) }
    /// The admin API's `error`, or the body's text.
    var message: String { json?["error"]?.stringValue ?? String(decoding: body, as: UTF8.self) }
}
