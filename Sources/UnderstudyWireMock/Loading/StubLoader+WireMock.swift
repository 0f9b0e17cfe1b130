#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyJSON

/// Decoding of the files ``StubFileKind`` classifies as WireMock's, where their body files live,
/// and a WireMock root read as WireMock reads it: `mappings/` for mappings, `__files/` as a
/// static web root.
extension StubLoader {
    static func decodeWireMock(
        _ node: JSONNode, file: String, root: String?, options: StubLoadOptions = StubLoadOptions(),
        skippingMappings: Bool = false
    ) -> DocumentResult {
        let onDisk = FileManager.default.fileExists(atPath: file)
        var decoder = StubDecoder(file: file, bodyFiles: onDisk ? wireMockBodyFiles(for: file) : nil)
        decoder.wireMockGlobalTemplating = options.wireMockGlobalTemplating
        decoder.lastDuplicateKeyWins = true
        decoder.skippingMappings = skippingMappings
        decoder.wireMockFileOnDisk = onDisk
        let name = relativeName(file, root: root)
        let stubs = decoder.decodeWireMockDocument(node) { index in stableMappingID(name, index) }
        return DocumentResult(
            stubs: stubs, errors: decoder.errors, bodyFilesRead: decoder.bodyFilesRead, warnings: decoder.warnings,
            skipped: decoder.skipped)
    }

    /// WireMock's `bodyFileName` resolves under `__files` of the mapping's root: the directory
    /// holding the `mappings` folder the file is in, or else the file's own directory.
    static func wireMockBodyFiles(for file: String) -> BodyFileResolver? {
        BodyFileResolver(
            stubFile: wireMockFilesDirectory(for: file) + "/mapping", root: wireMockFilesDirectory(for: file))
    }

    /// The `__files` directory a mapping file's `bodyFileName`s are read from (which may not exist).
    static func wireMockFilesDirectory(for file: String) -> String {
        var components = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        if let mappings = components.lastIndex(of: "mappings") {
            components = components[..<mappings]
        }
        let root = components.isEmpty ? "." : components.joined(separator: "/")
        return (root.isEmpty ? "" : root) + "/" + StubFileKind.bodyDirectoryName
    }

    /// The mapping files WireMock reads in a loaded directory that is a WireMock root: one
    /// with a `mappings/` directory (only the `.json` files below it are mappings; WireMock never
    /// reads the files beside it), or with a `__files/` directory and no `.json` outside it (a root
    /// that serves only static files). `nil` for a directory of native stubs.
    static func wireMockRoot(_ directory: String, jsonFiles all: [String]) -> [String]? {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        if isDirectory(base + "mappings") == true {
            let mappings = Set(all.filter { $0.hasPrefix(base + "mappings/") })
            return filesInListingOrder(base + "mappings").filter { mappings.contains($0) }
        }
        let files = base + StubFileKind.bodyDirectoryName + "/"
        if isDirectory(base + StubFileKind.bodyDirectoryName) == true, all.allSatisfy({ $0.hasPrefix(files) }) {
            return []
        }
        return nil
    }

    /// The files below `directory` in the order WireMock reads them: depth first, each directory's
    /// entries in the order the file system lists them (Java's `File.listFiles`, unsorted), not by
    /// name. Of two equal-priority mappings WireMock answers with the one it loaded last, so reading
    /// them in its order makes Understudy pick the same one on the same machine.
    static func filesInListingOrder(_ directory: String) -> [String] {
        var files: [String] = []
        func walk(_ dir: String) {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in entries where !name.hasPrefix(".") {
                let full = dir + "/" + name
                if isDirectory(full, followingSymlinks: false) == true { walk(full) } else { files.append(full) }
            }
        }
        walk(directory)
        return files
    }

    /// The priority of the stubs that serve `__files/`: behind every mapping, as WireMock serves a
    /// file only when no mapping matches.
    static let staticFilePriority = Int(Int32.max)

