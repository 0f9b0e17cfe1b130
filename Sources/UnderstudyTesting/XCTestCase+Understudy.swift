#if canImport(XCTest)
import Foundation
import XCTest

extension XCTestCase {
    /// A session for this test on the process-wide daemon (or on `daemon`), in one line of
    /// `setUp`: when the test ends, its unmatched requests fail it (at this call's location) and
    /// the session is deleted — the XCTest form of the `.understudy(stubs:)` trait.
    ///
    /// ```swift
    /// override func setUp() async throws {
    ///     understudy = try await understudySession(stubs: ["stubs/weather.json"])
    /// }
    /// ```
    public func understudySession(
        stubs: [String] = [], name: String? = nil, on daemon: Understudy? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Understudy {
        let session = try await Understudy.session(stubs: stubs, name: name ?? self.name, on: daemon)
        addTeardownBlock {
            await session.assertNoUnmatchedRequests("when the test ended", filePath: file, line: line)
            await session.stop()
        }
        return session
    }
}
#endif
