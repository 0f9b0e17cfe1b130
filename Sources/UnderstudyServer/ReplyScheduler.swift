#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// Answers that are not written the moment they are known: a delay on a loop timer (or held by
/// a frozen world clock, `ReplyScheduler+Clock.swift`), a paced body (`+Streaming`), a fault
/// carried out on the socket (`+Faults`), and a proxied answer handed to ``OutboundRequests``.
/// The server's request seam (`HTTPServer+Requests.swift`) answers at once itself and hands
/// everything else here. Only the loop thread touches it; it holds the server unowned (the
/// server owns it), as a weak reference would slow every retain of the server (``ServerReference``).
final class ReplyScheduler {
    unowned(unsafe) let server: HTTPServer
    let base: OpaquePointer
    let reference: ServerReference

    init(server: HTTPServer) {
        self.server = server
        self.base = server.base
        self.reference = server.reference
    }

    var clock: MonotonicClock { MonotonicClock() }

    /// Answers after `milliseconds` on a loop timer, so other requests carry on meanwhile; on a
    /// frozen world clock, when an advance passes the due time instead (``hold(_:afterNanoseconds:)``).
    func schedule(_ pending: PendingReply, afterMilliseconds milliseconds: Double) {
        if milliseconds > 0, let clock = pending.worldClock, clock.holdsTimers {
            hold(pending, afterNanoseconds: UInt64(milliseconds * 1_000_000))
            return
        }
        pending.dueAt = pending.receivedAt + UInt64(max(0, milliseconds) * 1_000_000)
        armDelay(pending, afterSeconds: milliseconds / 1000)
    }

    /// The delay's loop timer, firing after `seconds` (and again until `dueAt` has passed).
    func armDelay(_ pending: PendingReply, afterSeconds seconds: Double) {
        let context = Unmanaged.passUnretained(pending).toOpaque()
        let timer = EventHandle(
            event_new(
                base, -1, 0,
                { _, _, context in
                    guard let context else { return }
                    let pending = Unmanaged<PendingReply>.fromOpaque(context).takeUnretainedValue()
                    guard let channel = pending.channel, channel.current === pending, !channel.closed,
                        let server = channel.server
                    else { return }
                    // libevent measures timers from the time it cached at the top of the loop iteration,
                    // so a timer can fire a little before `delayMs` has passed since the request arrived;
                    // a delay is a promise of "no earlier than", so wait out the remainder.
                    let now = server.clock.nanoseconds()
                    if now < pending.dueAt {
                        if let clock = pending.worldClock, clock.holdsTimers {
                            // The world's clock froze while this delay ran: the rest waits for an advance.
                            withExtendedLifetime(pending.timer) {
                                server.replies.hold(pending, afterNanoseconds: pending.dueAt - now)
                            }
                            return
                        }
                        pending.timer?.add(afterSeconds: Double(pending.dueAt - now) / 1_000_000_000)
                        return
                    }
                    withExtendedLifetime((channel, pending, pending.timer)) {
                        if pending.response.fault == nil { server.openJournalBatch() }
                        server.replies.send(pending, on: channel)
                    }
                }, context))
        pending.timer = timer
        timer?.add(afterSeconds: seconds)
    }

    /// Writes the response (or carries out its fault, or starts its paced body).
    func send(_ pending: PendingReply, on channel: any ReplyChannel) {
        guard !pending.sent else { return }
        if pending.response.proxy != nil {
            // Forwarded upstream; its answer (or a 502) comes back here without `proxy`.
            server.outbound.proxy(pending, on: channel)
            return
        }
        pending.sent = true
        let response = pending.response
        if let fault = response.fault {
            carryOut(fault, for: pending, on: channel)
            return
        }
        if response.streaming != nil, startStream(pending, on: channel) { return }
        server.log(pending, status: response.status, fault: nil)
        pending.timer = nil
        channel.writeReply(response, journal: pending.journal, closeAfter: pending.closeAfter, refusal: nil)
        channel.answered()
    }

}
