import XCTest
import UnderstudyWebSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The opening handshake's pure parts (RFC 6455 §4.2): the upgrade request's checks, the
/// subprotocol choice and `Sec-WebSocket-Accept`.
final class HandshakeTests: XCTestCase {
    private let valid: [(name: String, value: String)] = [
        ("Host", "server.example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]

    private func replacing(_ name: String, with value: String?) -> [(name: String, value: String)] {
        var headers = valid.filter { $0.name != name }
        if let value { headers.append((name, value)) }
        return headers
    }

    private func refusal(_ headers: [(name: String, value: String)], method: String = "GET") -> WebSocketHandshakeError?
    {
        do {
            _ = try WebSocketHandshake.validate(method: method, headers: headers)
            return nil
        } catch {
            return error
        }
    }

    /// §1.3's example with SHA-1's value for it (hashlib.sha1 of the key and the GUID, computed in
    /// Python beforehand): the digest function here only answers for that one input, so the test
    /// checks what is hashed and how the digest is encoded.
    func testRFCAcceptExample() {
        let digest: [UInt8] = [
            0xB3, 0x7A, 0x4F, 0x2C, 0xC0, 0x62, 0x4F, 0x16, 0x90, 0xF6, 0x46, 0x06, 0xCF, 0x38, 0x59, 0x45, 0xB2, 0xBE,
            0xC4, 0xEA,
        ]
        let accept = WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") { input in
            XCTAssertEqual(
                String(decoding: input, as: UTF8.self), "dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
            return digest
        }
        XCTAssertEqual(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// The same with a real SHA-1: OpenSSL's, which the transport will pass, opened from libcrypto
    /// (the daemon dlopens it the same way). Skipped where libcrypto is not installed.
    func testRFCAcceptExampleWithOpenSSL() throws {
        guard let sha1 = OpenSSLSHA1() else { throw XCTSkip("libcrypto.so.3 not found") }
        let hex = sha1.digest(Array("abc".utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        XCTAssertEqual(hex, "a9993e364706816aba3e25717850c26c9cd0d89d", "FIPS 180's SHA-1 of \"abc\"")
        XCTAssertEqual(
            WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==", sha1: sha1.digest),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testAValidRequest() throws {
        let headers =
            valid + [
                ("sec-websocket-protocol", "chat, superchat"), ("Sec-WebSocket-Protocol", "v2.json"),
                ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits, x-webkit-deflate-frame"),
            ]
        let request = try WebSocketHandshake.validate(method: "GET", headers: headers)
        XCTAssertEqual(request.key, "dGhlIHNhbXBsZSBub25jZQ==")
        XCTAssertEqual(request.subprotocols, ["chat", "superchat", "v2.json"])
        XCTAssertEqual(request.extensions, ["permessage-deflate", "x-webkit-deflate-frame"])
        // Tokens are case-insensitive and may share the field with others.
        let browserLike = replacing("Connection", with: "keep-alive, Upgrade")
        XCTAssertNil(refusal(browserLike.filter { $0.name != "Upgrade" } + [("upgrade", "WebSocket")]))
    }

    func testRefusals() {
        XCTAssertEqual(refusal(valid, method: "POST"), .methodNotGET("POST"))
        XCTAssertEqual(refusal(replacing("Upgrade", with: nil)), .missingUpgradeWebSocket)
        XCTAssertEqual(refusal(replacing("Upgrade", with: "h2c")), .missingUpgradeWebSocket)
        XCTAssertEqual(refusal(replacing("Connection", with: "keep-alive")), .missingConnectionUpgrade)
        XCTAssertEqual(refusal(replacing("Sec-WebSocket-Version", with: nil)), .unsupportedVersion(nil))
        XCTAssertEqual(refusal(replacing("Sec-WebSocket-Version", with: "8")), .unsupportedVersion("8"))
        XCTAssertEqual(refusal(valid + [("Sec-WebSocket-Version", "13")]), .unsupportedVersion("13"), "repeated")
        XCTAssertEqual(refusal(replacing("Sec-WebSocket-Key", with: nil)), .missingKey)
        XCTAssertEqual(refusal(valid + [("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAA==")]), .duplicateKey)
        for key in [
            "", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25j", "dGhlIHNhbXBsZSBub25jZQ=A",
            "dGhlIHNhbXBsZSBub25jZR==", "dGhlIHNhbXBsZSBub25jZ!==", "dGhlIHNhbXBsZSBub25jZQ==AAAA",
        ] {
            XCTAssertEqual(refusal(replacing("Sec-WebSocket-Key", with: key)), .invalidKey(key), key)
        }
        XCTAssertEqual(WebSocketHandshakeError.unsupportedVersion("8").status, 426)
        XCTAssertEqual(WebSocketHandshakeError.invalidKey("x").status, 400)
    }

    func testSubprotocolChoiceFollowsTheServersPreference() {
        XCTAssertEqual(
            WebSocketHandshake.selectSubprotocol(offered: ["chat", "superchat"], supported: ["superchat", "chat"]),
            "superchat")
        XCTAssertEqual(
            WebSocketHandshake.selectSubprotocol(offered: ["Chat"], supported: ["chat"]), nil, "case-sensitive")
        XCTAssertNil(WebSocketHandshake.selectSubprotocol(offered: [], supported: ["chat"]))
    }

    func testResponseHeaders() {
        let headers = WebSocketHandshake.responseHeaders(accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", subprotocol: "chat")
        XCTAssertEqual(
            headers.map(\.name), ["Upgrade", "Connection", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol"])
        XCTAssertEqual(headers.map(\.value), ["websocket", "Upgrade", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "chat"])
        XCTAssertEqual(WebSocketHandshake.responseHeaders(accept: "x", subprotocol: nil).count, 3)
    }
}

/// OpenSSL's `SHA1` from libcrypto, opened at run time so the test target links nothing new.
private struct OpenSSLSHA1 {
    private typealias Function =
        @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?
    private let function: Function

    init?() {
        guard let library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libcrypto.dylib", RTLD_NOW),
            let symbol = dlsym(library, "SHA1")
        else { return nil }
        function = unsafeBitCast(symbol, to: Function.self)
    }

    func digest(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 20)
        input.withUnsafeBufferPointer { bytes in
            output.withUnsafeMutableBufferPointer { _ = function(bytes.baseAddress, bytes.count, $0.baseAddress) }
        }
        return output
    }
}
