#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Reads stub files into a ``StubSet``, all-or-nothing, reporting every error it finds.
public enum StubLoader {
    /// Loads files and directories (every `*.json` below a directory, recursively, in path order,
    /// except the response bodies ``StubFileKind`` sets apart).
    ///
    /// A directory that is an installed format adapter's root (``StubFormatAdapter/rootFiles(_:jsonFiles:)``;
    /// WireMock's: only the mapping files under its `mappings/`, in the order WireMock reads them,
    /// and every file of its `__files/` served as a static web root behind every mapping) is read
    /// as the adapter says. Unless `options.strict`, each adapter then settles the decoded stubs
    /// (WireMock: two mappings that give one id both load).
    ///
    /// Throws every error from every file, in load order and then position; a stub set is
    /// returned only when all files are valid and stub ids are unique across them. A WireMock
    /// mapping with a problem is not an error unless `options.strict`: it is left out and listed in
    /// ``StubSet/skipped`` (native stub files are always all or nothing).
    public static func load(paths: [String], options: StubLoadOptions = StubLoadOptions()) throws(StubLoadFailure)
        -> StubSet
    {
        var errors: [StubFileError] = []
        var sources: [StubSourceFile] = []
        var fileOrder: [String] = []
        var staticStubs: [Stub] = []
        for path in paths {
            guard let isDirectory = Self.isDirectory(path) else {
                errors.append(fileError(path, "no such file or directory"))
                fileOrder.append(path)
                continue
            }
            if isDirectory {
                let all = jsonFiles(under: path)
                var rootFiles: [String]?
                for adapter in StubFormatAdapters.installed where rootFiles == nil {
                    rootFiles = adapter.rootFiles(path, jsonFiles: all)
                    if rootFiles != nil { staticStubs += adapter.rootStubs(path) }
                }
                let found = (rootFiles ?? all).map { StubSourceFile(path: $0, root: path) }
                sources += found
                fileOrder += found.map(\.path)
            } else if path.hasSuffix(".json") {
                sources.append(StubSourceFile(path: path, root: nil))
                fileOrder.append(path)
            } else {
                errors.append(fileError(path, "not a stub file: expected a `.json` file"))
                fileOrder.append(path)
            }
        }
        var documents: [(source: StubSourceFile, result: DocumentResult)] = []
        for source in sources where StubFileKind.byLocation(source) != .body {
            documents.append((source, decodeFile(source, options)))
        }
        // Only now is every `bodyFile` known: a body may sort before the stub that serves it.
        var bodies: Set<String> = []
        if documents.contains(where: { !$0.result.bodyFilesRead.isEmpty }) {
            bodies = StubFileKind.referencedBodies(
                documents.map { document in
                    (BodyFileResolver.realPath(document.source.path), document.result.bodyFilesRead)
                })
        }
        var decoded: [DecodedStub] = []
        var warnings: [StubFileError] = []
        var skipped: [SkippedMapping] = []
        for (source, result) in documents where StubFileKind.byReference(source, bodies: bodies) != .body {
            errors += result.errors
            decoded += result.stubs
            warnings += result.warnings
            skipped += result.skipped
        }
        if !options.strict {
            for adapter in StubFormatAdapters.installed { warnings += adapter.settle(&decoded) }
        }
        var set = try finish(decoded, errors: errors, fileOrder: fileOrder)
        set.stubs += staticStubs
        set.warnings = warnings
        set.skipped = skipped
        return set
    }

    /// Parses one stub document. `root` is the directory `bodyFile` paths may not escape
    /// (`nil`: the directory holding `file`). A `file` that is not on disk (such as `"<admin>"`)
    /// cannot use `bodyFile`.
    public static func parse(bytes: [UInt8], file: String, root: String?) throws(StubLoadFailure) -> StubSet {
        try parse(bytes: bytes, file: file, root: root, otherKeys: [])
    }

    /// Parses a document that holds a `stubs` array beside keys of its own (`otherKeys`, which
    /// the caller checks), such as the body of `POST /__admin/sessions`. Errors are reported as
    /// for a stub file, with positions in `bytes`.
    package static func parse(bytes: [UInt8], file: String, root: String?, otherKeys: [String]) throws(StubLoadFailure)
        -> StubSet
    {
        let result = decode(bytes: bytes, file: file, root: root, notAStubFileHint: nil, otherKeys: otherKeys)
        var set = try finish(result.stubs, errors: result.errors, fileOrder: [file])
        set.warnings = result.warnings
        return set
    }

    /// What one document yielded; its stubs are used only if the whole run has no error.
    package struct DocumentResult {
        package var stubs: [DecodedStub] = []
        package var errors: [StubFileError] = []
        package var bodyFilesRead: [String] = []
        /// An adapter's leniencies taken (WireMock's), one warning each.
        package var warnings: [StubFileError] = []
        /// An adapter's stubs left out (WireMock mappings).
        package var skipped: [SkippedMapping] = []

        package init(
            stubs: [DecodedStub] = [], errors: [StubFileError] = [], bodyFilesRead: [String] = [],
            warnings: [StubFileError] = [], skipped: [SkippedMapping] = []
        ) {
            self.stubs = stubs
            self.errors = errors
            self.bodyFilesRead = bodyFilesRead
            self.warnings = warnings
            self.skipped = skipped
        }
    }

