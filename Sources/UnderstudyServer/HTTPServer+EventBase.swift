import CLibevent

extension HTTPServer {
    /// libevent's name for the mechanism the loop waits on, `epoll (with changelist)` on Linux.
    public var eventBackend: String {
        event_base_get_method(base).map { String(cString: $0) } ?? "unknown"
    }

    /// The event loop, with epoll's changelist: libevent then collects a loop pass's
    /// `epoll_ctl` changes per descriptor and applies only their net effect before it waits
    /// again. A kept-alive request otherwise costs several `epoll_ctl` calls that cancel out
    /// (evhttp stops reading while it answers, starts writing, stops writing, reads again).
    ///
    /// Why it is safe here. The flag's caveat is about a socket with a second descriptor (from
    /// `dup`, or kept by a forked child): closing the registered descriptor then leaves the
    /// kernel's registration in place, because it belongs to the open file, and with the
    /// changelist libevent's `EPOLL_CTL_DEL` comes only after that close. This daemon never
    /// gives a socket a second descriptor: evhttp accepts with `SOCK_CLOEXEC`, nothing forks
    /// while serving, and the one `dup2` (`HTTPServer+Faults.swift`) goes the other way — it
    /// puts `/dev/null` *over* a socket's descriptor, which drops the socket's only reference,
    /// so the kernel closes the socket (sending the reset) and removes its registration at
    /// once. The late `EPOLL_CTL_DEL` then meets `/dev/null`, a closed descriptor or a new
    /// socket that reused the number, and libevent 2.1 treats each answer as done (EPERM,
    /// EBADF, ENOENT on DEL; a MOD that meets ENOENT is retried as ADD for the reused number).
    /// The fault tests (`connection-reset` among them) run with the flag on.
    static func makeEventBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return event_base_new() }
        defer { event_config_free(config) }
        _ = event_config_set_flag(config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
        return event_base_new_with_config(config)
    }
}
