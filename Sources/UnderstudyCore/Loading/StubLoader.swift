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
    /// Loads files and directories (every `*.json` below a directory, recursively, in path order).
    ///
    /// Throws every error from every file; a stub set is returned only when all files are valid
    /// and stub ids are unique across them.
    public static func load(paths: [String]) throws(StubLoadFailure) -> StubSet {
        var errors: [StubFileError] = []
        var decoded: [StubDecoder.Decoded] = []
        for path in paths {
            guard let isDirectory = Self.isDirectory(path) else {
                errors.append(fileError(path, "no such file or directory"))
                continue
            }
            if isDirectory {
                for file in jsonFiles(under: path) {
                    decodeFile(file, root: path, into: &decoded, errors: &errors)
                }
            } else {
                guard path.hasSuffix(".json") else {
                    errors.append(fileError(path, "not a stub file: expected a `.json` file"))
                    continue
                }
                decodeFile(path, root: nil, into: &decoded, errors: &errors)
            }
        }
        errors.append(contentsOf: duplicateIDErrors(decoded))
        guard errors.isEmpty else { throw StubLoadFailure(errors: errors) }
        return StubSet(stubs: decoded.map(\.stub))
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
    static func parse(bytes: [UInt8], file: String, root: String?, otherKeys: [String]) throws(StubLoadFailure) -> StubSet {
        var decoded: [StubDecoder.Decoded] = []
        var errors: [StubFileError] = []
        decode(bytes: bytes, file: file, root: root, otherKeys: otherKeys, into: &decoded, errors: &errors)
        errors.append(contentsOf: duplicateIDErrors(decoded))
        guard errors.isEmpty else { throw StubLoadFailure(errors: errors) }
        return StubSet(stubs: decoded.map(\.stub))
    }

    private static func decodeFile(_ file: String, root: String?, into decoded: inout [StubDecoder.Decoded], errors: inout [StubFileError]) {
        guard let data = FileManager.default.contents(atPath: file) else {
            errors.append(fileError(file, "cannot read the file"))
            return
        }
        decode(bytes: Array(data), file: file, root: root, into: &decoded, errors: &errors)
    }

    private static func decode(bytes: [UInt8], file: String, root: String?, otherKeys: [String] = [], into decoded: inout [StubDecoder.Decoded], errors: inout [StubFileError]) {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes)
        } catch {
            errors.append(StubFileError(file: file, line: error.position.line, column: error.position.column,
                                        jsonPath: error.jsonPath, message: "not valid JSON: \(error.message)"))
            return
        }
        let onDisk = FileManager.default.fileExists(atPath: file)
        var decoder = StubDecoder(file: file, bodyFiles: onDisk ? BodyFileResolver(stubFile: file, root: root) : nil)
        decoder.otherDocumentKeys = otherKeys
        let stubs = decoder.decodeDocument(node) { index in "\(file)#\(index)" }
        let fileErrors = decoder.errors.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        errors.append(contentsOf: fileErrors)
        if fileErrors.isEmpty { decoded.append(contentsOf: stubs) }
    }

    private static func duplicateIDErrors(_ decoded: [StubDecoder.Decoded]) -> [StubFileError] {
        var first: [String: StubDecoder.Decoded] = [:]
        var errors: [StubFileError] = []
        for entry in decoded {
            if let earlier = first[entry.stub.id] {
                errors.append(StubFileError(
                    file: entry.stub.file, line: entry.idPosition.line, column: entry.idPosition.column,
                    jsonPath: (entry.stub.idGenerated ? entry.path : entry.path.member("id")).text,
                    message: "duplicate stub id `\(entry.stub.id)`; first used at \(earlier.stub.file):\(earlier.idPosition.line):\(earlier.idPosition.column)"))
            } else {
                first[entry.stub.id] = entry
            }
        }
        return errors
    }

    /// Whether `path` is a directory (following symlinks); nil when it does not exist.
    static func isDirectory(_ path: String, followingSymlinks: Bool = true) -> Bool? {
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
