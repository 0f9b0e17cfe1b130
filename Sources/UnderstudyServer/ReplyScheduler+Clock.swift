import UnderstudyCore

// Delays and paced bodies on a frozen world clock (issue 25): instead of a libevent timer, the
// reply waits in the world clock's schedule (``ClockSchedule``, pure Swift in the core) until
// `POST /__admin/clock` advances past its due time; the advance fires it here, on the event loop,
// and lists it. If the clock resumes real time first, the item comes back as a timer for what
// remains. A real clock never gets here: its replies are timed exactly as before. The reply's
// own channel (an HTTP/1.1 connection or an HTTP/2 stream) is where it goes, so both are held alike.
// The callbacks reach the server through its ``ServerReference``, never a weak `self`.
extension ReplyScheduler {
    /// Holds a delayed reply (or fault) for `nanoseconds` of the world's clock.
    func hold(_ pending: PendingReply, afterNanoseconds nanoseconds: UInt64) {
        guard let clock = pending.worldClock else { return }
        pending.timer = nil
        pending.held = clock.schedule.hold(
            dueNanoseconds: clock.monotonicNanoseconds &+ nanoseconds,
            fire: { [reference, weak pending] in
                guard let server = reference.server, let pending, let channel = pending.channel,
                    channel.current === pending, !channel.closed, !pending.sent
                else { return nil }
                let event = ClockEvent(
                    kind: .response, stubID: pending.response.stubID,
                    request: pending.method + " " + pending.target)
                withExtendedLifetime((channel, pending)) {
                    if pending.response.fault == nil { server.openJournalBatch() }
                    server.replies.send(pending, on: channel)
                }
                return event
            },
            release: { [reference, weak pending] remaining in
                guard let server = reference.server, let pending, let channel = pending.channel,
                    channel.current === pending, !channel.closed, !pending.sent
                else { return }
                pending.dueAt = server.clock.nanoseconds() &+ remaining
                server.replies.armDelay(pending, afterSeconds: Double(remaining) / 1_000_000_000)
            })
    }

    /// Holds a paced body's next piece until the world's clock reaches it.
    func holdNextPiece(of pending: PendingReply, clock: WorldClock, dueAt: UInt64) {
        guard let stream = pending.stream else { return }
        stream.timer = nil
        let kind: ClockEvent.Kind
        if case .events? = pending.response.streaming { kind = .event } else { kind = .bodyPiece }
        pending.held = clock.schedule.hold(
            dueNanoseconds: dueAt,
            fire: { [reference, weak pending] in
                guard let server = reference.server, let pending, let channel = pending.channel,
                    channel.current === pending, !channel.closed, let stream = pending.stream
                else { return nil }
                let event = ClockEvent(
                    kind: kind, stubID: pending.response.stubID,
                    request: pending.method + " " + pending.target)
                let before = stream.next
                withExtendedLifetime((channel, pending)) { server.replies.writeDuePieces(of: pending) }
                return stream.next > before ? event : nil
            },
            release: { [reference, weak pending] _ in
                guard let server = reference.server, let pending, let channel = pending.channel,
                    channel.current === pending
                else { return }
                withExtendedLifetime((channel, pending)) { server.replies.writeDuePieces(of: pending) }
            })
    }
}
