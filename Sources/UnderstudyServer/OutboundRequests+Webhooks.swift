import CCurl
import CLibevent
import CLibeventTLS
import UnderstudyCore

/// Webhooks: requests the daemon sends on its own, on the same libcurl multi handle and loop as
/// proxying (``UpstreamClient``), so a slow receiver holds one socket and never the loop. The
/// engine's ``WebhookDispatcher`` decides what to send and when; this sends it and reports back.
extension OutboundRequests {
    /// Sends `request` and calls `completion` on the loop with the receiver's answer (status,
    /// headers, body) or why there was none.
    func sendWebhook(_ request: UpstreamRequest, completion: @escaping (OutboundOutcome) -> Void) {
        let startedAt = clock.nanoseconds()
        guard let client = upstreamClient(), let call = UpstreamCall(request, client: client) else {
            completion(
                OutboundOutcome(
                    status: nil, error: "outbound-unavailable",
                    reason: "libcurl (libcurl.so.4) could not be loaded; install libcurl4"))
            return
        }
        let key = ObjectIdentifier(call)
        webhookCalls[key] = OutboundCall(call: call)
        call.onBody = { [reference] bytes in
            reference.server?.outbound.webhookCalls[key]?.body.append(contentsOf: bytes)
        }
        call.onEnd = { [reference] result, reason in
            guard let server = reference.server, let entry = server.outbound.webhookCalls.removeValue(forKey: key)
            else { return }
            let outbound = server.outbound
            let milliseconds = outbound.clock.milliseconds(since: startedAt)
            let call = entry.call
            // The exchange is over: its closures (which name it) go, so nothing keeps it alive.
            call.onBody = nil
            call.onEnd = nil
            if result == CURLE_OK, let status = call.status {
                completion(
                    OutboundOutcome(
                        status: status, headers: call.headers, body: entry.body, milliseconds: milliseconds))
            } else {
                completion(
                    OutboundOutcome(
                        status: nil, error: OutboundRequests.proxyFailure(result), reason: reason,
                        milliseconds: milliseconds))
            }
        }
        if !call.start() {
            webhookCalls[key] = nil
            call.onBody = nil
            call.onEnd = nil
            completion(OutboundOutcome(status: nil, error: "outbound-unavailable", reason: "curl refused the request"))
        }
    }

    /// Calls `action` on the loop after `nanoseconds`: a one-shot libevent timer, kept until it fires.
    func after(nanoseconds: UInt64, _ action: @escaping () -> Void) {
        let timer = OutboundTimer(action: action)
        let key = ObjectIdentifier(timer)
        timers[key] = timer
        let context = Unmanaged.passUnretained(timer).toOpaque()
        timer.event = EventHandle(
            event_new(
                server.base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    let timer = Unmanaged<OutboundTimer>.fromOpaque(context).takeUnretainedValue()
                    withExtendedLifetime(timer) {
                        timer.owner?.timers[ObjectIdentifier(timer)] = nil
                        timer.action()
                    }
                }, context))
        timer.owner = self
        timer.event?.add(afterSeconds: Double(nanoseconds) / 1_000_000_000)
    }
}

/// A webhook exchange in flight: the call (kept alive here until it ends) and the body so far.
struct OutboundCall {
    let call: UpstreamCall
    var body: [UInt8] = []
}

/// A one-shot timer of ``OutboundRequests/after(nanoseconds:_:)``; its event is freed with it.
final class OutboundTimer {
    let action: () -> Void
    var event: EventHandle?
    unowned(unsafe) var owner: OutboundRequests?

    init(action: @escaping () -> Void) {
        self.action = action
    }
}

/// The engine's ``OutboundSending``: the transport's webhook sender, reached through the
/// ``ServerReference`` so the link (which sessions share) never keeps the server alive.
final class WebhookSender: OutboundSending {
    let reference: ServerReference

    init(reference: ServerReference) {
        self.reference = reference
    }

    func deliver(_ request: UpstreamRequest, completion: @escaping (OutboundOutcome) -> Void) {
        guard let server = reference.server else {
            completion(OutboundOutcome(status: nil, error: "server-stopping", reason: "the server is stopping"))
            return
        }
        server.outbound.sendWebhook(request, completion: completion)
    }

    func after(nanoseconds: UInt64, _ action: @escaping () -> Void) {
        reference.server?.outbound.after(nanoseconds: nanoseconds, action)
    }

    /// OpenSSL's one-shot `HMAC` with SHA-256 (libcrypto, opened on the first signature:
    /// ``OpenSSLLibrary``). Empty if OpenSSL cannot be opened; then libcurl, which needs it, cannot
    /// be opened either, and the webhook is not sent.
    func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        guard let api = try? OpenSSLLibrary.api() else { return [] }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        let keyBytes = key.isEmpty ? [0] : key  // a pointer even for an empty key; its length stays 0
        let length = keyBytes.withUnsafeBytes { keyPointer in
            message.withUnsafeBufferPointer { messagePointer in
                digest.withUnsafeMutableBufferPointer { out in
                    understudy_hmac_sha256(
                        api, keyPointer.baseAddress, Int32(key.count), messagePointer.baseAddress, message.count,
                        out.baseAddress)
                }
            }
        }
        return Array(digest.prefix(Int(length)))
    }
}
