#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl
import CLibevent

/// The daemon's HTTP client for proxying stubs: one libcurl multi handle driven by the server's
/// libevent loop through curl's multi-socket interface (`CURLMOPT_SOCKETFUNCTION`,
/// `CURLMOPT_TIMERFUNCTION`, `curl_multi_socket_action`, as curl's docs/examples/hiperfifo.c
/// does it), so a thousand upstream exchanges are a thousand sockets on the same loop and none
/// of them blocks it.
///
/// Made by the server the first time a stub proxies (``HTTPServer/upstreamClient()``): libcurl
/// is opened then, never by a daemon that does not proxy. Owns the `CURLM*`, the loop's events
/// for curl's sockets and its timer, and frees them in `deinit`; each exchange's `CURL*` is owned
/// by its ``UpstreamCall``. Only the loop's thread touches it.
final class UpstreamClient {
    /// libcurl's entry points (see Sources/CCurl/shim.h).
    var api = understudy_curl()
    private let multi: UnsafeMutableRawPointer
    private let base: OpaquePointer
    /// curl's timer, on the loop.
    private var timer: EventHandle?
    /// One loop event per socket curl asked to watch, with what it watches for.
    private var watches: [curl_socket_t: (event: EventHandle, what: Int32)] = [:]
    /// Exchanges on the multi handle, by their easy handle's address: curl's callbacks find
    /// their exchange here, so an exchange that is gone is never called.
    private var calls: [UnsafeMutableRawPointer: Unmanaged<UpstreamCall>] = [:]
    /// Whether ``close()`` has run: the multi handle and the events are gone.
    private var closed = false
    /// Set while curl runs (inside `curl_multi_socket_action`): easy handles retired meanwhile are
    /// freed once it returns, as curl forbids removing a handle from inside its own callbacks.
    private var insideCurl = false
    private var retired: [UpstreamCall.Handles] = []
    /// The CA bundle (`--proxy-ca`) upstream certificates are checked against instead of the system's.
    let caFile: String?

    /// Opens libcurl and makes the multi handle; nil when libcurl cannot be loaded.
    init?(base: OpaquePointer, caFile: String?) {
        var api = understudy_curl()
        guard understudy_curl_load(&api) == 1, let multi = api.multi_init!() else { return nil }
        self.api = api
        self.multi = multi
        self.base = base
        self.caFile = caFile
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = understudy_curl_multi_set_callbacks(
            &self.api, multi,
            { _, socket, what, context, _ in
                guard let context else { return 0 }
                Unmanaged<UpstreamClient>.fromOpaque(context).takeUnretainedValue().watch(socket, what)
                return 0
            },
            { _, milliseconds, context in
                guard let context else { return 0 }
                Unmanaged<UpstreamClient>.fromOpaque(context).takeUnretainedValue().arm(milliseconds)
                return 0
            }, context)
        timer = EventHandle(
            event_new(
                base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    let client = Unmanaged<UpstreamClient>.fromOpaque(context).takeUnretainedValue()
                    client.act(on: curl_socket_t(UNDERSTUDY_CURL_SOCKET_TIMEOUT), mask: 0)
                }, context))
    }

    deinit {
        close()
    }

    /// Frees the multi handle and the loop's events, before the server frees its loop. Exchanges
    /// still running belong to connections closing with the server: they are cut off.
    func close() {
        guard !closed else { return }
        for call in Array(calls.values) { call.takeUnretainedValue().cutOff() }
        calls.removeAll()
        freeRetired()
        _ = api.multi_cleanup!(multi)  // after its easy handles are off it
        closed = true
        watches.removeAll()
        timer = nil
    }

    /// Starts an exchange: curl connects and sends on the loop from now on.
    func start(_ call: UpstreamCall) -> Bool {
        guard !closed else { return false }
        calls[call.handles.easy] = Unmanaged.passUnretained(call)
        guard api.multi_add_handle!(multi, call.handles.easy) == CURLM_OK else {
            calls[call.handles.easy] = nil
            return false
        }
        return true
    }

    /// An exchange is done with its handles (finished, cut off, or its client gone): they leave
    /// the multi handle and are freed, now or, while curl runs, as soon as it has returned.
    func retire(_ handles: UpstreamCall.Handles) {
        calls[handles.easy] = nil
        retired.append(handles)
        if !insideCurl { freeRetired() }
    }

    private func freeRetired() {
        let handles = retired
        retired.removeAll()
        for handle in handles {
            if !closed { _ = api.multi_remove_handle!(multi, handle.easy) }
            handle.free(api)
        }
    }

    // MARK: - curl's callbacks

    /// `CURLMOPT_SOCKETFUNCTION`: watch `socket` for what curl asks (or stop watching it).
    private func watch(_ socket: curl_socket_t, _ what: Int32) {
        if what == Int32(UNDERSTUDY_CURL_POLL_REMOVE) {
            watches[socket] = nil
            return
        }
        if let existing = watches[socket], existing.what == what { return }
        var kind = Int16(EV_PERSIST)
        if what & Int32(UNDERSTUDY_CURL_POLL_IN) != 0 { kind |= Int16(EV_READ) }
        if what & Int32(UNDERSTUDY_CURL_POLL_OUT) != 0 { kind |= Int16(EV_WRITE) }
        watches[socket] = nil  // the old event goes before its replacement watches the same socket
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let event = EventHandle(
                event_new(
                    base, socket, kind,
                    { socket, events, context in
                        guard let context else { return }
                        let client = Unmanaged<UpstreamClient>.fromOpaque(context).takeUnretainedValue()
                        var mask: Int32 = 0
                        if events & Int16(EV_READ) != 0 { mask |= Int32(UNDERSTUDY_CURL_CSELECT_IN) }
                        if events & Int16(EV_WRITE) != 0 { mask |= Int32(UNDERSTUDY_CURL_CSELECT_OUT) }
                        client.act(on: socket, mask: mask)
                    }, context))
        else { return }
        event.add()
        watches[socket] = (event, what)
    }

    /// `CURLMOPT_TIMERFUNCTION`: curl wants to be called after `milliseconds` (-1: never).
    private func arm(_ milliseconds: Int) {
        guard milliseconds >= 0 else {
            timer?.remove()
            return
        }
        timer?.add(afterSeconds: Double(milliseconds) / 1000)
    }

    /// A socket is ready (or curl's timer fired): let curl work, then settle finished exchanges.
    private func act(on socket: curl_socket_t, mask: Int32) {
        guard !closed else { return }
        withExtendedLifetime(self) {
            var running: Int32 = 0
            insideCurl = true
            _ = api.multi_socket_action!(multi, socket, mask, &running)
            insideCurl = false
            freeRetired()
            settleFinished()
            if running <= 0 { timer?.remove() }
        }
    }

    /// Each exchange curl reports done ends now (outside curl's callbacks, so it may free itself).
    private func settleFinished() {
        var queued: Int32 = 0
        while let message = api.multi_info_read!(multi, &queued) {
            guard let easy = understudy_curl_message_done(message) else { continue }
            let result = understudy_curl_message_result(message)
            _ = api.multi_remove_handle!(multi, easy)
            guard let call = calls.removeValue(forKey: easy) else { continue }
            call.takeUnretainedValue().finished(result)
        }
    }

    /// curl's words for a result code.
    func describe(_ code: CURLcode) -> String {
        api.easy_strerror!(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
    }
}
