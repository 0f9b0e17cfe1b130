import CCurl
import UnderstudyCore

/// Requests the server makes itself, on its own loop through libcurl's multi interface
/// (``UpstreamClient``, made and libcurl opened the first time one is needed). Proxying stubs are
/// the first kind; webhooks (outbound requests on a schedule) belong here too, beside them.
///
/// Webhooks (a response's `webhooks`): see `OutboundRequests+Webhooks.swift`.
///
/// Proxying (`proxy`): the engine answers with an ``UpstreamRequest`` and the transport forwards
/// it here, then answers the client with the upstream's status, headers (hop-by-hop ones dropped)
/// and body: whole when the upstream gave a length, relayed piece by piece otherwise (see
/// ``ProxyRelay``). An upstream that fails (refused, timed out, a certificate not trusted, a name
/// that does not resolve) gets the client a `502` whose body and `X-Understudy-Proxy-Error` header
/// say why. Every proxied request is journaled once, with `proxied` (the upstream URL, its status,
/// the milliseconds it took, and the error if any).
///
/// Only the loop thread touches it; it holds the server unowned (the server owns it).
final class OutboundRequests {
    unowned(unsafe) let server: HTTPServer
    let reference: ServerReference
    /// The libcurl client, once a request needed it; `unavailable` once libcurl could not be loaded.
    private var upstream: UpstreamClient?
    private var unavailable = false
    /// Webhook exchanges in flight, by their call (see `OutboundRequests+Webhooks.swift`).
    var webhookCalls: [ObjectIdentifier: OutboundCall] = [:]
    /// Webhook timers waiting on the loop (a delay or a retry on a real clock).
    var timers: [ObjectIdentifier: OutboundTimer] = [:]

    init(server: HTTPServer) {
        self.server = server
        self.reference = server.reference
    }

    var clock: MonotonicClock { MonotonicClock() }

    /// Closes the libcurl client: its events are on the loop, which is freed next.
    func close() {
        timers.removeAll()  // their events are freed with them
        for entry in webhookCalls.values { entry.call.cutOff() }
        webhookCalls.removeAll()
        upstream?.close()
        upstream = nil
    }

    /// The header naming why an upstream exchange failed, on the `502` the client gets.
    static let proxyErrorHeader = "X-Understudy-Proxy-Error"

    /// The upstream client, made (and libcurl opened) the first time a stub proxies; nil when
    /// libcurl cannot be loaded.
    func upstreamClient() -> UpstreamClient? {
        if let upstream { return upstream }
        guard !unavailable else { return nil }
        upstream = UpstreamClient(base: server.base, caFile: server.configuration.proxyCAFile)
        unavailable = upstream == nil
        return upstream
    }

    /// Sends the pending reply's ``HTTPResponse/proxy`` upstream; the answer comes back through
    /// the call's handlers below.
    func proxy(_ pending: PendingReply, on channel: any ReplyChannel) {
        guard let request = pending.response.proxy, pending.relay == nil else { return }
        let startedAt = clock.nanoseconds()
        pending.timer = nil
        guard let client = upstreamClient(), let call = UpstreamCall(request, client: client) else {
            failProxy(
                pending, on: channel, request, error: "proxy-unavailable",
                reason: "libcurl (libcurl.so.4) could not be loaded; install libcurl4", startedAt: startedAt)
            return
        }
        let relay = ProxyRelay(call: call, startedAt: startedAt, journal: pending.journal)
        pending.relay = relay
        // The server through its ServerReference: a weak `self` would slow every retain of it.
        call.onHead = { [reference, weak pending] status, headers in
            guard let server = reference.server, let pending else { return }
            server.outbound.proxyHead(pending, status: status, headers: headers)
        }
        call.onBody = { [weak pending] bytes in
            guard let pending, let relay = pending.relay else { return }
            relay.body.append(contentsOf: bytes)
            guard relay.relaying, let channel = pending.channel, channel.current === pending, !channel.closed else {
                return
            }
            channel.writePiece(bytes, chunked: relay.chunked)
        }
        call.onEnd = { [reference, weak pending] result, reason in
            guard let server = reference.server, let pending else { return }
            server.outbound.proxyEnded(pending, result: result, reason: reason)
        }
        if !call.start() {
            pending.relay = nil
            failProxy(
                pending, on: channel, request, error: "proxy-unavailable", reason: "curl refused the request",
                startedAt: startedAt)
        }
    }

