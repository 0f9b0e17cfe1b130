#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// The seam between the HTTP/1.1 codec (``Connection``) and the responder: a complete request in,
// an answer out now, on a timer, or when a deferred reply comes. Nothing here parses or frames
// bytes; a later HTTP/2 codec hands its streams' requests to the same functions.
extension HTTPServer {
    /// A complete request: ask the responder, then answer now, on a timer, or when the
    /// responder's deferred reply comes. The journal entry is written when the answer goes out
    /// (see ``ReplyChannel/writeReply(_:journal:closeAfter:refusal:)``), so it records what was
    /// sent. Generic so each codec's channel gets its own specialization: no dynamic dispatch on
    /// the request path.
    func handle<Channel: ReplyChannel>(_ request: HTTPRequest, on channel: Channel) {
        let receivedAt = clock.nanoseconds()
        openJournalBatch()
        var response: HTTPResponse
        let journal: JournalTicket?
        switch channel.responder.answerAwaitingDelivery(request) {
        case (.now(let answer), let ticket):
            (response, journal) = (answer, ticket)
        case (.later(let deferral), _):
            answerLater(deferral, receivedAt: receivedAt, on: channel)
            return
        }
        if response.compression != nil {
            BodyCompressor.apply(&response, for: request, journal: journal)
        }
        lifecycle.inFlight += 1
        if response.delayMs <= 0, response.fault == nil, response.streaming == nil, response.proxy == nil {
            // Answered at once, the usual case: written now, with nothing kept for later.
            if accessLog != nil {
                log(
                    method: channel.requestMethod, target: channel.requestTarget, stubID: response.stubID,
                    receivedAt: receivedAt, status: response.status, fault: nil)
            }
            channel.writeReply(response, journal: journal, closeAfter: false, refusal: nil)
            return
        }
        let pending = PendingReply(
            response: response, journal: journal, channel: channel,
            method: channel.requestMethod, target: channel.requestTarget,
            receivedAt: receivedAt, closeAfter: false)
        pending.worldClock = journal?.worldClock
        channel.current = pending
        if response.delayMs > 0 || response.fault != nil {
            replies.schedule(pending, afterMilliseconds: response.delayMs)
        } else {
            replies.send(pending, on: channel)  // a paced body, started now
        }
    }

    /// A request the transport refuses on its own (see ``HTTPRefusal``): journaled like any
    /// other, answered with the reason, and the connection closes (lingering, so the client
    /// reads the answer).
    func refuse(_ refusal: HTTPRefusal, on connection: Connection) {
        let receivedAt = clock.nanoseconds()
        let request = connection.codec.takeRefusedRequest()
        connection.codec.phase = .lingering
        connection.codec.exchange.keepAlive = false
        connection.codec.exchange.isHead = false
        lifecycle.inFlight += 1
        openJournalBatch()
        let (response, journal) = connection.responder.rejectAwaitingDelivery(
            request, status: refusal.status, reason: refusal.reason)
        if accessLog != nil {
            log(
                method: connection.codec.exchange.method, target: connection.codec.exchange.target,
                stubID: response.stubID,
                receivedAt: receivedAt, status: response.status, fault: nil, outcome: .refused)
        }
        connection.writeReply(response, journal: journal, closeAfter: true, refusal: refusal.reason)
    }

    /// A request the responder answers later (a long poll): it stays in flight, holding its
    /// connection, until the responder answers, the timeout fires (``DeferredReply/expire()``),
    /// or the client hangs up (the connection's close cancels it). Exactly one of those sends.
    func answerLater(_ deferral: DeferredReply, receivedAt: UInt64, on channel: any ReplyChannel) {
        let pending = PendingReply(
            response: HTTPResponse(status: 500), channel: channel, method: channel.requestMethod,
            target: channel.requestTarget, receivedAt: receivedAt, closeAfter: false)
        lifecycle.inFlight += 1
        pending.deferral = deferral
        channel.current = pending
        if let seconds = deferral.timeoutSeconds {
            // The timer's context is the pending reply, which owns the timer: no callback outlives it.
            let timer = EventHandle(
                event_new(
                    base, -1, 0,
                    { _, _, context in
                        guard let context else { return }
                        let pending = Unmanaged<PendingReply>.fromOpaque(context).takeUnretainedValue()
                        // Sending drops the pending reply and its timer: keep this event alive until its callback returns.
                        withExtendedLifetime((pending, pending.timer)) { pending.deferral?.expire() }
                    }, Unmanaged.passUnretained(pending).toOpaque()))
            pending.timer = timer
            timer?.add(afterSeconds: seconds)
        }
        // The server through its ServerReference: a weak `self` would slow every retain of it.
        deferral.attach { [reference, weak channel, weak pending] response in
            guard let server = reference.server, let channel, let pending, channel.current === pending else { return }
            pending.deferral = nil
            pending.response = response
            pending.timer = nil
            server.openJournalBatch()
            server.replies.send(pending, on: channel)
        }
        // A wait that arrives on a kept-alive connection while the server drains answers at once.
        if lifecycle.draining { deferral.expire() }
    }

    /// Answers every pending long poll with what it has (the server is stopping).
    func expireDeferredReplies() {
        for connection in table.connections {  // a copy: an expiry may close its connection
            connection.current?.deferral?.expire()
            connection.http2?.expireDeferredReplies()
        }
    }

    /// The client of a waiting answer has closed its connection: journal it as gone (nothing was
    /// sent) and close our side, which ends the request at once (cancelling a long poll's wait).
    func clientLeft(_ connection: Connection) {
        guard let pending = connection.current, !pending.sent else {
            connection.close()
            return
        }
        pending.sent = true
        pending.journal?.commit(.clientGone)
        log(pending, status: nil, fault: nil, outcome: .clientGone)
        connection.close()
    }

    func log(_ pending: PendingReply, status: Int?, fault: Fault?, outcome: ReplyOutcome = .answered) {
        log(
            method: pending.method, target: pending.target, stubID: pending.response.stubID,
            receivedAt: pending.receivedAt,
            status: status, fault: fault, outcome: outcome)
    }

    func log(
        method: String, target: String, stubID: String?, receivedAt: UInt64, status: Int?, fault: Fault?,
        outcome: ReplyOutcome = .answered
    ) {
        guard let accessLog else { return }
        accessLog(
            AccessLogEntry(
                method: method, target: target, status: status, stubID: stubID, fault: fault,
                outcome: outcome, milliseconds: clock.milliseconds(since: receivedAt)))
    }
}
