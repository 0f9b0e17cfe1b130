import CLibevent
import UnderstudyCore

/// A listening port beside the server's main one: an evhttp of its own on the server's event loop,
/// bound to a loopback port, whose requests go to one responder. It owns its evhttp and frees it
/// once, in ``close()`` (or `deinit`), which closes the listening socket and every connection on it.
///
/// ``SessionPort`` (a session's plain port) and ``TLSPort`` (an HTTPS port) differ only in how their
/// connections are made and which table of the server lists them; the listener's lifecycle is here.
/// Only the loop thread touches it.
class ListeningPort: SessionListener {
    let port: Int
    let url: String
    private(set) var responder: (any HTTPResponder)?
    /// The server whose loop the port runs on.
    private(set) weak var server: HTTPServer?
    private var http: OpaquePointer?
    private var bound: OpaquePointer?

    init(server: HTTPServer, http: OpaquePointer, bound: OpaquePointer, port: Int, url: String, responder: any HTTPResponder) {
        self.server = server
        self.http = http
        self.bound = bound
        self.port = port
        self.url = url
        self.responder = responder
    }

    deinit {
        close()
    }

    /// The libevent listener behind the port, while it accepts.
    var listener: OpaquePointer? {
        bound.flatMap { evhttp_bound_socket_get_listener($0) }
    }

    /// Stops accepting (the server is draining); open connections carry on.
    func stopAccepting() {
        guard let http, let bound else { return }
        if let listener { ListenerOwners[listener] = nil }
        evhttp_del_accept_socket(http, bound)
        self.bound = nil
    }

    /// Re-enables accepting after the listener paused for lack of descriptors.
    func resumeAccepting() {
        if let listener { evconnlistener_enable(listener) }
    }

    /// Closes the port and every connection on it. Idempotent.
    func close() {
        guard let http else { return }
        stopAccepting()
        self.http = nil
        let responder = self.responder
        self.responder = nil
        // evhttp_free closes every connection; their close callbacks cancel pending replies and
        // leave the server's table. Connections that never sent a byte have no close callback.
        evhttp_free(http)
        if let server { forget(in: server, responder: responder) }
    }

    /// Removes the port from the server's tables once it is closed; subclasses say which table.
    func forget(in server: HTTPServer, responder: (any HTTPResponder)?) {}
}