    /// The upstream's final head: an open-ended body is relayed from now on; a body of known
    /// length (or none) is gathered and answered at the end.
    fileprivate func proxyHead(_ pending: PendingReply, status: Int, headers upstreamHeaders: HTTPHeaders) {
        guard let relay = pending.relay, let channel = pending.channel, channel.current === pending, !channel.closed
        else { return }
        var headers = UpstreamRequest.endToEnd(upstreamHeaders)
        for field in relay.call.request.addResponseHeaders.fields {
            headers.append(name: field.name, value: field.value)
        }
        relay.status = status
        relay.headers = headers
        let carriesBody = !channel.isHeadRequest && status >= 200 && status != 204 && status != 304
        guard carriesBody, !headers.contains("Content-Length") else { return }
        relay.relaying = true
        pending.sent = true
        server.log(pending, status: status, fault: nil)
        let response = HTTPResponse(status: status, headers: headers, stubID: pending.response.stubID)
        // The head goes out now; the entry waits for the end, so it holds the whole body.
        let (chunked, closing) = channel.writeStreamHead(
            response, chunked: true, closeAfter: pending.closeAfter, journal: nil)
        relay.chunked = chunked
        relay.closing = closing
        var sent = headers
        if chunked { sent.append(name: "Transfer-Encoding", value: "chunked") }
        if closing { sent.append(name: "Connection", value: "close") }
        relay.sentHeaders = sent
    }

    /// The upstream exchange ended: answer with what it sent, end the relayed body, or `502`.
    fileprivate func proxyEnded(_ pending: PendingReply, result: CURLcode, reason: String) {
        guard let relay = pending.relay, let channel = pending.channel, channel.current === pending, !channel.closed
        else { return }
        let milliseconds = clock.milliseconds(since: relay.startedAt)
        let request = relay.call.request
        server.openJournalBatch()
        if relay.relaying {
            let failure = result == CURLE_OK ? nil : Self.proxyFailure(result)
            let proxied = ProxiedExchange(
                upstream: request.url, status: relay.status, milliseconds: milliseconds, error: failure,
                reason: failure == nil ? nil : reason)
            relay.proxied = proxied
            relay.journal?.noteProxied(proxied)
            relay.journal?.commit(
                .answered(status: relay.status ?? 502, headers: relay.sentHeaders, body: relay.body))
            if failure == nil {
                channel.finishStream(chunked: relay.chunked, closing: relay.closing)
            } else {
                // The upstream broke off mid-body: so does the client's answer (no last chunk).
                channel.perform(.emptyResponse, response: pending.response, plan: FaultPlan())
            }
            return
        }
        guard result == CURLE_OK, let status = relay.status else {
            failProxy(
                pending, on: channel, request, error: Self.proxyFailure(result), reason: reason,
                startedAt: relay.startedAt)
            return
        }
        pending.journal?.noteProxied(ProxiedExchange(upstream: request.url, status: status, milliseconds: milliseconds))
        pending.response = HTTPResponse(
            status: status, headers: relay.headers, body: relay.body, stubID: pending.response.stubID)
        server.replies.send(pending, on: channel)
    }

    /// Answers `502` for an upstream exchange that failed, naming why in the body and in
    /// ``proxyErrorHeader``, and journals it so.
    private func failProxy(
        _ pending: PendingReply, on channel: any ReplyChannel, _ request: UpstreamRequest, error: String,
        reason: String, startedAt: UInt64
    ) {
        pending.journal?.noteProxied(
            ProxiedExchange(
                upstream: request.url, status: nil, milliseconds: clock.milliseconds(since: startedAt), error: error,
                reason: reason))
        var headers = HTTPHeaders()
        headers.append(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.append(name: Self.proxyErrorHeader, value: error)
        pending.response = HTTPResponse(
            status: 502, headers: headers,
            body: Array("understudy: proxying to \(request.url) failed: \(error) (\(reason))\n".utf8),
            stubID: pending.response.stubID)
        server.replies.send(pending, on: channel)
    }

    /// The journal's and the `502`'s name for why curl gave up.
    static func proxyFailure(_ result: CURLcode) -> String {
        switch result {
        case CURLE_COULDNT_CONNECT: return "connection-refused"
        case CURLE_OPERATION_TIMEDOUT: return "timeout"
        case CURLE_COULDNT_RESOLVE_HOST: return "dns-failure"
        case CURLE_PEER_FAILED_VERIFICATION: return "bad-certificate"
        case CURLE_SSL_CACERT_BADFILE: return "bad-ca-file"
        case CURLE_SSL_CONNECT_ERROR: return "tls-handshake-failed"
        case CURLE_GOT_NOTHING: return "empty-reply"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR: return "connection-reset"
        case CURLE_PARTIAL_FILE: return "truncated-body"
        case CURLE_WEIRD_SERVER_REPLY: return "malformed-response"
        case CURLE_WRITE_ERROR: return "client-gone"
        default: return "upstream-error"
        }
    }
}
