import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The journal's cache of repeating request headers' JSON (``JournalHeaderCache``): whatever it
/// serves, a line's `headers` are the bytes encoding the fields would give.
final class JournalHeaderCacheTests: XCTestCase {
    private func encoded(_ headers: HTTPHeaders, cache: JournalHeaderCache?) -> String {
        let out = JSONWriter(capacity: 64)
        out.append("x" as StaticString)  // not at the buffer's start
        if let cache {
            cache.append(headers, into: out)
        } else {
            JournalEntry.encodeHeaders(headers, into: out)
        }
        return String(decoding: out.bytes.dropFirst(), as: UTF8.self)
    }

    func testRepeatedListsAreServedFromTheCacheWithTheSameBytes() {
        let cache = JournalHeaderCache()
        let lists: [HTTPHeaders] = [
            HTTPHeaders([.init(name: "Host", value: "127.0.0.1:8080"), .init(name: "User-Agent", value: "wrk")]),
            HTTPHeaders([.init(name: "Accept", value: "a"), .init(name: "accept", value: "b\"\\")]),
            HTTPHeaders([.init(name: "X-Long-Header-Name", value: String(repeating: "v", count: 300))]),
            HTTPHeaders(),
        ]
        for round in 0..<5 {
            for headers in lists {
                XCTAssertEqual(encoded(headers, cache: cache), encoded(headers, cache: nil), "round \(round)")
            }
        }
        XCTAssertEqual(encoded(lists[1], cache: nil), #"{"accept":["a","b\"\\"]}"#)
    }

    /// A copy changed after its original was cached has storage of its own (copy-on-write), so it
    /// is encoded afresh, never given the original's JSON.
    func testAChangedCopyIsNotGivenTheOriginalsJSON() {
        let cache = JournalHeaderCache()
        let original = HTTPHeaders([.init(name: "Host", value: "a")])
        for _ in 0..<3 { _ = encoded(original, cache: cache) }
        var changed = original
        changed.append(name: "X-Extra", value: "1")
        XCTAssertEqual(encoded(changed, cache: cache), #"{"host":["a"],"x-extra":["1"]}"#)
        XCTAssertEqual(encoded(original, cache: cache), #"{"host":["a"]}"#)
    }

    /// Lists made and dropped one after another (their storage freed and its address reused)
    /// each get their own JSON.
    func testListsWhoseStorageIsReusedGetTheirOwnJSON() {
        let cache = JournalHeaderCache()
        for index in 0..<500 {
            let headers = HTTPHeaders([
                .init(name: "Host", value: "h\(index % 7)"), .init(name: "N", value: "\(index)"),
            ])
            for _ in 0..<3 {  // seen, kept, served from the cache
                XCTAssertEqual(encoded(headers, cache: cache), #"{"host":["h\#(index % 7)"],"n":["\#(index)"]}"#)
            }
        }
    }

    // MARK: - Response heads

    /// `fields` as a transport lends them (``RawHeaderField``s over one byte block), encoded
    /// through the cache or without one.
    private func encodedHead(_ fields: [(String, String)], cache: JournalHeaderCache?) -> String {
        var block: [UInt8] = []
        for (name, value) in fields { block += Array(name.utf8) + Array(value.utf8) }
        return block.withUnsafeBufferPointer { bytes in
            var raw: [RawHeaderField] = []
            var offset = 0
            for (name, value) in fields {
                let nameCount = name.utf8.count, valueCount = value.utf8.count
                raw.append(
                    RawHeaderField(
                        name: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + nameCount)]),
                        value: UnsafeBufferPointer(
                            rebasing: bytes[(offset + nameCount)..<(offset + nameCount + valueCount)])))
                offset += nameCount + valueCount
            }
            return raw.withUnsafeBufferPointer { fields in
                let out = JSONWriter(capacity: 64)
                out.append("x" as StaticString)
                if let cache { cache.append(fields, into: out) } else { JournalEntry.encodeHeaders(fields, into: out) }
                return String(decoding: out.bytes.dropFirst(), as: UTF8.self)
            }
        }
    }

    /// A repeated head is served from the cache with the bytes encoding gives; a head with the same
    /// field lengths but other bytes (the next second's `Date`), and heads taking turns, are not
    /// given another head's JSON.
    func testResponseHeadsAreServedFromTheCacheOnlyWhenTheirFieldsAreTheSame() {
        let cache = JournalHeaderCache()
        let first = [
            ("Content-Type", "text/plain"), ("Date", "Mon, 07 Dec 2026 20:00:00 GMT"), ("Content-Length", "5"),
        ]
        let nextSecond = [
            ("Content-Type", "text/plain"), ("Date", "Mon, 07 Dec 2026 20:00:01 GMT"), ("Content-Length", "5"),
        ]
        let other = [
            ("Idempotent-Replayed", "true"), ("Date", "Mon, 07 Dec 2026 20:00:01 GMT"), ("Content-Length", "5"),
        ]
        let repeated = [("Set-Cookie", "a=1"), ("set-cookie", "b=\"2\""), ("Content-Length", "0")]
        let empty: [(String, String)] = []
        for heads in [
            [first, first, first, nextSecond, nextSecond, first], [first, other, first, other, other, first],
            [repeated, repeated, repeated, empty, empty, repeated],
        ] {
            for (round, head) in heads.enumerated() {
                XCTAssertEqual(encodedHead(head, cache: cache), encodedHead(head, cache: nil), "round \(round)")
            }
        }
        XCTAssertEqual(
            encodedHead(nextSecond, cache: cache),
            #"{"content-type":["text/plain"],"date":["Mon, 07 Dec 2026 20:00:01 GMT"],"content-length":["5"]}"#)
        XCTAssertEqual(encodedHead(repeated, cache: cache), #"{"set-cookie":["a=1","b=\"2\""],"content-length":["0"]}"#)
    }
}
