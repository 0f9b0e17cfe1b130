import Foundation

/// Paths and helpers the hardening tests share: the stub set of `scripts/hardening/stubs`, the
/// JSON Lines journal read back, and one-shot requests on raw sockets.
enum HardeningFixtures {
    /// The repository root, located from this source file.
    static let repositoryRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }()

    /// A copy of `scripts/hardening/stubs` in `directory`, with the 1 MiB `big.txt` the `big` stub serves.
    static func stubDirectory(in directory: String) throws -> String {
        let target = directory + "/stubs"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let source = repositoryRoot + "/scripts/hardening/stubs"
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
        }
        let chunk = Array("0123456789abcdef".utf8)
        try Data((0..<65536).flatMap { _ in chunk }).write(to: URL(fileURLWithPath: target + "/big.txt"))
        return target
    }

    /// The journal file's entries, one JSON object per line.
    static func journal(_ path: String) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// How many journal lines carry `soak=ID` for each ID.
    static func journaledIDs(_ path: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for entry in journal(path) {
            guard let query = entry["query"] as? String else { continue }
            for part in query.split(separator: "&") where part.hasPrefix("soak=") {
                counts[String(part.dropFirst(5)), default: 0] += 1
            }
        }
        return counts
    }

    /// One request on a fresh connection; the status, or nil when the connection failed or closed.
    static func status(port: Int, _ target: String, method: String = "GET") -> Int? {
        guard let connection = try? RawConnection(port: port) else { return nil }
        connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        return connection.readResponse()?.status
    }
}
