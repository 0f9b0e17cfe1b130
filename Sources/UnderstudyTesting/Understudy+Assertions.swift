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
    public func assertNoUnmatchedRequests(_ message: @autoclosure () -> String = "",
                                          fileID: String = #fileID, filePath: StaticString = #filePath,
                                          line: UInt = #line, column: UInt = #column) async {
        let context = message()
        do {
            let unmatched = try await admin.unmatchedRequests()
            guard !unmatched.isEmpty else { return }
            let list = unmatched.map { "  #\($0.seq) \($0.method) \($0.path)\($0.query.map { "?\($0)" } ?? "") → \($0.status.map(String.init) ?? "-")" }
            recordFailure("\(unmatched.count) request(s) matched no stub\(context.isEmpty ? "" : " (\(context))"):\n"
                          + list.joined(separator: "\n"), fileID: fileID, filePath: filePath, line: line, column: column)
        } catch {
            recordFailure("could not read unmatched requests: \(error)", fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// Reports a failure to whichever test framework is running the current test.
    static func recordFailure(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message),
                         sourceLocation: SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: filePath, line: line)
        #else
        fatalError(message)
        #endif
    }

    private func recordFailure(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        Self.recordFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
