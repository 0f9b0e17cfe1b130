#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP
import UnderstudyStubFormat

/// A webhook's `signing`, compiled: which provider's format, the key, and a mistake made on
/// purpose if the stub asks for one. ``sign(_:eventID:timestamp:hmac:)`` computes the headers
/// over the exact bytes sent; the HMAC itself is OpenSSL's, which only the transport may call, so
/// it is handed in (``OutboundSending/hmacSHA256(key:message:)``).
public struct WebhookSignature: Sendable {
    /// The provider format.
    public var format: StubFormat.SigningFormat
    /// The HMAC key: the secret's bytes (for `standard-webhooks`, the base64 after `whsec_`, decoded);
    /// nil when the stub gives no secret and the world's ``WebhookDefaults`` is to supply it.
    package var key: [UInt8]?
    /// The mistake made on purpose, if any.
    public var mistake: StubFormat.SigningMistake?
    /// `hmac-sha256`: the signature's header.
    public var header = "X-Signature"
    /// `hmac-sha256`: what is signed.
    public var signed = StubFormat.SignedContent.body
    /// `hmac-sha256`: how the HMAC is written.
    public var encoding = StubFormat.SignatureEncoding.hex
    /// `hmac-sha256`: written before the HMAC (`sha256=`).
    public var prefix = ""
    /// `hmac-sha256` with `timestamp.body`: the timestamp's header.
    public var timestampHeader = "X-Webhook-Timestamp"

    /// How old a `stale-timestamp` is: an hour, past Stripe's, Slack's and Standard Webhooks'
    /// five-minute tolerance.
    public static let staleSeconds: Int64 = 3600

    package init(format: StubFormat.SigningFormat, key: [UInt8]?) {
        self.format = format
        self.key = key
    }

    /// `request` with the format's headers added, signed at `timestamp` (Unix seconds) as event
    /// `eventID`, wrong as ``mistake`` says.
    package func sign(
        _ request: UpstreamRequest, eventID: String, timestamp: Int64, hmac: ([UInt8], [UInt8]) -> [UInt8]
    ) -> UpstreamRequest {
        let time = String(mistake == .staleTimestamp ? timestamp - Self.staleSeconds : timestamp)
        let body = request.body
        var usedKey = key ?? []
        if mistake == .wrongSecret { usedKey = Array("not-the-secret-".utf8) + usedKey }
        func mac(_ parts: String...) -> [UInt8] {
            hmac(usedKey, Array(parts.joined().utf8) + body)
        }
        var headers = request.headers
        switch format {
        case .stripe:
            headers.append(name: "Stripe-Signature", value: "t=\(time),v1=" + Self.hex(mac(time, ".")))
        case .github:
            headers.append(name: "X-Hub-Signature-256", value: "sha256=" + Self.hex(mac()))
            if !headers.contains("X-GitHub-Delivery") { headers.append(name: "X-GitHub-Delivery", value: eventID) }
        case .standardWebhooks:
            let id = "msg_" + eventID.filter { $0 != "-" }
            headers.append(name: "webhook-id", value: id)
            headers.append(name: "webhook-timestamp", value: time)
            headers.append(name: "webhook-signature", value: "v1," + Self.base64(mac(id, ".", time, ".")))
        case .slack:
            headers.append(name: "X-Slack-Request-Timestamp", value: time)
            headers.append(name: "X-Slack-Signature", value: "v0=" + Self.hex(mac("v0:", time, ":")))
        case .hmacSHA256:
            let digest: [UInt8]
            switch signed {
            case .body: digest = mac()
            case .timestampBody:
                headers.append(name: timestampHeader, value: time)
                digest = mac(time, ".")
            }
            headers.append(name: header, value: prefix + (encoding == .hex ? Self.hex(digest) : Self.base64(digest)))
        }
        // Tampered after signing: the receiver gets bytes the signature does not cover.
        let sent = mistake == .tamperedBody ? body + Array(" ".utf8) : body
        return UpstreamRequest(
            method: request.method, url: request.url, headers: headers, body: sent, timeoutMs: request.timeoutMs,
            upstream: request.upstream)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
