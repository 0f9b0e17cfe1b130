@testable import UnderstudyServer
import XCTest

/// The word-at-a-time searches agree with a byte-by-byte look at every start, end and position.
final class ByteScanTests: XCTestCase {
    func testFirstIndexFindsTheFirstMatchOfEveryRunForOneByteOrEitherOfTwo() {
        // Matches next to each other and near bytes that differ from the wanted one by one bit
        // (`:` is 0x3A; 0x3B and 0xBA must not match), at every offset inside a word.
        let bytes: [UInt8] =
            Array("ab:c;\u{BA}:d".utf8) + Array(repeating: UInt8(ascii: "x"), count: 13) + [
                0x3A, 0x3A, 0xBA, 0x0A, 0x3B, 0x3A,
            ]
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for wanted in [UInt8(ascii: ":"), 0x0A, 0xBA, 0x00] {
                for from in 0...bytes.count {
                    for end in from...bytes.count {
                        let expected = bytes[from..<end].firstIndex(of: wanted)
                        XCTAssertEqual(
                            ByteScan.firstIndex(of: wanted, in: base, from: from, to: end), expected,
                            "\(wanted) in \(from)..<\(end)")
                        let either = bytes[from..<end].firstIndex { $0 == wanted || $0 == UInt8(ascii: "x") }
                        XCTAssertEqual(
                            ByteScan.firstIndex(of: wanted, or: UInt8(ascii: "x"), in: base, from: from, to: end),
                            either,
                            "\(wanted) or x in \(from)..<\(end)")
                    }
                }
            }
        }
    }

    func testIsASCIISeesAHighBitAnywhere() {
        for count in 0...20 {
            for high in -1..<count {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: count)
                if high >= 0 { bytes[high] = 0x80 }
                let result = bytes.withUnsafeBufferPointer {
                    ByteScan.isASCII($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count)
                }
                XCTAssertEqual(result, high < 0, "count \(count), high byte at \(high)")
            }
        }
    }
}
