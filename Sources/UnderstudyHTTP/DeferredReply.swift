/// A request the responder answers later, on the same event loop: exactly one response, or none
/// when the client hangs up first.
///
/// The responder creates it and keeps it (a journal waiter, say); the transport attaches the
/// function that writes to the socket, arms a timer for ``timeoutSeconds`` and calls ``expire()``
/// when it fires (or when the server shuts down), and calls ``cancel()`` when the client's
/// connection closes. Whichever of ``answer(_:)``, ``expire()`` and ``cancel()`` comes first wins;
/// the others do nothing, so a request can never be answered twice.
///
/// Not `Sendable`: only the event-loop thread touches it.
public final class DeferredReply {
    /// Seconds after which the transport calls ``expire()``; `nil` waits for ``answer(_:)`` only.
    public let timeoutSeconds: Double?
    private var onTimeout: (() -> HTTPResponse)?
    private var onCancel: (() -> Void)?
    private var deliver: ((HTTPResponse) -> Void)?
    /// An answer given before the transport attached (kept until it does).
    private var early: HTTPResponse?
    /// Whether the reply was answered, expired or cancelled.
    public private(set) var isFinished = false

    /// - Parameters:
    ///   - timeoutSeconds: when the transport should give up waiting and call ``expire()``.
    ///   - onTimeout: the response sent on expiry (the waiter's "timed out" answer).
    ///   - onCancel: runs once when the reply will never be sent (the responder forgets the waiter).
    public init(timeoutSeconds: Double?, onTimeout: @escaping () -> HTTPResponse, onCancel: @escaping () -> Void) {
        self.timeoutSeconds = timeoutSeconds
        self.onTimeout = onTimeout
        self.onCancel = onCancel
    }

    /// Responder side: sends `response`. Returns false (and sends nothing) when the reply is
    /// already finished.
    @discardableResult
    public func answer(_ response: HTTPResponse) -> Bool {
        guard !isFinished else { return false }
        isFinished = true
        let deliver = self.deliver
        release()
        if let deliver {
            deliver(response)
        } else {
            early = response
        }
        return true
    }

    /// Transport side: how to write the response. An answer given before this is delivered now.
    public func attach(_ deliver: @escaping (HTTPResponse) -> Void) {
        if let early {
            self.early = nil
            deliver(early)
            return
        }
        guard !isFinished else { return }
        self.deliver = deliver
    }

    /// Transport side: the timeout passed (or the server is stopping): answer with the
    /// responder's timed-out response and forget the waiter.
    public func expire() {
        guard !isFinished, let onTimeout else { return }
        let onCancel = self.onCancel
        self.onCancel = nil
        onCancel?()  // the waiter is forgotten before its last answer is built
        answer(onTimeout())
    }

    /// Transport side: the client is gone; nothing will be sent.
    public func cancel() {
        guard !isFinished else {
            early = nil
            return
        }
        isFinished = true
        let onCancel = self.onCancel
        release()
        early = nil
        onCancel?()
    }

    /// Drops every closure, so no reference cycle outlives the reply.
    private func release() {
        onTimeout = nil
        onCancel = nil
        deliver = nil
    }
}

/// What a responder gives the transport for one request: a response to send now, or a promise
/// to answer later (a long poll such as `GET /__admin/requests/wait`).
///
/// Not `Sendable`: a deferred reply lives on the event loop that will deliver it.
public enum HTTPAnswer {
    /// Send this response now (after its `delayMs`, or carrying out its fault).
    case now(HTTPResponse)
    /// The responder answers later through this reply (see ``DeferredReply``).
    case later(DeferredReply)
}
