/// The server's life: stop requests (the controller's pipe and signals), in-flight accounting,
/// the drain and its grace timer. Stored inline in ``HTTPServer``; the server acts on it
/// (`HTTPServer+Shutdown.swift`, ``HTTPServer/handleSignals(onReload:)``).
struct ServerLifecycle {
    /// Requests handed over and not yet fully answered on the wire.
    var inFlight = 0
    /// Stopping: no new connections; the loop ends when `inFlight` reaches 0 or the grace runs out.
    var draining = false
    /// Released (``HTTPServer/close()``).
    var closed = false
    /// Stops the server from any thread, through the write end of its pipe.
    let controller: ServerController
    /// The read end of the controller's pipe and its watch.
    let stopReadEnd: Int32
    var stopWatch: EventHandle?
    var signalEvents: [EventHandle] = []
    var graceTimer: EventHandle?
    var onHangup: (() -> Void)?

    init(stopReadEnd: Int32, controller: ServerController) {
        self.stopReadEnd = stopReadEnd
        self.controller = controller
    }

    /// Drops the lifecycle's events before the loop is freed.
    mutating func releaseEvents() {
        graceTimer = nil
        stopWatch = nil
        signalEvents.removeAll()
    }
}
