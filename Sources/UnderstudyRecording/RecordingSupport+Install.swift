import UnderstudyCore

/// Recording for the daemon: `POST /__admin/recordings/snapshot` and `stop`, `GET
/// /__admin/requests.har`, and the `recording` option of a session. Core names none of this; the
/// `understudy` CLI installs it at start-up, before the engine's threads start.
public enum RecordingModule {
    /// Installs the recording admin routes (``AdminRoutes``) and the reader of a session's
    /// recording options (``RecordingSupport``). Installing again replaces them.
    public static func install() {
        RecordingSupport.install { json, ignoring in
            do throws(RecordingError) {
                return .success(try RecordingOptions(json: json, ignoring: ignoring))
            } catch {
                return .failure(RecordingSupport.Refusal(error.message))
            }
        }
        AdminRoutes.install(RecordingsAdmin.adapter)
    }
}
