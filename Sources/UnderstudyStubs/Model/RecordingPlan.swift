import UnderstudyJSON

/// How a recording turns exchanges into stubs (`UnderstudyRecording`'s `RecordingOptions`). Core
/// carries a plan's options without reading them: recording is a module of its own.
public protocol RecordingSettings: Sendable {}

/// What `understudy record` (or a session with `recording`) was started with: where the stubs go
/// and how they are made. The engine carries it (UnderstudyCore's `EngineConfiguration.recording`) so the
/// recording module's `POST /__admin/recordings/stop` can write them; `stopped` then lets the
/// command finish.
public final class RecordingPlan {
    /// The directory the stubs are written to.
    public let out: String
    /// How exchanges become stubs.
    public let options: any RecordingSettings
    /// Called once the stop route has written the stubs (the command stops its server).
    public let stopped: () -> Void
    /// Whether `POST /__admin/recordings/stop` has written the stubs (a recording session shows
    /// it, so `understudy record --session` knows to delete the session and finish).
    public package(set) var written = false

    /// A plan writing to `out` with `options`; `stopped` runs after `POST /__admin/recordings/stop` wrote.
    public init(out: String, options: any RecordingSettings, stopped: @escaping () -> Void = {}) {
        self.out = out
        self.options = options
        self.stopped = stopped
    }
}

/// Where the process's reader of recording options is installed (by `UnderstudyRecording`, at
/// start-up, as ``XMLSupport``): a session's `"recording": {"out": DIR, …options}` is read with
/// it. Without one, a session asking to record is refused with a reason.
package enum RecordingSupport {
    /// Why options cannot be used, said to the client (a 400).
    package struct Refusal: Error, Sendable {
        package var message: String
        package init(_ message: String) { self.message = message }
    }

    /// Reads the options of a `recording` object, leaving the `ignoring` keys to the caller;
    /// `.failure` says what is wrong.
    package typealias OptionsReader =
        @Sendable (JSONValue, _ ignoring: Set<String>) -> Result<
            any RecordingSettings, Refusal
        >

    nonisolated(unsafe) private static var reader: OptionsReader?

    /// Installs the options reader; call it before the engine's threads start.
    package static func install(_ read: @escaping OptionsReader) {
        reader = read
    }

    /// The options in `json`, or why they cannot be used.
    package static func options(_ json: JSONValue, ignoring: Set<String>) -> Result<any RecordingSettings, Refusal> {
        guard let reader else { return .failure(Refusal("recording is not available in this program")) }
        return reader(json, ignoring)
    }
}
