import UnderstudyJSON
import UnderstudyJSONSchema

/// The values of a spec's documents: the root (`""`) and every file its `$ref`s name, keyed by
/// path; the validator's `$ref` resolver. Read once, at load time, so checking does no I/O.
public struct OpenAPIDocuments: SchemaResolving, @unchecked Sendable {
    /// The spec file; the root document's key `""` stands for it.
    public let rootFile: String
    /// Each document's value by key.
    package var values: [String: JSONValue]

    /// Documents with `root` as the spec file's value.
    package init(rootFile: String, root: JSONValue) {
        self.rootFile = rootFile
        self.values = ["": root]
    }

    /// The root document.
    public var root: JSONValue { values[""]! }

    /// The file a document key names.
    package func file(_ document: String) -> String { document.isEmpty ? rootFile : document }

    /// The document key of `reference`'s file part, relative to `document`'s directory.
    package func documentKey(of filePart: String, from document: String) -> String {
        if filePart.isEmpty { return document }
        let base = file(document)
        let directory = base.contains("/") ? String(base[..<base.lastIndex(of: "/")!]) : "."
        let joined = filePart.hasPrefix("/") ? filePart : directory + "/" + filePart
        let key = Self.normalize(joined)
        return key == Self.normalize(rootFile) ? "" : key
    }

    /// `a/./b/../c` → `a/c`.
    package static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// What `reference` (`file.yaml#/a/b`, `#/a`) written in `document` names.
    public func resolve(_ reference: String, from document: String) -> ResolvedSchema? {
        let hash = reference.firstIndex(of: "#")
        let filePart = String(hash.map { reference[..<$0] } ?? Substring(reference))
        let pointer = hash.map { String(reference[$0...]) } ?? "#"
        let key = documentKey(of: filePart, from: document)
        guard let value = values[key], let target = JSONPointer.resolve(pointer, in: value) else { return nil }
        return ResolvedSchema(document: key, pointer: pointer == "#" ? "#" : pointer, schema: target)
    }

    /// Follows `$ref`s from `value` (at `pointer` in `document`) to the object they name.
    package func dereference(_ value: JSONValue, document: String, pointer: String) -> ResolvedSchema {
        var current = ResolvedSchema(document: document, pointer: pointer, schema: value)
        var hops = 0
        while case .string(let reference)? = current.schema["$ref"], hops < 32,
            let next = resolve(reference, from: current.document)
        {
            current = next
            hops += 1
        }
        return current
    }

    /// `file#pointer`, for findings.
    package func label(_ document: String, _ pointer: String) -> String {
        file(document) + pointer
    }
}
