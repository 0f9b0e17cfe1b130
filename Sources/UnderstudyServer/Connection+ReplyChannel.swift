#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import CLibeventTLS
import UnderstudyCore

// An HTTP/1.1 connection is the reply channel of the one request it is answering.
extension Connection: ReplyChannel {
    var requestMethod: String { codec.exchange.method }
    var requestTarget: String { codec.exchange.target }
    var isHeadRequest: Bool { codec.exchange.isHead }

    func finishStream(chunked: Bool, closing: Bool) {
        endStream(chunked: chunked)
        queued += 1  // in flight until flushed
        if closing { markClosingWhenFlushed() }
        answered()
        if closing { closeAfterFlush() }
    }

    /// The head some faults write first: the stub's status line (its reason phrase, if any) and
    /// fields with a Content-Length the body never fills, or announcing a chunked body.
    func plan(_ fault: Fault, for response: HTTPResponse) -> FaultPlan {
        let fields: HTTPHeaders? =
            switch fault {
            case .malformedResponseChunk: ReplyScheduler.chunkedHeadFields(of: response)
            case _ where fault.sendsHead: ReplyScheduler.headFields(of: response)
            default: nil
            }
        // HTTP/1.1 sends no RST_STREAM or GOAWAY.
        return FaultPlan(head: fields.map { (response.status, response.reason, $0) }, frame: nil)
    }

    /// Replies queued before the fault (pipelined requests) go out first; then the fault's bytes
    /// are written straight to the socket (inside the TLS stream on HTTPS) and the connection closes.
    func perform(_ fault: Fault, response: HTTPResponse, plan: FaultPlan) {
        guard !closed else { return }
        let act = { [weak self] in
            guard let self, !self.closed else { return }
            self.performNow(fault, head: plan.head)
        }
        // Nothing more is read on this connection.
        if evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0 {
            markClosingWhenFlushed()
            act()
        } else {
            markClosingWhenFlushed()
            io.whenFlushed = act
        }
    }

    private func performNow(_ fault: Fault, head: (status: Int, reason: String?, headers: HTTPHeaders)?) {
        // The head as planned (and journaled): written by the faults that send one.
        let headBytes =
            head.map { ReplyScheduler.headBytes(status: $0.status, reason: $0.reason, fields: $0.headers) } ?? []
        switch fault {
        case .connectionReset:
            // Linger 0 makes close(2) send RST instead of FIN.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(reset: true)
            return
        case .emptyResponse, .rstStream, .rstStreamRefused, .rstStreamCancel, .goaway, .goawayNow:
            // HTTP/1.1 has no stream to reset or connection to announce going away: the request
            // ends unanswered, as `empty-response` (docs/http2.md).
            if secure { understudy_tls_write_and_close(OpenSSLLibrary.opened, bufferevent, nil, 0) }
        case .malformedResponse:
            writeAll(ReplyScheduler.garbage, to: fd)
        case .closeAfterHeaders, .rstStreamAfterHeaders:
            writeAll(headBytes, to: fd)
        case .randomDataThenClose:
            writeAll(ReplyScheduler.brokenChunk, to: fd)
        case .malformedResponseChunk:
            writeAll(headBytes + ReplyScheduler.brokenChunk, to: fd)
        case .flowControlStall:
            // The head, then nothing: the connection stays open, reading and dropping what the
            // client sends, until it gives up (or the idle timeout closes it).
            headBytes.withUnsafeBytes {
                _ = evbuffer_add(bufferevent_get_output(bufferevent), $0.baseAddress, $0.count)
            }
            codec.phase = .lingering
            state = .open
            resumeReading()
            return
        }
        close()
    }

    /// Writes the bytes as the client will read them: inside the TLS stream (then close_notify, so
    /// the end is as clean as a plain socket's FIN) on an HTTPS connection, else straight to the socket.
    private func writeAll(_ bytes: [UInt8], to fd: Int32) {
        if secure {
            bytes.withUnsafeBytes {
                understudy_tls_write_and_close(OpenSSLLibrary.opened, bufferevent, $0.baseAddress, $0.count)
            }
        } else {
            ReplyScheduler.writeAll(bytes, to: fd)
        }
    }
}
