import XCTest

@testable import UnderstudyCore

/// The journal record's size is part of the request path's cost: it is moved several times per
/// request, and past 128 bytes each move became a `memcpy` call (+260 instructions a request in
/// the callgrind gate when `idempotency` made it 136 bytes). This test says when a new field makes
/// the record outgrow the inline moves; box rarely set fields together then (as `StubResponse.Extras`).
final class JournalRecordLayoutTests: XCTestCase {
    func testRecordFitsInlineMoves() {
        XCTAssertLessThanOrEqual(
            MemoryLayout<JournalRecord>.size, 128,
            "JournalRecord is \(MemoryLayout<JournalRecord>.size) bytes: over 128, every move of it calls memcpy")
        // The ticket holds it as an optional: no larger, thanks to the request's spare bits.
        XCTAssertEqual(MemoryLayout<JournalRecord?>.size, MemoryLayout<JournalRecord>.size)
    }
}
