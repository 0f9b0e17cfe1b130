import Foundation
import XCTest
import UnderstudyStubs

// The helpers the stub-level tests (UnderstudyStubsTests) share with the engine-level ones, which
// see them through UnderstudyCoreTestSupport. `package`: every test target of this package may call them.

/// Parses stub JSON expecting failure and returns the errors.
package func loadErrors(_ json: String, file: String = "bad.json") -> [StubFileError] {
    do {
        _ = try StubLoader.parse(bytes: Array(json.utf8), file: file, root: nil)
        XCTFail("expected the stubs to be refused")
        return []
    } catch {
        return error.errors
    }
}

/// A fresh directory under the system temp dir, removed at the end of the test.
package func makeTemporaryDirectory(_ testCase: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "understudy-core-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

package func write(_ text: String, to path: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}
