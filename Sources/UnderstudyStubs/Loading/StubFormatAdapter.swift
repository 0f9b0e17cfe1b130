import UnderstudyJSON

/// Another tool's stub files, read beside the native format by an adapter that lives in a module
/// of its own (WireMock's is `UnderstudyWireMock`). Core names no adapter: the loader asks the ones
/// installed with ``StubFormatAdapters/install(_:)`` (the CLI does it at start-up, as it installs
/// ``XMLSupport``), so a program that installs none reads native stub files only.
///
/// An adapter decodes its documents with ``StubDecoder`` (its part readers and errors with
/// positions) into the engine's ``Stub``; the loader then checks ids across documents and
/// installs all or nothing, as for native files.
package protocol StubFormatAdapter: Sendable {
    /// The adapter's name; installing another with the same name replaces it.
    var name: String { get }

    /// Whether a parsed document is in this format. Native is the fallback, so a file no adapter
    /// claims gets native errors.
    func claims(_ document: JSONNode) -> Bool

    /// For a loaded directory that is this format's root: the files to load from it, in load
    /// order; `nil` when it is not one (its `*.json` are then loaded as usual).
    func rootFiles(_ directory: String, jsonFiles: [String]) -> [String]?

    /// Stubs a root of this format serves beside its files' (WireMock's `__files/` web root).
    func rootStubs(_ directory: String) -> [Stub]

    /// Decodes one document this adapter claimed. `root` is the loaded directory it was found
    /// under; `skippingInvalid` asks to leave out (into `skipped`) what it cannot serve.
    func decode(_ document: JSONNode, file: String, root: String?, options: StubLoadOptions, skippingInvalid: Bool)
        -> StubLoader.DocumentResult

    /// Runs over every stub of a non-strict load once all documents are decoded (WireMock gives a
    /// mapping whose id another already has an id of its own); returns a warning per change.
    func settle(_ decoded: inout [DecodedStub]) -> [StubFileError]

    /// Whether a request matcher posted on its own (`POST /__admin/requests/count`, `find`) is in
    /// this format rather than the native one.
    func claimsRequestPattern(_ node: JSONNode) -> Bool

    /// Decodes a request matcher this adapter claimed; errors go to `decoder`.
    func requestPattern(_ node: JSONNode, _ path: String, decoder: inout StubDecoder) -> RequestPattern?
}

/// Where the process's stub format adapters are installed.
///
/// Written at start-up, before any stub is loaded and before the engine's threads start (the
/// daemon's `main`, a test's `setUp`); only read after that, hence no lock.
package enum StubFormatAdapters {
    nonisolated(unsafe) private static var adapters: [any StubFormatAdapter] = []

    /// Installs `adapter` (replacing one of the same name).
    package static func install(_ adapter: any StubFormatAdapter) {
        adapters.removeAll { $0.name == adapter.name }
        adapters.append(adapter)
    }

    /// The installed adapters, in installation order.
    package static var installed: [any StubFormatAdapter] { adapters }

    /// The installed adapter that claims `document`, if any.
    package static func claiming(_ document: JSONNode) -> (any StubFormatAdapter)? {
        adapters.first { $0.claims(document) }
    }
}
