import Foundation
import XCTest

@testable import UnderstudyWebSocket

/// The handshake's base64: the accept value as Foundation encodes it, and a client's key taken only
/// as 16 bytes of canonical base64.
final class Base64Tests: XCTestCase {
    func testEncodesAsFoundationDoes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertEqual(Base64.encode(bytes), Data(bytes).base64EncodedString(), "\(bytes)")
        }
    }

    func testAKeyIsSixteenBytesOfCanonicalBase64() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let nonce = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertTrue(Base64.isSixteenByteKey(Data(nonce).base64EncodedString()), "\(nonce)")
        }
        let refused = [
            "", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZQ===", "dGhlIHNhbXBsZSBub25jZR==",  // unused bits set
            "dGhlIHNhbXBsZSBub25j=Q==", "dGhlIHNhbXBsZSBub25jZQ$=", "dGhlIHNhbXBs ZSBub25jZQ==",
            "AAAAAAAAAAAAAAAAAAAAAA=A", "========================", "dGhlIHNhbXBsZSBub25jZXM=",  // 17 bytes' worth
        ]
        for key in refused { XCTAssertFalse(Base64.isSixteenByteKey(key), key) }
        XCTAssertTrue(Base64.isSixteenByteKey("dGhlIHNhbXBsZSBub25jZQ=="))  // RFC 6455 §1.3's
    }
}
