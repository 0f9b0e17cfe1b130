import Foundation

/// Expands stub paths the way the daemon's loader does, for stubs sent over the admin API.
enum StubPaths {
    /// Files as given, and for each directory every `*.json` below it, in byte order of their
    /// paths — skipping hidden files and directories, and directories named `__files`, which the
    /// loader keeps for response bodies.
    static func files(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw StubPathError(path: path, currentDirectory: FileManager.default.currentDirectoryPath)
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            files += jsonFiles(below: path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return files
    }

    private static func jsonFiles(below directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var found: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if name != "__files" { found += jsonFiles(below: path) }
            } else if name.hasSuffix(".json") {
                found.append(path)
            }
        }
        return found
    }
}
