import Foundation
#if canImport(XCTest)
import XCTest
#endif
#if canImport(Testing)
import Testing
#endif

extension Understudy {
    /// Fails the current test (XCTest or Swift Testing), listing them, if any request reached the
    /// daemon without matching a stub — the sign of a client sending something the test did not
    /// expect. Also fails if the journal cannot be read.
    ///
    /// Each unmatched request is reported once per handle: a second call, or the end-of-test
    /// check of the `.understudy` trait, reports only requests not reported before. So a test
    /// that makes one on purpose can acknowledge it with this assertion inside `withKnownIssue`.
    public func assertNoUnmatchedRequests(
        _ message: @autoclosure () -> String = "",
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        if let failure = await unreportedUnmatchedRequests(context: message()) {
            Self.recordFailure(failure, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// The failure message for unmatched requests not reported before (now marked reported), or
    /// for a journal that cannot be read; `nil` when there is nothing to report.
    func unreportedUnmatchedRequests(context: String) async -> String? {
        do {
            let unmatched = reportedUnmatched.claimNew(try await admin.unmatchedRequests())
            guard !unmatched.isEmpty else { return nil }
            return "\(unmatched.count) request(s) matched no stub\(context.isEmpty ? "" : " (\(context))"):\n"
                + JournalTable.render(unmatched)
        } catch {
            return "could not read unmatched requests: \(error)"
        }
    }

    /// Reports a failure to whichever test framework is running the current test.
    static func recordFailure(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: filePath, line: line)
        #else
        fatalError(message)
        #endif
    }
}
