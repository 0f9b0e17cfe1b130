/// How the loader tells WireMock files from native ones, and where their body files live.
extension StubLoader {
    /// Decodes a parsed document in whichever format it is written: native (`{"stubs": [...]}`)
    /// or WireMock (a single mapping or `{"mappings": [...]}`).
    static func decodeDocument(_ node: JSONNode, file: String, root: String?, onDisk: Bool, otherKeys: [String] = []) -> (stubs: [StubDecoder.Decoded], errors: [StubFileError]) {
        if StubDecoder.isWireMockDocument(node) {
            var decoder = StubDecoder(file: file, bodyFiles: onDisk ? wireMockBodyFiles(for: file) : nil)
            let stubs = decoder.decodeWireMockDocument(node) { index in "\(file)#\(index)" }
            return (stubs, decoder.errors)
        }
        var decoder = StubDecoder(file: file, bodyFiles: onDisk ? BodyFileResolver(stubFile: file, root: root) : nil)
        decoder.otherDocumentKeys = otherKeys
        let stubs = decoder.decodeDocument(node) { index in "\(file)#\(index)" }
        return (stubs, decoder.errors)
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

    /// Whether `file` is a body file of a WireMock root (under a `__files` folder that has a
    /// `mappings` folder beside it), which is never read as a stub file.
    static func isWireMockBodyFile(_ file: String) -> Bool {
        var components = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        while let last = components.popLast() {
            if last == "__files" {
                let parent = components.joined(separator: "/")
                if isDirectory((parent.isEmpty ? "." : parent) + "/mappings") == true { return true }
            }
        }
        return false
    }
}
