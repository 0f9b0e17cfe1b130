/// Another tool's admin API served beside the native one, for that tool's clients: the routes
/// it adds to the table, and what it adds to native answers that share a path with it.
/// The native handlers call the hooks without knowing whose they are.
package struct AdminAdapter: Sendable {
    /// The adapter's name; installing another with the same name replaces it.
    package var name: String
    /// Routes registered in the table beside the native ones.
    /// Its routes, built when the table is composed (the first use of ``AdminRoutes/standard``),
    /// not at install: a start that answers no admin call builds none.
    var routes: [AdminRoute] { makeRoutes() }
    private let makeRoutes: @Sendable () -> [AdminRoute]
    /// Fields spliced into each entry `GET /__admin/requests` lists: the bytes of a JSON
    /// object (its members are appended to the native entry's).
    var journalEntryFields: (@Sendable (JournalEntry) -> [UInt8])?
    /// Members added to each scenario `GET /__admin/scenarios` lists (name, known states).
    var scenarioFields: (@Sendable (String, [String]) -> [JSONMember])?
    /// Runs on `POST /__admin/reset`, after the engine's own reset, with the call (its engine,
    /// and its reload of the stub paths, for a tool whose reset goes back to the files).
    package var onReset: (@Sendable (AdminCall) -> Void)?

    package init(
        name: String, routes: @autoclosure @escaping @Sendable () -> [AdminRoute],
        journalEntryFields: (@Sendable (JournalEntry) -> [UInt8])? = nil,
        scenarioFields: (@Sendable (String, [String]) -> [JSONMember])? = nil,
        onReset: (@Sendable (AdminCall) -> Void)? = nil
    ) {
        self.name = name
        self.makeRoutes = routes
        self.journalEntryFields = journalEntryFields
        self.scenarioFields = scenarioFields
        self.onReset = onReset
    }
}
