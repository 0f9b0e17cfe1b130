#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent

// A plain (not TLS) connection does its own socket I/O on the bufferevent's buffers, so that a
// keep-alive request costs one `recv` and one `writev` and nothing else (nginx's two system calls):
//
// - Reading: `bufferevent_socket` reads with `evbuffer_read`, which asks the kernel how much is
//   waiting (`ioctl(FIONREAD)`) before every read. The connection's own persistent read event (on
//   the same descriptor, with the idle timeout) `recv`s into the server's read buffer instead and
//   appends what came to the bufferevent's input; the bufferevent's read side is never enabled.
//   The first `recv` is made at accept, before that event exists: it is added only when the
//   connection has to wait for bytes (see `readFirst`), so a `Connection: close` request that was
//   already in the socket costs no `epoll_ctl` at all.
// - Writing: `bufferevent_socket` arms its write event when a reply is queued and disarms it once
//   written, two `epoll_ctl` calls a request. A plain connection keeps the bufferevent's write side
//   disabled: anything added to the output posts the connection to the server's flush, which runs
//   once per loop pass after every callback of the pass (and after the journal batch is written, so
//   the journal still precedes the first byte of every reply). The flush writes the output with one
//   `evbuffer_write`; only what the kernel did not take is left to the bufferevent, whose write side
//   is enabled until it has written the rest (with the write timeout, as before) and the write
//   callback (``Connection/flushed()``) disables it again.
//
// The bufferevent still owns the socket and both buffers (it closes the socket when freed), and
// TLS connections keep the bufferevent's own reading and writing (OpenSSL owns their socket I/O).
extension Connection {
    /// Installs the plain connection's output watch and reads what the client has sent (see above).
    func startDirectIO(_ server: HTTPServer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        io.outputWatch = evbuffer_add_cb(
            bufferevent_get_output(bufferevent),
            { _, info, context in
                guard let info, info.pointee.n_added > 0, let context else { return }
                Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue().outputAdded()
            }, context)
        guard io.outputWatch != nil else {
            close()
            return
        }
        // `bufferevent_socket` freezes its input's end and its output's start, thawing each only
        // around its own read and write; here the connection reads (so the input stays thawed)
        // and writes (so the output thaws around the write, as the bufferevent's own writes do).
        evbuffer_unfreeze(bufferevent_get_input(bufferevent), 0)
        readFirst(server)
    }

    /// The first read, in the pass that accepted the connection, before any read event exists.
    /// A client sends its request as soon as its connect returns, so by the time the loop accepts,
    /// the request is usually in the socket: it is read and answered now, and a connection whose
    /// reply closes it (`Connection: close`, HTTP/1.0) is written and closed at the end of this pass
    /// without its descriptor ever entering epoll (no `EPOLL_CTL_ADD` at accept, and no
    /// `EPOLL_CTL_DEL` at close, which the changelist would issue after the descriptor is closed).
    /// Otherwise the read event is added as it was at accept: when nothing was there yet, when a
    /// request is partly in, or when the connection stays open.
    private func readFirst(_ server: HTTPServer) {
        guard receive(server) else {
            enableReading()  // nothing there yet
            return
        }
        guard !closed else { return }
        if closeWhenFlushed && !answering {
            // The reply is written and the connection closes once it is out: nothing more is read.
            // Paused, so a lingering close (after a refusal) resumes reading as it would.
            if reading == .on { reading = .paused }
        } else if reading != .paused {
            enableReading()
        }
    }

    /// The plain connection's read event, made when the connection first waits for bytes.
    private func makeReader(_ server: HTTPServer) -> EventHandle? {
        let context = Unmanaged.passUnretained(self).toOpaque()
        return EventHandle(
            event_new(
                server.base, fd, Int16(EV_READ | EV_PERSIST),
                { _, what, context in
                    guard let context else { return }
                    let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
                    // Keep the event alive until its callback returns, whatever the callback closes.
                    withExtendedLifetime((connection, connection.io.reader)) { connection.socketReadable(what) }
                }, context))
    }

    /// Starts (or restarts, with a fresh idle timeout) reading.
    func enableReading() {
        if secure {
            bufferevent_enable(bufferevent, Int16(EV_READ))
            return
        }
        if io.reader == nil, let server {
            io.reader = makeReader(server)
            guard io.reader != nil else {
                close()
                return
            }
        }
        if let timeout = io.readTimeout { io.reader?.add(timeout: timeout) } else { io.reader?.add() }
    }

    /// Stops reading until ``enableReading()``.
    func disableReading() {
        if secure { bufferevent_disable(bufferevent, Int16(EV_READ)) } else { io.reader?.remove() }
    }

    /// The read event fired: the socket is readable, or the idle timeout passed without a byte.
    private func socketReadable(_ what: Int16) {
        guard !closed, let server else { return }
        if what & Int16(EV_READ) == 0 {
            disableReading()
            event(Int16(BEV_EVENT_READING) | Int16(BEV_EVENT_TIMEOUT))
            return
        }
        _ = receive(server)
    }

    /// One `recv` into the server's read buffer, handed to ``readable()``. Returns false when
    /// nothing was there to read (the socket would block).
    private func receive(_ server: HTTPServer) -> Bool {
        let count = recv(fd, server.table.readBuffer, ConnectionTable.readBufferSize, 0)
        if count > 0 {
            evbuffer_add(bufferevent_get_input(bufferevent), server.table.readBuffer, count)
            readable()
            return true
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return false }
        // As `bufferevent_socket` does: reading stops, and the event callback learns why.
        disableReading()
        event(Int16(BEV_EVENT_READING) | Int16(count == 0 ? BEV_EVENT_EOF : BEV_EVENT_ERROR))
        return true
    }

    /// Bytes were added to the output: unless the bufferevent is writing them already, the
    /// server's flush at the end of this loop pass will.
    private func outputAdded() {
        guard case .idle = io.flush, !closed, let server else { return }
        io.flush = .posted
        server.postFlush(self)
    }

    /// Writes the output to the socket now (the server's flush); what the kernel does not take is
    /// left to the bufferevent's write side.
    func flushNow() {
        if case .writingLeftover = io.flush { return }
        io.flush = .idle
        guard !closed else { return }
        let output = bufferevent_get_output(bufferevent)
        guard evbuffer_get_length(output) > 0 else { return }
        // An error is left to the bufferevent too: its write fails the same way and reports it.
        evbuffer_unfreeze(output, 1)
        _ = evbuffer_write(output, fd)
        evbuffer_freeze(output, 1)
        if evbuffer_get_length(output) == 0 {
            flushed()
        } else {
            io.flush = .writingLeftover
            // The write timeout (a client that stops reading) is set here, where it is first needed,
            // rather than on every accepted connection.
            if var write = io.readTimeout { bufferevent_set_timeouts(bufferevent, nil, &write) }
            bufferevent_enable(bufferevent, Int16(EV_WRITE))
        }
    }

    /// The bufferevent wrote the leftover: its write side goes back to disabled (its write event
    /// is already out of the loop, so this costs no system call).
    func leftoverWritten() {
        guard case .writingLeftover = io.flush else { return }
        io.flush = .idle
        bufferevent_disable(bufferevent, Int16(EV_WRITE))
    }

    /// Before the bufferevent is freed: its output is no longer watched and the read event goes.
    func stopDirectIO() {
        if let watch = io.outputWatch {
            evbuffer_remove_cb_entry(bufferevent_get_output(bufferevent), watch)
            io.outputWatch = nil
        }
        io.reader?.remove()
    }
}
