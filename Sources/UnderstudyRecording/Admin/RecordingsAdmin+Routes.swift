import UnderstudyCore

// The recording module's admin routes: the one list of them, as `UnderstudyCore/Admin/AdminRoutes.swift`
// is the one list of the native ones. The handlers are in `RecordingsAdmin.swift` and
// `RequestsAdmin+HAR.swift`; the registration is `RecordingModule.install()`.
extension RecordingsAdmin {
    /// The routes the recording module registers beside the native ones.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "requests.har", .both, har),
        AdminRoute("POST", "recordings/snapshot", .both, snapshot),
        AdminRoute("POST", "recordings/stop", .both, stop),
    ]
}
