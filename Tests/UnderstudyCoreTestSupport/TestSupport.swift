import Foundation
import XCTest
@testable import UnderstudyCore
// The stub-level helpers (`loadErrors`, `makeTemporaryDirectory`, `write`), for every engine-level test too.
@_exported import UnderstudyStubsTestSupport

// The helpers the engine-level test targets share (UnderstudyCoreTests, UnderstudyXMLTests,
// UnderstudyWireMockTests, UnderstudyRecordingTests): one copy, in a target of its own, instead of
// one per test target. `package`: every test target of this package may call them.

/// Builds an engine from stub JSON, with a manual clock so no test sleeps.
package func makeEngine(
    _ json: String, clock: ManualEngineClock = ManualEngineClock(), unmatchedStatus: Int = 404,
    journalLimit: Int = 100_000, sink: (any JournalSink)? = nil,
    journalBodyLimit: Int = EngineConfiguration.defaultJournalBodyLimit, file: StaticString = #filePath,
    line: UInt = #line
) throws -> StubEngine {
    let set: StubSet
    do {
        set = try StubLoader.parse(bytes: Array(json.utf8), file: "test.json", root: nil)
    } catch {
        XCTFail("stubs did not load: \(error)", file: file, line: line)
        throw error
    }
    return StubEngine(
        stubs: set,
        configuration: EngineConfiguration(
            unmatchedStatus: unmatchedStatus, journalLimit: journalLimit, journalSink: sink, clock: clock,
            journalBodyLimit: journalBodyLimit))
}

extension StubEngine {
    package func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        handle(HTTPRequest(method: "GET", target: target, headers: headers))
    }

    package func send(_ method: String, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = "")
        -> HTTPResponse
    {
        handle(HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    package func adminCall(_ method: String, _ target: String, body: String = "") -> HTTPResponse {
        admin(HTTPRequest(method: method, target: target, body: Array(body.utf8))) {
            .failure(StubLoadFailure(errors: []))
        }
    }

    /// The journal entries decoded from their JSON lines.
    package var journalObjects: [[String: Any]] {
        journalEntries.map { jsonObject(Array($0.json)) }
    }
}

extension HTTPResponse {
    package var text: String { String(decoding: body, as: UTF8.self) }

    package var jsonObject: [String: Any] { UnderstudyCoreTestSupport.jsonObject(body) }
}

package func jsonObject(_ bytes: [UInt8]) -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        XCTFail("not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
        return [:]
    }
    return object
}

/// A journal sink that keeps the lines it is given.
package final class CollectingSink: JournalSink {
    package var lines: [[UInt8]] = []
    package init() {}
    package func write(line: [UInt8]) { lines.append(line) }
}

/// The repository root, found from this file's path.
package let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()
