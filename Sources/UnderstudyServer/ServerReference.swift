import UnderstudyCore

/// Stands in for an ``HTTPServer`` wherever something refers to the server without keeping it
/// alive: a listening port, the session registry's host, and callbacks that may outlive the
/// request that set them (a frozen clock's schedule, an upstream call, a long poll).
///
/// Why not a `weak` reference to the server: the first weak reference to an object gives it a
/// side table, and from then on every retain and release of that object takes the Swift
/// runtime's slow path (about 75 and 95 instructions instead of about 20, callgrind). The
/// server is retained and released seven or eight times a kept-alive request, so a weak
/// reference to it cost about 1 000 instructions a request (6 % of one). Weak references point
/// at this object instead. The server owns it and clears ``server`` as its deinit begins, so
/// ``server`` reads nil from then on, as a weak reference to the server would.
final class ServerReference: SessionHosting {
    /// The server, until its deinit begins (it clears this first thing).
    unowned(unsafe) var server: HTTPServer?

    func openListener(for responder: any HTTPResponder) -> Result<any SessionListener, SessionHostingError> {
        guard let server else { return .failure(SessionHostingError("the server is stopping")) }
        return server.openListener(for: responder)
    }

    var servesHTTPS: Bool { server?.servesHTTPS ?? false }

    func openSecureListener(for responder: any HTTPResponder, mode: String) -> Result<
        any SessionListener, SessionHostingError
    > {
        guard let server else { return .failure(SessionHostingError("the server is stopping")) }
        return server.openSecureListener(for: responder, mode: mode)
    }
}
