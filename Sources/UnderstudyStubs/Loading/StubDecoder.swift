import UnderstudyStubFormat

/// Reads stub JSON with its positions, collecting every error instead of stopping at the first,
/// each with its file, position, JSON path and (for typos) a suggestion: the key checks
/// (`StubDecoder+Keys.swift`), typed values (`+Values`) and a reader per part of a stub
/// (`+Request`, `+Response`, `+Matchers`, `+RateLimit`, ...). The loader uses it to split a
/// document into ``StubDefinition``s and ``StubCompiler`` to compile each; the WireMock adapter
/// (`WireMock/`) extends it to read its own format.
package struct StubDecoder {
    static let documentKeys = StubFormat.Object.document.keys
    static let stubKeys = StubFormat.Object.stub.keys
    static let rateLimitKeys = StubFormat.Object.rateLimit.keys
    static let idempotencyKeys = StubFormat.Object.idempotency.keys

    package let file: String
    /// Resolves `bodyFile` paths; `nil` when the document has no file on disk.
    package let bodyFiles: BodyFileResolver?
    /// Added to the error for a document that is not a stub file (see ``StubFileKind``).
    let notAStubFileHint: String?
    package var errors: [StubFileError] = []
    /// The real paths of every `bodyFile` read, so the loader can tell body files from stub files.
    package var bodyFilesRead: [String] = []
    /// Top-level keys a document may carry besides `stubs` (checked by whoever allows them).
    var otherDocumentKeys: [String] = []
    /// Problems let pass (WireMock's leniencies), one each.
    package var warnings: [StubFileError] = []
    /// WireMock's rules for keys given twice: the last one wins (with a warning) instead of an error.
    package var lastDuplicateKeyWins = false
    /// WireMock mappings with a problem are left out (into ``skipped``) instead of failing the file.
    package var skippingMappings = false
    /// The mappings left out (see ``skippingMappings``).
    package var skipped: [SkippedMapping] = []
    /// A WireMock mapping file on disk: a `bodyFileName` that is missing fails only the requests
    /// it answers (500, as WireMock does) instead of the file.
    package var wireMockFileOnDisk = false
    /// WireMock's `--global-response-templating` (``StubLoadOptions``).
    package var wireMockGlobalTemplating = false
    /// The `transformerParameters` of the WireMock response being decoded (scalars as text), which
    /// its templates read as `parameters.NAME`.
    package var wireMockTemplateParameters: [String: String] = [:]

    package init(file: String, bodyFiles: BodyFileResolver?, notAStubFileHint: String? = nil) {
        self.file = file
        self.bodyFiles = bodyFiles
        self.notAStubFileHint = notAStubFileHint
    }

    package mutating func fail(
        _ position: SourcePosition, _ path: JSONPath, _ message: String, suggestion: String? = nil
    ) {
        errors.append(
            StubFileError(
                file: file, line: position.line, column: position.column,
                jsonPath: path.text, message: message, suggestion: suggestion))
    }

    /// Records a leniency: loading goes on, and the line is printed at start-up and in `check`.
    package mutating func warn(_ position: SourcePosition, _ path: JSONPath, _ message: String) {
        var warning = StubFileError(
            file: file, line: position.line, column: position.column, jsonPath: path.text, message: message)
        warning.severity = .warning
        warnings.append(warning)
    }

    package mutating func typeMismatch(_ node: JSONNode, _ path: JSONPath, expected: String) {
        fail(node.position, path, "expected \(expected), found \(article(node.kindName))")
    }

    /// Splits a stub document into the format's values, one ``StubDefinition`` per element of
    /// `stubs`, after checking the document itself (an object, with a `stubs` array and no unknown
    /// key). Each definition then goes through ``StubCompiler``, the one compile step.
    mutating func definitions(in root: JSONNode) -> [StubDefinition] {
        let hint = notAStubFileHint.map { ". \($0)" } ?? ""
        guard let topLevel = root.members else {
            fail(
                root.position, .root, "expected an object with a `stubs` array, found \(article(root.kindName))\(hint)")
            return []
        }
        // A document with no `stubs` and no key that looks like one is not a stub file at all (a
        // JSON body, say): one error, not one per key it happens to have.
        let known = Self.documentKeys + otherDocumentKeys
        let typo = Self.misspelling(
            of: "stubs", among: topLevel.map(\.key).filter { !known.contains($0) }, known: known)
        guard topLevel.contains(where: { $0.key == "stubs" }) || typo != nil else {
            fail(
                root.position, .root, "not a stub file: missing key `stubs`; a stub file is {\"stubs\": [ ... ]}\(hint)"
            )
            return []
        }
        let keys = members(
            of: root, .root, known: known,
            required: [RequiredKey(key: "stubs", why: "a stub file is {\"stubs\": [ ... ]}")])
        guard let stubsMember = keys["stubs"] else { return [] }
        guard let elements = stubsMember.value.elements else {
            typeMismatch(stubsMember.value, JSONPath.root.member("stubs"), expected: "an array of stubs")
            return []
        }
        let stubsPath = JSONPath.root.member("stubs")
        return elements.enumerated().map { index, element in
            StubDefinition(node: element, file: file, index: index, path: stubsPath.element(index))
        }
    }
}
