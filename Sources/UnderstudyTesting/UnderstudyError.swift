import Foundation

/// Why a daemon could not be started, reached or asked something.
public enum UnderstudyError: Error, Sendable, CustomStringConvertible {
    /// No `understudy` executable was found; `searched` lists every place looked.
    case binaryNotFound(searched: [String])
    /// The process could not be started at all.
    case launchFailed(binary: String, reason: String)
    /// The daemon exited before printing its readiness line (bad stub file, port in use…).
    case exitedBeforeReady(status: Int32, stderr: String)
    /// The readiness line did not arrive within the deadline.
    case notReadyInTime(seconds: TimeInterval, stdout: String, stderr: String)
    /// A URL (from `attach` or `UNDERSTUDY_URL`) that is not an http(s) URL.
    case invalidURL(String)
    /// An admin call failed; see `AdminError`.
    case admin(AdminError)

    public var description: String {
        switch self {
        case let .binaryNotFound(searched):
            "understudy binary not found; set UNDERSTUDY_BIN or build the `understudy` product. Looked in: \(searched.joined(separator: ", "))"
        case let .launchFailed(binary, reason):
            "could not start \(binary): \(reason)"
        case let .exitedBeforeReady(status, stderr):
            "understudy exited with status \(status) before it was ready:\n\(stderr)"
        case let .notReadyInTime(seconds, stdout, stderr):
            "understudy did not report readiness within \(seconds)s\nstdout: \(stdout)\nstderr: \(stderr)"
        case let .invalidURL(url):
            "not a usable daemon URL: \(url)"
        case let .admin(error):
            error.description
        }
    }
}

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

/// One problem the daemon found in a stub file.
public struct StubValidationError: Codable, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var path: String?
    public var message: String
    public var suggestion: String?

    public var description: String {
        "\(file ?? "<admin>"):\(line ?? 0):\(column ?? 0): \(message)" + (path.map { " (at \($0))" } ?? "")
    }
}
