import Foundation

/// A session's claim on its daemon: deletes the session exactly once, when the handle is stopped
/// or released, and keeps the daemon's handle (and so a launched daemon) alive until then.
final class SessionLease: @unchecked Sendable {
    /// The session's id on `daemon`.
    let id: String
    /// The daemon the session lives on (its main port's admin deletes the session).
    let daemon: Understudy
    /// The session's HTTPS URL and certificate, when it was created with `tls`.
    let httpsURL: URL?
    let tls: TLSCertificateMode?
    private let lock = NSLock()
    private var deleted: Date?

    init(id: String, daemon: Understudy, httpsURL: URL? = nil, tls: TLSCertificateMode? = nil) {
        self.id = id
        self.daemon = daemon
        self.httpsURL = httpsURL
        self.tls = tls
    }

    /// Deletes the session and waits for the answer; later calls do nothing. A session that is
    /// already gone (reclaimed as idle, its daemon stopped) counts as deleted.
    func delete() async {
        guard claim() else { return }
        try? await daemon.admin.deleteSession(id: id)
    }

    /// Deletes the session in the background (for `deinit` and `defer`); if the process ends
    /// first, the daemon's idle timeout reclaims it.
    func deleteWithoutWaiting() {
        guard claim() else { return }
        let admin = daemon.admin
        let id = id
        Task.detached { try? await admin.deleteSession(id: id) }
    }

    /// When the handle deleted the session (`nil` while it lives), so calls through the handle
    /// afterwards can say so instead of failing to connect to a closed port.
    var deletedAt: Date? {
        lock.withLock { deleted }
    }

    /// True for the one caller that gets to delete.
    private func claim() -> Bool {
        lock.withLock {
            guard deleted == nil else { return false }
            deleted = Date()
            return true
        }
    }
}
