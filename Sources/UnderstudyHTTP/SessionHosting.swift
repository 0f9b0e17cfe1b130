/// What a transport offers the session registry: a listener on a new loopback port, on the same
/// event loop, whose requests go to a responder of the registry's choosing. Core stays
/// socket-free; `UnderstudyServer`'s `HTTPServer` implements this with one listener per session.
///
/// Called on the event-loop thread only.
public protocol SessionHosting: AnyObject {
    /// Opens a listener whose requests go to `responder`; the listener keeps the responder alive
    /// until it is closed.
    func openListener(for responder: any HTTPResponder) -> Result<any SessionListener, SessionHostingError>
    /// Whether ``openSecureListener(for:mode:)`` can work (the daemon serves HTTPS).
    var servesHTTPS: Bool { get }
    /// Opens an HTTPS listener presenting certificate `mode` (`valid`, `expired`, ...), whose
    /// requests go to `responder`.
    func openSecureListener(for responder: any HTTPResponder, mode: String) -> Result<
        any SessionListener, SessionHostingError
    >
}

extension SessionHosting {
    public var servesHTTPS: Bool { false }

    public func openSecureListener(for responder: any HTTPResponder, mode: String) -> Result<
        any SessionListener, SessionHostingError
    > {
        .failure(SessionHostingError("this transport serves no HTTPS"))
    }
}

/// One session's port, owned by the session that opened it.
public protocol SessionListener: AnyObject {
    /// The bound port.
    var port: Int { get }
    /// `http://127.0.0.1:PORT`.
    var url: String { get }
    /// Closes the port and every connection on it (pending replies are dropped, as when a
    /// client hangs up) and lets go of the responder. Idempotent.
    func close()
}

/// Why a transport could not open a session's listener (out of ports or descriptors, say).
public struct SessionHostingError: Error, Sendable {
    /// Says why, for the 503's `error`.
    public var message: String

    /// An error whose `message` says why the listener could not be opened.
    public init(_ message: String) {
        self.message = message
    }
}
