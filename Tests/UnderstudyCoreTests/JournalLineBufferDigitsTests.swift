import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The journal's integer writer (two digits at a time from a table) against `String(value)`,
/// zero-padded, at every length and around every power of ten.
final class JournalLineBufferDigitsTests: XCTestCase {
    private func written(_ value: UInt64, minimumWidth: Int) -> String {
        let buffer = JSONWriter(capacity: 64)
        buffer.append("x" as StaticString)  // not at the buffer's start
        buffer.digits(value, minimumWidth: minimumWidth)
        return String(decoding: buffer.bytes.dropFirst(), as: UTF8.self)
    }

    private func expected(_ value: UInt64, minimumWidth: Int) -> String {
        let plain = String(value)
        return String(repeating: "0", count: max(0, minimumWidth - plain.count)) + plain
    }

    func testEveryLengthAndPaddingMatchesStringFormatting() {
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12_345, 250, 7, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1, power / 2 * 3]
        }
        for value in values {
            for width in [1, 2, 3, 5, 21] {
                XCTAssertEqual(
                    written(value, minimumWidth: width), expected(value, minimumWidth: width), "\(value) width \(width)"
                )
            }
        }
    }

    /// `elapsedMs`, `outcomeMs` and `delayMs`: thousandths as a decimal with three places.
    func testThousandthsPutThePointBeforeTheLastThreeDigits() {
        for (value, text) in [
            (0, "0.000"), (5, "0.005"), (42, "0.042"), (999, "0.999"), (1_000, "1.000"), (1_234, "1.234"),
            (1_234_567, "1234.567"), (UInt64.max, "18446744073709551.615"),
        ] as [(UInt64, String)] {
            let buffer = JSONWriter(capacity: 64)
            buffer.append("x" as StaticString)
            buffer.thousandths(value)
            XCTAssertEqual(String(decoding: buffer.bytes.dropFirst(), as: UTF8.self), text, "\(value)")
        }
    }

    /// Statuses and timestamp milliseconds: three digits from the table, anything else as `int`.
    func testThreeDigitsMatchesIntAndPadsOnlyWhenAsked() {
        for value in [-5, 0, 7, 42, 99, 100, 101, 200, 404, 599, 999, 1000, 12_345] {
            for padded in [false, true] {
                let buffer = JSONWriter(capacity: 64)
                buffer.append("x" as StaticString)
                buffer.threeDigits(value, padded: padded)
                let expected =
                    padded && (0...999).contains(value) ? expected(UInt64(value), minimumWidth: 3) : String(value)
                XCTAssertEqual(
                    String(decoding: buffer.bytes.dropFirst(), as: UTF8.self), expected, "\(value) padded \(padded)")
            }
        }
    }

    func testIntWritesNegativeNumbersWithTheirSign() {
        let buffer = JSONWriter(capacity: 64)
        buffer.int(-1_234_567)
        buffer.append("," as StaticString)
        buffer.int(Int.min)
        XCTAssertEqual(String(decoding: buffer.bytes, as: UTF8.self), "-1234567,\(Int.min)")
    }
}
