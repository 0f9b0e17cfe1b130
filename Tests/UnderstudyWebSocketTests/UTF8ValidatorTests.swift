import XCTest
import UnderstudyWebSocket

/// The incremental validator against Swift's own UTF-8 decoding: the same verdict on every one-,
/// two- and three-byte sequence's lead bytes, and the boundary cases RFC 3629 names.
final class UTF8ValidatorTests: XCTestCase {
    /// Swift's decoder repairs invalid input with U+FFFD; input is valid exactly when no repair was
    /// needed (`String(validating:)`).
    private func swiftSaysValid(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    func testAgreesWithSwiftOnEveryTwoByteSequence() {
        for first in 0...255 {
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                XCTAssertEqual(UTF8Validator.isValid(bytes), swiftSaysValid(bytes), "\(bytes)")
            }
        }
    }

    func testAgreesWithSwiftOnThreeAndFourByteBoundaries() {
        for lead in [0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5] as [UInt8] {
            for second in stride(from: 0x70, through: 0xC0, by: 1) {
                for third: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
                    let three = [lead, UInt8(second), third]
                    XCTAssertEqual(UTF8Validator.isValid(three), swiftSaysValid(three), "\(three)")
                    let four = three + [0x80]
                    XCTAssertEqual(UTF8Validator.isValid(four), swiftSaysValid(four), "\(four)")
                }
            }
        }
    }

    func testNamedCases() {
        XCTAssertTrue(UTF8Validator.isValid(Array("Hello-µ@ßöäüàá-UTF-8!! κόσμε 😀".utf8)))
        XCTAssertTrue(UTF8Validator.isValid([]))
        XCTAssertTrue(UTF8Validator.isValid([0xF4, 0x8F, 0xBF, 0xBF]), "U+10FFFF")
        XCTAssertTrue(UTF8Validator.isValid([0xEF, 0xBF, 0xBF]), "U+FFFF")
        XCTAssertFalse(UTF8Validator.isValid([0xED, 0xA0, 0x80]), "a surrogate")
        XCTAssertFalse(UTF8Validator.isValid([0xE0, 0x80, 0xAF]), "overlong")
        XCTAssertFalse(UTF8Validator.isValid([0xF8, 0x88, 0x80, 0x80, 0x80]), "five bytes")
        XCTAssertFalse(UTF8Validator.isValid([0xE2, 0x82]), "truncated")
    }

    func testIncrementalBoundary() {
        var validator = UTF8Validator()
        XCTAssertTrue(validator.consume([0xF0, 0x9F]))
        XCTAssertFalse(validator.isAtCodePointBoundary)
        XCTAssertTrue(validator.consume([0x98]))
        XCTAssertTrue(validator.consume(0x80))
        XCTAssertTrue(validator.isAtCodePointBoundary)
        XCTAssertFalse(validator.consume(0x80), "a continuation byte with nothing to continue")
    }
}
