#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyCore
import UnderstudyJSON

/// One body file of a recording: its path relative to the stub file (`__files/…`) and its bytes.
public struct RecordedFile: Sendable, Equatable {
    /// Where it goes, relative to the output directory (`__files/get-report-1a2b3c4d.json`).
    public var path: String
    /// The body, exactly as the stub serves it.
    public var bytes: [UInt8]
}

/// What ``StubRecorder`` made: the native stub file, the body files beside it, and what it left
/// as recorded and why.
public struct RecordedStubs: Sendable {
    /// The stub file: `{"stubs": [...]}`.
    public var document: JSONValue
    /// Bodies too large to inline, under `__files/`.
    public var bodyFiles: [RecordedFile]
    /// Responses kept untemplated (they held `{{`), and the like: said, not fatal.
    public var warnings: [String]
    /// How many exchanges went in.
    public var exchangeCount: Int

    /// The stubs, in order.
    public var stubs: [JSONValue] { document["stubs"]?.arrayValue ?? [] }

    /// The stub file's bytes: one stub per line, so a recording reads (and diffs) stub by stub.
    public var fileBytes: [UInt8] {
        var out = Array(#"{"stubs": ["#.utf8)
        for (index, stub) in stubs.enumerated() {
            out.append(contentsOf: Array((index == 0 ? "\n  " : ",\n  ").utf8))
            out.append(contentsOf: stub.jsonBytes)
        }
        out.append(contentsOf: Array((stubs.isEmpty ? "]}\n" : "\n]}\n").utf8))
        return out
    }

    /// Writes the stub file (`fileName`) and the body files into `directory`, creating it (and
    /// `__files/`) as needed; an existing file of the same name is replaced. Returns the paths
    /// written, relative to `directory`, stub file first.
    @discardableResult
    public func write(to directory: String, fileName: String = "recorded.json") throws(RecordingError) -> [String] {
        guard !directory.isEmpty else { throw RecordingError("give the directory to write the stubs to") }
        let manager = FileManager.default
        var written: [String] = []
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if !bodyFiles.isEmpty {
                try manager.createDirectory(atPath: directory + "/__files", withIntermediateDirectories: true)
            }
            for file in bodyFiles {
                try Data(file.bytes).write(to: URL(fileURLWithPath: directory + "/" + file.path), options: .atomic)
            }
            try Data(fileBytes).write(to: URL(fileURLWithPath: directory + "/" + fileName), options: .atomic)
        } catch {
            throw RecordingError("cannot write the stubs to \(directory): \(error)")
        }
        written.append(fileName)
        written.append(contentsOf: bodyFiles.map(\.path))
        return written
    }
}