    /// Adds duplicate-id errors (stubs with other errors included), orders every error by file
    /// and position, and returns the stubs only when there is no error at all.
    private static func finish(_ decoded: [DecodedStub], errors: [StubFileError], fileOrder: [String])
        throws(StubLoadFailure) -> StubSet
    {
        var errors = errors + duplicateIDErrors(decoded)
        guard errors.isEmpty else {
            var rank: [String: Int] = [:]
            for file in fileOrder where rank[file] == nil { rank[file] = rank.count }
            let ordered = errors.enumerated().sorted { a, b in
                let x = (rank[a.element.file] ?? Int.max, a.element.line, a.element.column, a.offset)
                let y = (rank[b.element.file] ?? Int.max, b.element.line, b.element.column, b.offset)
                return x < y
            }
            errors = ordered.map(\.element)
            throw StubLoadFailure(errors: errors)
        }
        return StubSet(stubs: decoded.compactMap(\.stub))
    }

    private static func decodeFile(_ source: StubSourceFile, _ options: StubLoadOptions) -> DocumentResult {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            return DocumentResult(errors: [fileError(source.path, "cannot read the file")])
        }
        return decode(
            bytes: Array(data), file: source.path, root: source.root,
            notAStubFileHint: source.foundInDirectory ? StubFileKind.notAStubFileHint : nil, options: options,
            skippingMappings: !options.strict)
    }

    private static func decode(
        bytes: [UInt8], file: String, root: String?, notAStubFileHint: String?,
        otherKeys: [String] = [], options: StubLoadOptions = StubLoadOptions(), skippingMappings: Bool = false
    ) -> DocumentResult {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes)
        } catch {
            return DocumentResult(errors: [
                StubFileError(
                    file: file, line: error.position.line, column: error.position.column,
                    jsonPath: error.jsonPath, message: "not valid JSON: \(error.message)")
            ])
        }
        switch StubFileKind.byContent(node) {
        case .native:
            let onDisk = FileManager.default.fileExists(atPath: file)
            var decoder = StubDecoder(
                file: file, bodyFiles: onDisk ? BodyFileResolver(stubFile: file, root: root) : nil,
                notAStubFileHint: notAStubFileHint)
            decoder.otherDocumentKeys = otherKeys
            // The document becomes the format's values, and each goes through the one compile step.
            let definitions = decoder.definitions(in: node)
            let stubs = StubCompiler.compile(definitions, with: &decoder)
            return DocumentResult(stubs: stubs, errors: decoder.errors, bodyFilesRead: decoder.bodyFilesRead)
        case .adapted(let name):
            guard let adapter = StubFormatAdapters.installed.first(where: { $0.name == name }) else {
                return DocumentResult()
            }
            return adapter.decode(
                node, file: file, root: root, options: options, skippingInvalid: skippingMappings)
        case .body:
            return DocumentResult()
        }
    }

    private static func duplicateIDErrors(_ decoded: [DecodedStub]) -> [StubFileError] {
        // Positions, not copies: a `DecodedStub` holds its whole stub, and copying 10 000 of them
        // into the table was most of this function's cost.
        var first: [String: Int] = [:]
        first.reserveCapacity(decoded.count)
        var errors: [StubFileError] = []
        for (position, entry) in decoded.enumerated() {
            if let earlierPosition = first[entry.id] {
                let earlier = decoded[earlierPosition]
                errors.append(
                    StubFileError(
                        file: entry.file, line: entry.idPosition.line, column: entry.idPosition.column,
                        jsonPath: entry.idPath,
                        message:
                            "duplicate stub id `\(entry.id)`; first used at \(earlier.file):\(earlier.idPosition.line):\(earlier.idPosition.column)"
                    ))
            } else {
                first[entry.id] = position
            }
        }
        return errors
    }

    /// Whether `path` is a directory (following symlinks); nil when it does not exist.
    package static func isDirectory(_ path: String, followingSymlinks: Bool = true) -> Bool? {
        var info = stat()
        guard (followingSymlinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every `*.json` below `directory`, recursively, sorted by path; hidden entries are skipped.
    static func jsonFiles(under directory: String) -> [String] {
        var files: [String] = []
        func walk(_ dir: String) {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in entries where !name.hasPrefix(".") {
                let full = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                // Descend into real directories only (a symlinked one could loop), as the enumerator did.
                if isDirectory(full, followingSymlinks: false) == true {
                    walk(full)
                } else if name.hasSuffix(".json"), isDirectory(full) == false {
                    files.append(full)
                }
            }
        }
        walk(directory)
        return files.sorted()
    }

    private static func fileError(_ file: String, _ message: String) -> StubFileError {
        StubFileError(file: file, line: 1, column: 1, jsonPath: "", message: message)
    }
}
