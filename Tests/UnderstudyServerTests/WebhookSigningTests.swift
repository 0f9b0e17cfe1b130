import UnderstudyCore
@testable import UnderstudyServer
import UnderstudyStubFormat
import XCTest

/// The transport's HMAC (OpenSSL's) against RFC 4231's test vectors, and the signatures the core
/// builds with it against the providers' own published examples, byte for byte.
final class WebhookSigningTests: XCTestCase {
    private let sender = WebhookSender(reference: ServerReference())

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    func testHMACSHA256MatchesRFC4231() {
        // RFC 4231 §4.3 (test case 2) and §4.2 (test case 1).
        XCTAssertEqual(
            hex(sender.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        XCTAssertEqual(
            hex(sender.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(sender.hmacSHA256(key: [], message: []).count, 32, "an empty key and message still sign")
    }

    func testStandardWebhooksMatchesTheSpecsExample() throws {
        // The Standard Webhooks reference libraries' example (standard-webhooks/standard-webhooks, README).
        var signature = WebhookSignature(format: .standardWebhooks, key: [])
        signature.key = Array(try XCTUnwrap(Data(base64Encoded: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")))
        let request = UpstreamRequest(
            method: "POST", url: "http://127.0.0.1:9/hook", headers: HTTPHeaders(),
            body: Array(#"{"test": 2432232314}"#.utf8), timeoutMs: 1000, upstream: "http://127.0.0.1:9/hook")
        let signed = signature.sign(
            request, eventID: "p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
            hmac: { self.sender.hmacSHA256(key: $0, message: $1) })
        XCTAssertEqual(signed.headers["webhook-id"], "msg_p5jXN8AQM9LWM0D4loKWxJek")
        XCTAssertEqual(signed.headers["webhook-timestamp"], "1614265330")
        XCTAssertEqual(signed.headers["webhook-signature"], "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        XCTAssertEqual(signed.body, request.body)
    }

    func testMistakesChangeWhatTheyNameAndNothingElse() {
        let request = UpstreamRequest(
            method: "POST", url: "http://127.0.0.1:9/hook", headers: HTTPHeaders(), body: Array("{}".utf8),
            timeoutMs: 1000, upstream: "http://127.0.0.1:9/hook")
        func sign(_ mistake: StubFormat.SigningMistake?) -> UpstreamRequest {
            var signature = WebhookSignature(format: .stripe, key: Array("whsec_x".utf8))
            signature.mistake = mistake
            return signature.sign(
                request, eventID: "e", timestamp: 1_000_000, hmac: { self.sender.hmacSHA256(key: $0, message: $1) })
        }
        let right = sign(nil)
        let expected = hex(sender.hmacSHA256(key: Array("whsec_x".utf8), message: Array("1000000.{}".utf8)))
        XCTAssertEqual(right.headers["Stripe-Signature"], "t=1000000,v1=" + expected)
        XCTAssertNotEqual(sign(.wrongSecret).headers["Stripe-Signature"], right.headers["Stripe-Signature"])
        XCTAssertEqual(sign(.wrongSecret).body, request.body)
        XCTAssertTrue(sign(.staleTimestamp).headers["Stripe-Signature"]?.hasPrefix("t=996400,v1=") == true)
        XCTAssertEqual(sign(.tamperedBody).headers["Stripe-Signature"], right.headers["Stripe-Signature"])
        XCTAssertEqual(sign(.tamperedBody).body, Array("{} ".utf8))
    }
}
