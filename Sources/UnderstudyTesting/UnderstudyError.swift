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
    /// `waitForRequests` ran out of time: `arrived` is what had matched by then.
    case waitTimedOut(expected: Int, seconds: TimeInterval, arrived: [RecordedRequest])
    /// `waitForWebhook` ran out of time: `seen` is the deliveries as they stood then.
    case webhookWaitTimedOut(state: WebhookDelivery.State, seconds: TimeInterval, seen: [WebhookDelivery])
    /// What was asked cannot work on this platform or with this daemon; the text says why and
    /// what to do instead.
    case unsupported(String)

    public var description: String {
        switch self {
        case let .binaryNotFound(searched):
            """
            understudy binary not found. In the package whose tests these are, run `swift build --product understudy` \
            once: SwiftPM puts the daemon beside the test binary, where the kit looks, and a plain `swift test` then \
            finds it. Or set UNDERSTUDY_BIN to the binary, or UNDERSTUDY_URL to a running daemon. \
            Looked in: \(searched.joined(separator: ", "))
            """
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
        case let .unsupported(reason):
            reason
        case let .webhookWaitTimedOut(state, seconds, seen):
            "waited \(seconds)s for a webhook delivery to be \(state.rawValue); deliveries: "
                + (seen.isEmpty
                    ? "none"
                    : seen.map { "\($0.id) \($0.state.rawValue) after \($0.attempts) attempt(s)" }.joined(
                        separator: ", "))
        case let .waitTimedOut(expected, seconds, arrived):
            "waited \(seconds)s for \(expected) request(s), \(arrived.count) arrived"
                + arrived.map {
                    "\n  #\($0.seq) \($0.method) \($0.path)\($0.query.map { "?\($0)" } ?? "") → \(Self.outcome(of: $0))"
                }.joined()
        }
    }

    /// What a request got, for messages: its status, else its fault, else that nothing was sent
    /// (never `Optional(200)`).
    static func outcome(of request: RecordedRequest) -> String {
        if let status = request.status { return String(status) }
        if let fault = request.fault { return "fault \(fault)" }
        return "no response"
    }
}
