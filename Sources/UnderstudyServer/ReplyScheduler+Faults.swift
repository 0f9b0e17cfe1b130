#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CLibeventTLS
import UnderstudyCore

// Faults are carried out on the real socket, so clients meet them as they would on a network.
// `carryOut` journals the fault and hands it to the channel (`ReplyChannel.perform`): on
// HTTP/1.1 see `Connection+ReplyChannel.swift`, on HTTP/2 `HTTP2Stream.swift`.
// Replies queued before the fault (pipelined requests) go out first; then the fault's bytes are
// written straight to the socket (inside the TLS stream on HTTPS) and the connection is closed.
extension ReplyScheduler {
    /// Bytes that are not HTTP, for `malformed-response`.
    static let garbage: [UInt8] = Array("\u{1}\u{2}UNDERSTUDY-MALFORMED-RESPONSE this is not HTTP\r\n\r\n".utf8)

    func carryOut(_ fault: Fault, for pending: PendingReply, on channel: any ReplyChannel) {
        // The channel decides what goes out (a head, a RST_STREAM or GOAWAY); the journal records
        // that, and the channel then sends that very plan.
        let plan = channel.plan(fault, for: pending.response)
        // The fault's bytes (or reset) go out below, so the entry must be in the file first:
        // commit, then write out any batch this loop pass has collected.
        if let reason = plan.head?.reason { pending.journal?.sentReason = reason }
        pending.journal?.commit(
            .faulted(fault, head: plan.head.map { ($0.status, $0.headers) }, frame: plan.frame))
        server.closeJournalBatch()
        server.log(pending, status: plan.head?.status, fault: fault, outcome: .fault)
        channel.current = nil
        pending.timer = nil
        server.finishRequest()
        channel.perform(fault, response: pending.response, plan: plan)
    }

    /// The header fields `close-after-headers` sends: the stub's, with a Content-Length the body
    /// never fills (the stub body's length, or 1 when it is empty, so the truncation is always
    /// visible).
    static func headFields(of response: HTTPResponse) -> HTTPHeaders {
        var fields = HTTPHeaders()
        for field in response.headers
        where !HTTPHeaders.namesMatch(field.name, "Content-Length")
            && !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
        {
            fields.append(name: field.name, value: field.value)
        }
        fields.append(name: "Content-Length", value: String(max(response.body.count, 1)))
        return fields
    }

    /// A status line and `fields`, as bytes: the head an HTTP/1.1 fault writes (see
    /// ``Connection/plan(_:for:)``).
    static func headBytes(status: Int, reason: String?, fields: HTTPHeaders) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason ?? ReasonPhrase.of(status))\r\n"
        for field in fields {
            text += "\(field.name): \(field.value)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// The bytes WireMock 2.35 sends for `RANDOM_DATA_THEN_CLOSE`, and after the chunked head for
    /// `MALFORMED_RESPONSE_CHUNK` (where they are not a hexadecimal chunk size, so a client's
    /// chunked decoder fails rather than waiting for more). The same bytes make the differential
    /// suite's comparison exact.
    static let brokenChunk: [UInt8] = Array("lskdu018973t09sylgasjkfg1][]'./.sdlv".utf8)

    /// The header fields `malformed-response-chunk` sends: the stub's, announcing a chunked body.
    static func chunkedHeadFields(of response: HTTPResponse) -> HTTPHeaders {
        var fields = HTTPHeaders()
        for field in response.headers
        where !HTTPHeaders.namesMatch(field.name, "Content-Length")
            && !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
        {
            fields.append(name: field.name, value: field.value)
        }
        fields.append(name: "Transfer-Encoding", value: "chunked")
        return fields
    }

    /// Writes everything to a fresh socket; the bytes are few, so the send buffer takes them.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
