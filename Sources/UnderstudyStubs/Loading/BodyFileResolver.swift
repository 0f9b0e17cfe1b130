#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Reads `bodyFile`s, refusing any path that leaves the stub root, lexically (`../`) or through a
/// symlink, so a stub file cannot serve arbitrary files from the machine.
package struct BodyFileResolver {
    package struct Problem: Error {
        package var message: String
    }

    /// The real (symlink-free) directory holding the stub file.
    let stubDirectory: String
    /// The real directory no body file may leave.
    let root: String

    /// Creates a resolver for a stub file at `stubFile` loaded under `root`; `nil` when either
    /// cannot be resolved on disk.
    package init?(stubFile: String, root: String?) {
        let directory = stubFile.lastIndex(of: "/").map { String(stubFile[..<$0]) } ?? ""
        guard let realDirectory = Self.realPath(directory.isEmpty ? "." : directory),
            let realRoot = Self.realPath(root ?? (directory.isEmpty ? "." : directory))
        else { return nil }
        self.stubDirectory = realDirectory
        self.root = realRoot
    }

    /// A body file's bytes and its real path (which tells the loader this file is a body).
    package struct BodyFile {
        package var bytes: [UInt8]
        package var realPath: String
    }

    package func read(_ relative: String) -> Result<BodyFile, Problem> {
        guard !relative.hasPrefix("/") else {
            return .failure(
                Problem(
                    message: "`bodyFile` must be a path relative to the stub file, found absolute path `\(relative)`"))
        }
        let joined = stubDirectory + "/" + relative
        guard Self.isInside(Self.lexicallyNormalized(joined), root) else {
            return .failure(Problem(message: "`bodyFile` `\(relative)` resolves outside the stub root `\(root)`"))
        }
        guard let real = Self.realPath(joined) else {
            let reason = String(cString: strerror(errno))
            return .failure(Problem(message: "cannot read `bodyFile` `\(relative)`: \(reason)"))
        }
        guard Self.isInside(real, root) else {
            return .failure(
                Problem(message: "`bodyFile` `\(relative)` leads outside the stub root `\(root)` through a symlink"))
        }
        guard StubLoader.isDirectory(real) == false else {
            return .failure(Problem(message: "cannot read `bodyFile` `\(relative)`: it is a directory"))
        }
        guard let data = FileManager.default.contents(atPath: real) else {
            return .failure(Problem(message: "cannot read `bodyFile` `\(relative)`: permission denied or unreadable"))
        }
        return .success(BodyFile(bytes: Array(data), realPath: real))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// Resolves `.` and `..` without touching the disk.
    static func lexicallyNormalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension BodyFileResolver {
    /// Every file below `directory` (WireMock's `__files`, a templated `bodyFile`'s directory) with
    /// its path under it, sorted by name, read as body files are
    /// (hidden files and anything leaving the directory through a symlink are left out).
    package static func files(in directory: String) -> [(relative: String, bytes: [UInt8])] {
        guard StubLoader.isDirectory(directory) == true,
            let resolver = BodyFileResolver(stubFile: directory + "/x", root: directory)
        else { return [] }
        var found: [(relative: String, bytes: [UInt8])] = []
        func walk(_ relative: String) {
            let here = relative.isEmpty ? directory : directory + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: here) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                if StubLoader.isDirectory(here + "/" + name, followingSymlinks: false) == true {
                    walk(path)
                } else if case .success(let file) = resolver.read(path) {
                    found.append((path, file.bytes))
                }
            }
        }
        walk("")
        return found
    }

    /// Every directory below `directory`, relative to it, in the order ``files(in:)`` walks them
    /// (hidden ones and symbolic links left out, as there).
    package static func directories(in directory: String) -> [String] {
        var found: [String] = []
        func walk(_ relative: String) {
            let here = relative.isEmpty ? directory : directory + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: here) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard StubLoader.isDirectory(here + "/" + name, followingSymlinks: false) == true else { continue }
                found.append(path)
                walk(path)
            }
        }
        walk("")
        return found
    }
}
