import Foundation

/// An admin API call that did not succeed, with the daemon's own explanation.
public struct AdminError: Error, Sendable, CustomStringConvertible {
    /// `GET`, `POST`…
    public var method: String
    /// The admin path, e.g. `/__admin/stubs`.
    public var path: String
    /// The HTTP status (0 when no response arrived).
    public var status: Int
    /// The daemon's `error` message, or the transport error.
    public var message: String
    /// Validation errors, for stub files the daemon refused.
    public var errors: [StubValidationError]

    public var description: String {
        var text = "\(method) \(path) failed (\(status)): \(message)"
        for error in errors { text += "\n  \(error)" }
        return text
    }
}
