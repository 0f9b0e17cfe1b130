#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CLibeventTLS
import UnderstudyCore

// Faults are carried out on the real socket, so clients meet them as they would on a network.
// The server takes the connection away from evhttp by freeing it (evhttp then never replies);
// the close callback that runs during the free finds no request left to account for.
extension HTTPServer {
    /// Bytes that are not HTTP, for `malformed-response`.
    static let garbage: [UInt8] = Array("\u{1}\u{2}UNDERSTUDY-MALFORMED-RESPONSE this is not HTTP\r\n\r\n".utf8)

    func carryOut(_ fault: Fault, for pending: PendingReply, on connection: Connection) {
        guard let evcon = connection.evcon, let bufferevent = evhttp_connection_get_bufferevent(evcon) else { return }
        let fd = bufferevent_getfd(bufferevent)
        // Two faults send a status line and headers first; the journal records that head.
        let head: HTTPHeaders? = switch fault {
        case .closeAfterHeaders: Self.headFields(of: pending.response)
        case .malformedResponseChunk: Self.chunkedHeadFields(of: pending.response)
        default: nil
        }
        // The fault's bytes (or reset) go out at once below, so the entry must be in the file
        // first: commit, then write out any batch this loop pass has collected.
        if head != nil, let reason = pending.response.reason { pending.journal?.sentReason = reason }
        pending.journal?.commit(.faulted(fault, head: head.map { (pending.response.status, $0) }))
        closeJournalBatch()
        log(pending, status: head == nil ? nil : pending.response.status, fault: fault, outcome: .fault)
        connection.current = nil
        pending.timer = nil
        finishRequest()

        switch fault {
        case .connectionReset:
            // Linger 0 makes close(2) send RST. evhttp's own free would first shutdown(SHUT_WR),
            // sending FIN and turning the reset into a clean EOF, so the socket is closed here by
            // dup2'ing /dev/null over it; evhttp then shuts down and closes /dev/null.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            if nullDevice >= 0 { _ = dup2(nullDevice, fd) }
        case .emptyResponse:
            if connection.secure { understudy_tls_write_and_close(bufferevent, nil, 0) }
        case .malformedResponse:
            writeAll(Self.garbage, to: fd, on: connection, bufferevent: bufferevent)
        case .closeAfterHeaders:
            writeAll(Self.headBytes(of: pending.response), to: fd, on: connection, bufferevent: bufferevent)
        case .randomDataThenClose:
            writeAll(Self.brokenChunk, to: fd, on: connection, bufferevent: bufferevent)
        case .malformedResponseChunk:
            writeAll(Self.chunkedHeadBytes(of: pending.response) + Self.brokenChunk, to: fd, on: connection, bufferevent: bufferevent)
        }
        evhttp_connection_free(evcon)
    }

    /// The header fields `close-after-headers` sends: the stub's, with a Content-Length the body
    /// never fills (the stub body's length, or 1 when it is empty, so the truncation is always
    /// visible).
    static func headFields(of response: HTTPResponse) -> HTTPHeaders {
        var fields = HTTPHeaders()
        for field in response.headers
        where !HTTPHeaders.namesMatch(field.name, "Content-Length") && !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
            fields.append(name: field.name, value: field.value)
        }
        fields.append(name: "Content-Length", value: String(max(response.body.count, 1)))
        return fields
    }

    /// The status line and ``headFields(of:)`` of `response`, as bytes.
    static func headBytes(of response: HTTPResponse) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(response.reason ?? ReasonPhrase.of(response.status))\r\n"
        for field in headFields(of: response) {
            text += "\(field.name): \(field.value)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// Writes the bytes as the client will read them: inside the TLS stream (then close_notify, so
    /// the end is as clean as a plain socket's FIN) on an HTTPS connection, else straight to the socket.
    private func writeAll(_ bytes: [UInt8], to fd: Int32, on connection: Connection, bufferevent: OpaquePointer) {
        if connection.secure {
            bytes.withUnsafeBytes { understudy_tls_write_and_close(bufferevent, $0.baseAddress, $0.count) }
        } else {
            writeAll(bytes, to: fd)
        }
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
        where !HTTPHeaders.namesMatch(field.name, "Content-Length") && !HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
            fields.append(name: field.name, value: field.value)
        }
        fields.append(name: "Transfer-Encoding", value: "chunked")
        return fields
    }

    /// The status line and headers of `response` announcing a chunked body.
    static func chunkedHeadBytes(of response: HTTPResponse) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(response.reason ?? ReasonPhrase.of(response.status))\r\n"
        for field in chunkedHeadFields(of: response) {
            text += "\(field.name): \(field.value)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// Writes everything to a fresh socket; the bytes are few, so the send buffer takes them.
    private func writeAll(_ bytes: [UInt8], to fd: Int32) {
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
