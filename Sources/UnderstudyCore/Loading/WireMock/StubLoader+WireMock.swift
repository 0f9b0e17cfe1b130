#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decoding of the files ``StubFileKind`` classifies as WireMock's, and where their body files live.
extension StubLoader {
    static func decodeWireMock(_ node: JSONNode, file: String, options: StubLoadOptions = StubLoadOptions())
        -> DocumentResult
    {
        let onDisk = FileManager.default.fileExists(atPath: file)
        var decoder = StubDecoder(file: file, bodyFiles: onDisk ? wireMockBodyFiles(for: file) : nil)
        decoder.wireMockGlobalTemplating = options.wireMockGlobalTemplating
        let stubs = decoder.decodeWireMockDocument(node) { index in "\(file)#\(index)" }
        return DocumentResult(stubs: stubs, errors: decoder.errors, bodyFilesRead: decoder.bodyFilesRead)
    }

    /// WireMock's `bodyFileName` resolves under `__files` of the mapping's root: the directory
    /// holding the `mappings` folder the file is in, or else the file's own directory.
    static func wireMockBodyFiles(for file: String) -> BodyFileResolver? {
        var components = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        if let mappings = components.lastIndex(of: "mappings") {
            components = components[..<mappings]
        }
        let root = components.isEmpty ? "." : components.joined(separator: "/")
        let files = (root.isEmpty ? "" : root) + "/__files"
        return BodyFileResolver(stubFile: files + "/mapping", root: files)
    }
}
