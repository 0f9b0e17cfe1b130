import CLibevent

extension HTTPServer {
    /// libevent's name for the mechanism the loop waits on, `epoll (with changelist)` on Linux.
    public var eventBackend: String {
        event_base_get_method(base).map { String(cString: $0) } ?? "unknown"
    }

    /// The event loop, with epoll's changelist: libevent then collects a loop pass's
    /// `epoll_ctl` changes per descriptor and applies only their net effect before it waits
    /// again. A kept-alive request otherwise costs several `epoll_ctl` calls that cancel out
    /// (the bufferevent starts writing, stops writing, re-adds its read event).
    ///
    /// Why it is safe here. The flag's caveat is about a socket with a second descriptor (from
    /// `dup`, or kept by a forked child): closing the registered descriptor then leaves the
    /// kernel's registration in place, because it belongs to the open file, and with the
    /// changelist libevent's `EPOLL_CTL_DEL` comes only after that close. This daemon never
    /// gives a socket a second descriptor: the listener accepts with `SOCK_CLOEXEC`, nothing forks
    /// while serving, and a connection's socket is closed only by freeing its bufferevent (a
    /// `connection-reset` fault sets `SO_LINGER` 0 first), which deletes its events before it
    /// closes the descriptor. A late `EPOLL_CTL_DEL` that meets a closed descriptor or a new
    /// socket that reused the number is treated as done by libevent 2.1 (EBADF, ENOENT on DEL; a
    /// MOD that meets ENOENT is retried as ADD for the reused number). The fault tests
    /// (`connection-reset` among them) run with the flag on.
    static func makeEventBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return event_base_new() }
        defer { event_config_free(config) }
        _ = event_config_set_flag(config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
        return event_base_new_with_config(config)
    }
}
