import UnderstudyCore
import XCTest

@testable import UnderstudyServer

/// Every case of Tests/BlackBox/test_http1_conformance.py (mirrored in HTTP1ConformanceCases.swift),
/// run through the HTTP/1.1 codec with no socket and no daemon: written whole and one byte at a
/// time, the codec must hand over exactly the requests the black-box test sees in the journal
/// (method, path, and where each body ended), refuse with the same status, read nothing after a
/// refusal as a request (no smuggling), and answer: each request's reply and the refusal's, encoded
/// by the codec, carry the statuses the black-box test reads on the wire.
final class HTTP1CodecConformanceTests: XCTestCase {
    func testTheMirrorHoldsEveryBlackBoxCase() {
        // test_http1_conformance.py had 51 cases when the issue was filed; it has grown since.
        XCTAssertGreaterThanOrEqual(http1ConformanceCases.count, 51)
        XCTAssertEqual(Set(http1ConformanceCases.map(\.name)).count, http1ConformanceCases.count)
    }

    func testEveryCaseWhole() {
        for spec in http1ConformanceCases { check(spec, bytewise: false) }
    }

    func testEveryCaseOneByteAtATime() {
        for spec in http1ConformanceCases { check(spec, bytewise: true) }
    }

    private func check(_ spec: HTTP1ConformanceCase, bytewise: Bool) {
        let decoded = decode(writes(of: spec.data, bytewise: bytewise))
        let where_ = "\(spec.name) (\(spec.source))\(bytewise ? " one byte at a time" : "")"
        let seen = decoded.requests.map { [$0.method, $0.path, String(decoding: $0.body, as: UTF8.self)] }
        XCTAssertEqual(seen, spec.requests.map { [$0.0, $0.1, $0.2] }, where_)
        XCTAssertFalse(decoded.requests.contains { $0.path == "/smuggled" } && spec.refused != nil, where_)
        var statuses = decoded.requests.map { _ in 200 }
        if let expected = spec.refused {
            guard let refusal = decoded.refusal else {
                XCTFail("\(where_): not refused (\(decoded.unread) bytes left unread)")
                return
            }
            XCTAssertEqual(refusal.status, expected, where_)
            XCTAssertFalse(refusal.reason.isEmpty, "\(where_): the refusal says why")
            if spec.unread {
                // Journaled all the same, with an empty method and path.
                XCTAssertEqual(decoded.refused?.method, "", where_)
                XCTAssertEqual(decoded.refused?.path, "", where_)
            }
            statuses.append(refusal.status)
        } else {
            XCTAssertNil(decoded.refusal, "\(where_): refused \(decoded.refusal.map { "\($0)" } ?? "")")
            // Every byte was read: each body ended exactly where its framing said.
            XCTAssertEqual(decoded.unread, 0, where_)
        }
        XCTAssertEqual(HTTP1CodecConformanceTests.statuses(in: decoded.wire.bytes), statuses, where_)
        if decoded.refusal != nil {
            // The refusal says why, in its body, and closes the connection.
            XCTAssertTrue(decoded.wire.text.hasSuffix((decoded.refusal?.reason ?? "") + "\n"), where_)
            XCTAssertTrue(decoded.wire.text.contains("Connection: close\r\n"), where_)
        }
    }

    /// The statuses of the responses in `data`, read one after another by their Content-Length (as the
    /// black-box test's `statuses` does).
    static func statuses(in data: [UInt8]) -> [Int] {
        var found: [Int] = []
        var rest = data[...]
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while rest.starts(with: "HTTP/1.1 ".utf8) {
            guard let end = rest.firstRange(of: separator) else { break }
            let lines = rest[rest.startIndex..<end.lowerBound].split(separator: UInt8(ascii: "\n"))
                .map { String(decoding: $0.filter { $0 != UInt8(ascii: "\r") }, as: UTF8.self) }
            found.append(Int(lines[0].dropFirst(9).prefix(3)) ?? 0)
            var length = 0
            for line in lines.dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "content-length" {
                    length = Int(parts[1].filter { $0 != " " && $0 != "\t" }) ?? 0
                }
            }
            rest = rest[min(end.upperBound + length, rest.endIndex)...]
        }
        return found
    }
}
