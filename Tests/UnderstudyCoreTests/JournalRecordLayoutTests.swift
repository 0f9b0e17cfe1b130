import XCTest

@testable import UnderstudyCore

/// The journal record's size is part of the request path's cost: it is moved several times per
/// request, and past 128 bytes each move became a `memcpy` call (+260 instructions a request in
/// the callgrind gate when `idempotency` made it 136 bytes). A field added to it goes among the
/// words, before `responseIndex`, and this test says when the record outgrows the inline moves.
final class JournalRecordLayoutTests: XCTestCase {
    func testRecordFitsInlineMoves() {
        XCTAssertLessThanOrEqual(
            MemoryLayout<JournalRecord>.size, 128,
            "JournalRecord is \(MemoryLayout<JournalRecord>.size) bytes: over 128, every move of it calls memcpy")
        // The ticket holds it as an optional: no larger, thanks to the request's spare bits.
        XCTAssertEqual(MemoryLayout<JournalRecord?>.size, MemoryLayout<JournalRecord>.size)
    }
}