    /// WireMock serves `GET /PATH` from `__files/PATH` when no mapping matches (the query is
    /// ignored); a directory answers with its `index.json` or `index.html`. One stub per file
    /// (two more per directory index), read now, as `bodyFileName`s are: hidden files and anything
    /// leaving the root through a symlink are left out.
    static func wireMockStaticFiles(root: String) -> [Stub] {
        let base = (root.hasSuffix("/") ? root : root + "/") + StubFileKind.bodyDirectoryName
        var stubs: [Stub] = []
        func add(_ urlPath: String, _ relative: String, _ bytes: [UInt8], directory: Bool = false) {
            var response = StubResponse()
            if directory {
                // Jetty's `DefaultServlet` does not list a directory: 403, its HTML error page.
                (response.status, response.headers, response.body) = ResponseTemplate.FileChoice.directoryAnswer(
                    accept: nil, uri: urlPath)
            } else {
                response.headers.append(name: "Content-Type", value: wireMockContentType(relative))
                response.body = bytes
            }
            let request = RequestPattern(method: "GET", path: .exact(urlPath))
            let requestJSON: JSONValue = .object([
                JSONMember("method", .string("GET")), JSONMember("urlPath", .string(urlPath)),
            ])
            var stub = Stub(
                id: "\(StubFileKind.bodyDirectoryName)\(urlPath)", file: base + "/" + relative,
                description: "served from \(StubFileKind.bodyDirectoryName)/ (WireMock's static web root)",
                request: request, requestJSON: requestJSON, responses: [response])
            stub.priority = staticFilePriority
            stubs.append(stub)
        }
        let files = BodyFileResolver.files(in: base)
        let paths = Set(files.map(\.relative))
        for (relative, bytes) in files {
            add("/" + relative, relative, bytes)
            // A directory (not the root) answers with its `index.json`, or else its `index.html`.
            guard let slash = relative.lastIndex(of: "/") else { continue }
            let directory = String(relative[..<slash]), name = relative[relative.index(after: slash)...]
            if name == "index.json" || (name == "index.html" && !paths.contains(directory + "/index.json")) {
                add("/" + directory, relative, bytes)
                add("/" + directory + "/", relative, bytes)
            }
        }
        // Any other directory below the root (empty ones too) is refused, as Jetty refuses it.
        for directory in BodyFileResolver.directories(in: base) where !indexed(directory, paths) {
            add("/" + directory, directory, [], directory: true)
            add("/" + directory + "/", directory, [], directory: true)
        }
        return stubs
    }

    /// Whether `directory` (relative to `__files/`) has an index file WireMock answers it with.
    private static func indexed(_ directory: String, _ paths: Set<String>) -> Bool {
        paths.contains(directory + "/index.json") || paths.contains(directory + "/index.html")
    }

    /// The `Content-Type` WireMock gives a file it serves from `__files/`, by extension; a name
    /// without a known extension is served as JSON, as WireMock does.
    static func wireMockContentType(_ name: String) -> String {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return "application/json" }
        let types = [
            "json": "application/json", "html": "text/html", "htm": "text/html", "css": "text/css",
            "js": "application/javascript", "xml": "application/xml", "txt": "text/plain", "csv": "text/csv",
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
            "svg": "image/svg+xml", "ico": "image/x-icon", "pdf": "application/pdf", "zip": "application/zip",
        ]
        return types[file[file.index(after: dot)...].lowercased()] ?? "application/json"
    }

    /// `file` as named relative to the loaded directory it was found under (`mappings/a.json`), so
    /// the id derived from it does not depend on where the root sits.
    static func relativeName(_ file: String, root: String?) -> String {
        guard let root else { return file }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
    }

    /// A UUID-shaped id for a mapping file gives none, derived from its file and index (the same
    /// on every start), so WireMock's clients can address it: 128 bits of two FNV-1a hashes of
    /// `file#index`, marked as a version-8 (name-based, custom hash) RFC 9562 UUID.
    static func stableMappingID(_ file: String, _ index: Int) -> String {
        let name = Array("\(file)#\(index)".utf8)
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
            for byte in name {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            // A final mix, so names that differ in their last byte differ in every digit.
            hash ^= hash >> 33
            hash = hash &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 33
            return hash
        }
        let high = (fnv(0) & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000
        let low = (fnv(0x9e37_79b9_7f4a_7c15) & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return "\(hex(high >> 32, 8))-\(hex((high >> 16) & 0xffff, 4))-\(hex(high & 0xffff, 4))-"
            + "\(hex(low >> 48, 4))-\(hex(low & 0xffff_ffff_ffff, 12))"
    }
}

extension StubLoader {
    /// WireMock loads two mapping files that give the same id and serves both (recorded roots often
    /// hold one id in two files). Understudy addresses stubs by id, so the later mapping takes the id
    /// derived from its file and index instead, with a warning; in `--strict` it is an error.
    static func renameDuplicateWireMockIDs(_ decoded: inout [DecodedStub]) -> [StubFileError] {
        var first: [String: Int] = [:]
        var warnings: [StubFileError] = []
        for position in decoded.indices {
            let entry = decoded[position]
            guard let earlierPosition = first[entry.id] else {
                first[entry.id] = position
                continue
            }
            guard let derived = entry.wireMockDerivedID, first[derived] == nil, var stub = entry.stub,
                let mapping = WireMockMapping.of(stub), case .object(var members) = mapping.json
            else { continue }
            let earlier = decoded[earlierPosition]
            if let index = members.firstIndex(where: { $0.key == "id" }) {
                members[index] = JSONMember("id", .string(derived))
            }
            members.removeAll { $0.key == "uuid" }
            stub.id = derived
            stub.annotation = WireMockMapping(json: .object(members), metadata: mapping.metadata)
            decoded[position].stub = stub
            decoded[position].id = derived
            first[derived] = position
            var warning = StubFileError(
                file: entry.file, line: entry.idPosition.line, column: entry.idPosition.column,
                jsonPath: entry.idPath,
                message:
                    "id `\(entry.id)` is already used at \(earlier.file):\(earlier.idPosition.line):"
                    + "\(earlier.idPosition.column); this mapping is served under the id `\(derived)` derived from "
                    + "its file (WireMock serves both under one id)")
            warning.severity = .warning
            warnings.append(warning)
        }
        return warnings
    }
}
