import Foundation
import XCTest

@testable import UnderstudyWebSocket

/// The handshake's base64 (the module has no Foundation) against Foundation's, on every length that
/// exercises each padding case, and its strictness on what Foundation's decoder would also refuse.
final class Base64Tests: XCTestCase {
    func testAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Data(bytes).base64EncodedString()
            XCTAssertEqual(Base64.encode(bytes), encoded, "\(bytes)")
            XCTAssertEqual(Base64.decode(encoded), bytes, encoded)
        }
    }

    func testRefusesWhatIsNotCanonicalBase64() {
        for text in ["A", "AA", "AAA", "AA=A", "A===", "====", "AB==AB==", "AB\n==", "Zg==x", "Zh==", "Zm9=", "Zm$v"] {
            XCTAssertNil(Base64.decode(text), text)
        }
        XCTAssertEqual(Base64.decode(""), [])
        XCTAssertEqual(Base64.decode("Zg=="), Array("f".utf8))
        XCTAssertEqual(Base64.decode("Zm8="), Array("fo".utf8))
    }
}
