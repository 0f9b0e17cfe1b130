import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTesting

/// The stub files in `Fixtures/`, by absolute path (tests may run from any directory).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A stub file written for one test, in its own temporary directory.
    static func write(_ json: String, name: String = "stubs.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "understudy-testing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(json.utf8).write(to: file)
        return file.path
    }
}

/// Plain URLSession requests (these suites do not use RESTNetworking), through one session for
/// the whole process: connections are pooled per port, so tests on different sessions never
/// share one.
enum HTTP {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()

    /// Sends `method path` to `understudy` and returns the status and the body as text.
    @discardableResult
    static func send(
        _ method: String, _ path: String, to understudy: Understudy, body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: understudy.baseURL.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

/// Expects `body` to record an issue (a kit check failing, as it should) whose text contains every
/// one of `fragments`; the issue is known, so the test passes.
func expectKitFailure(
    containing fragments: [String], _ body: () async -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async {
    await withKnownIssue(sourceLocation: sourceLocation) {
        await body()
    } matching: { issue in
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        let missing = fragments.filter { !text.contains($0) }
        if !missing.isEmpty { print("failure text lacks \(missing):\n\(text)") }
        return missing.isEmpty
    }
}
