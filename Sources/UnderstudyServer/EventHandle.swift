import CLibevent

/// Owns one libevent `event` (a timer, a signal or a file watch) and frees it exactly once.
final class EventHandle {
    private let event: OpaquePointer

    /// Wraps an event created with `event_new`; nil when libevent could not create it.
    init?(_ event: OpaquePointer?) {
        guard let event else { return nil }
        self.event = event
    }

    deinit {
        event_free(event)  // also removes it from the loop if pending
    }

    /// Makes the event active now: it runs later in the current pass of the loop.
    func activate() {
        event_active(event, Int32(EV_TIMEOUT), 1)
    }

    /// Makes the event pending with `timeout` as it is: a value from
    /// `event_base_init_common_timeout` keeps the timer in that duration's queue instead of the heap.
    func add(timeout: timeval) {
        var timeout = timeout
        event_add(event, &timeout)
    }

    /// Makes the event no longer pending (a timer that has not fired is cancelled).
    func remove() {
        event_del(event)
    }

    /// Makes the event pending, for `seconds` when given (a timer), otherwise until it fires.
    func add(afterSeconds seconds: Double? = nil) {
        guard let seconds else {
            event_add(event, nil)
            return
        }
        let clamped = max(0, seconds)
        var tv = timeval(tv_sec: Int(clamped), tv_usec: Int((clamped - clamped.rounded(.down)) * 1_000_000))
        event_add(event, &tv)
    }
}
