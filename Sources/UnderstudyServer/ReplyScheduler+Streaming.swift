#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

// Paced bodies (`dribble`, `bytesPerSecond`, `events`): the head goes out first, each piece on a
// loop timer (as a chunk when the body is chunked), and the last chunk ends it. Nothing blocks: a
// thousand streams are a thousand timers. A client that leaves between pieces is noticed at once:
// the connection keeps reading while it writes, and its end of stream closes it (and the stream).
extension ReplyScheduler {
    /// Starts writing a paced response; false when it has no body to pace (HEAD, 204, 304), so
    /// the caller sends it as usual.
    func startStream(_ pending: PendingReply, on channel: any ReplyChannel) -> Bool {
        let response = pending.response
        let status = response.status
        guard let streaming = response.streaming, !channel.isHeadRequest, status >= 200, status != 204, status != 304
        else {
            return false
        }
        let isEvents: Bool
        if case .events = streaming { isEvents = true } else { isEvents = false }
        // Events are open-ended: chunked. A body is chunked when its headers ask for it, else
        // sent with its declared length.
        let wantsChunks =
            isEvents
            || response.headers.values(for: "Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
        server.log(pending, status: status, fault: nil)
        pending.timer = nil
        // The head goes into the output buffer now, its journal entry (with the whole body) first.
        let (chunked, closing) = channel.writeStreamHead(
            response, chunked: wantsChunks, closeAfter: pending.closeAfter,
            journal: pending.journal)
        // Paced on the world's clock, so a frozen one holds the pieces for its advances.
        let startedAt = pending.worldClock?.monotonicNanoseconds ?? clock.nanoseconds()
        let stream = ResponseStream(
            pieces: streaming.pieces(body: response.body), startedAt: startedAt, chunked: chunked)
        stream.closeAtEnd = closing
        pending.stream = stream
        writeDuePieces(of: pending)
        return true
    }

    /// Writes every piece that is due, then waits on a timer for the next, or ends the reply.
    func writeDuePieces(of pending: PendingReply) {
        guard let stream = pending.stream, let channel = pending.channel, channel.current === pending,
            !channel.closed
        else { return }
        let now = pending.worldClock?.monotonicNanoseconds ?? clock.nanoseconds()
        while stream.next < stream.pieces.count, stream.dueAt(stream.next) <= now {
            let bytes = stream.pieces[stream.next].bytes
            stream.pieces[stream.next].bytes = []
            stream.next += 1
            channel.writePiece(bytes, chunked: stream.chunked)
        }
        if stream.next >= stream.pieces.count {
            stream.timer = nil
            channel.finishStream(chunked: stream.chunked, closing: stream.closeAtEnd)
            return
        }
        if let world = pending.worldClock, world.holdsTimers {
            holdNextPiece(of: pending, clock: world, dueAt: stream.dueAt(stream.next))
            return
        }
        if stream.timer == nil {
            stream.timer = EventHandle(
                event_new(
                    base, -1, 0,
                    { _, _, context in
                        guard let context else { return }
                        let pending = Unmanaged<PendingReply>.fromOpaque(context).takeUnretainedValue()
                        guard let server = pending.channel?.server, let stream = pending.stream else { return }
                        // Ending the reply drops the pending reply and this timer: keep both alive until we return.
                        withExtendedLifetime((pending, stream.timer)) { server.replies.writeDuePieces(of: pending) }
                    }, Unmanaged.passUnretained(pending).toOpaque()))
        }
        stream.timer?.add(afterSeconds: Double(stream.dueAt(stream.next) - now) / 1_000_000_000)
    }
}
