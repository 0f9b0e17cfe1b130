/// What the loader makes of one `.json` file. Every decision about which files are stubs (and in
/// which format) and which are not is made here, so a new format adds its detection in this one
/// place and the loader only dispatches on the answer.
///
/// The rule, as docs/stub-format.md states it: a file named explicitly is a stub file. Below a loaded
/// directory, every `*.json` is a stub file except
/// - a file under a directory named `__files` (WireMock's convention for response bodies), and
/// - a file that a stub loaded in the same run names as its `bodyFile`.
///
/// Anything else must decode as stubs; a file that does not is reported (with a hint about this
/// rule), never skipped. A loaded directory that is a WireMock root is walked by WireMock's rule
/// instead (only `mappings/`; ``StubFormatAdapter/rootFiles(_:jsonFiles:)``) before any file is classified.
package enum StubFileKind: Equatable, Sendable {
    /// An Understudy stub file, `{"stubs": [...]}`. Also the answer for a file no format claims,
    /// so its errors are reported against the native format.
    case native
    /// A file in the format of the installed ``StubFormatAdapter`` of that name (WireMock's mapping
    /// files: one mapping, or `{"mappings": [...]}`).
    case adapted(String)
    /// A response body kept in the stub tree: not loaded as stubs.
    case body

    /// Directories whose files are response bodies, never stubs (WireMock's `__files`).
    package static let bodyDirectoryName = "__files"

    /// Decided from where the file lies, before it is read: `.body` for a file under a `__files`
    /// directory below the loaded directory; `nil` when its content decides.
    static func byLocation(_ source: StubSourceFile) -> StubFileKind? {
        guard source.foundInDirectory else { return nil }
        return source.directoriesBelowRoot.contains { $0 == bodyDirectoryName } ? .body : nil
    }

    /// Decided from the parsed document: which decoder reads it. Native is the fallback, so a
    /// stub file with a typo (`"stubz"`) still gets native errors pointing at the typo.
    static func byContent(_ document: JSONNode) -> StubFileKind {
        StubFormatAdapters.claiming(document).map { .adapted($0.name) } ?? .native
    }

    /// Decided once every file of the run is decoded: a file found under a loaded directory that
    /// a stub names as its `bodyFile` is a body, whatever it holds. `bodies` comes from
    /// ``referencedBodies(_:)``.
    static func byReference(_ source: StubSourceFile, bodies: Set<String>) -> StubFileKind? {
        guard source.foundInDirectory, !bodies.isEmpty,
            let real = BodyFileResolver.realPath(source.path), bodies.contains(real)
        else { return nil }
        return .body
    }

    /// The real paths of the files that stubs of this run name as `bodyFile`s, given each decoded
    /// document's real path and the real paths of the bodies it read.
    ///
    /// Only stubs that are themselves loaded count, so references from a file that is itself a
    /// body (named by another file) are ignored, and so is a file naming itself. Where that is
    /// circular (two files naming each other), both stay stub files: when in doubt a file is
    /// checked as stubs and any problem reported, never skipped.
    static func referencedBodies(_ documents: [(file: String?, bodiesRead: [String])]) -> Set<String> {
        let foreign = documents.map { document in Set(document.bodiesRead.filter { $0 != document.file }) }
        let namedByAnother = foreign.reduce(into: Set<String>()) { $0.formUnion($1) }
        var bodies: Set<String> = []
        for (document, references) in zip(documents, foreign) {
            if let file = document.file, namedByAnother.contains(file) { continue }
            bodies.formUnion(references)
        }
        return bodies
    }

    /// Appended to the error for a file below a loaded directory that is not a stub file, so a
    /// user who keeps JSON bodies beside their stubs learns the rule.
    static let notAStubFileHint =
        "Below a loaded directory every `.json` is a stub file, except one that a stub names as its `bodyFile` and one under a `\(bodyDirectoryName)/` directory"
}
