import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport
import UnderstudyTemplates

/// ``StubIndex`` against a brute-force scan: for random stub sets (fixed seeds) mixing exact paths,
/// patterns with and without a literal prefix, `url` and `urlPattern` targets, no path, methods,
/// priorities and newest-first ties, the index must offer exactly the stubs the scan finds, in rank
/// order, and stop where `visit` says so.
final class StubIndexTests: XCTestCase {
    /// A fixed sequence per seed (the daemon's own SplitMix64, `serve --seed`), so a failure repeats.
    private typealias Generator = SeededGenerator

    private static let segments = ["api", "v1", "v2", "users", "u", "items", "42", "7", "a b", "x"]

    private func randomPath(_ random: inout Generator) -> String {
        let depth = Int.random(in: 0...4, using: &random)
        return "/" + (0..<depth).map { _ in Self.segments.randomElement(using: &random)! }.joined(separator: "/")
    }

    /// A path's text cut at a random point (a prefix ending inside a segment, say).
    private func randomCut(_ path: String, _ random: inout Generator) -> String {
        String(path.prefix(Int.random(in: 1...path.count, using: &random)))
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    private func randomStub(_ number: Int, _ random: inout Generator) -> String {
        var request: [String] = []
        let path = randomPath(&random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1, 2:
            request.append(#""path": "\#(escaped(path))""#)
        case 3, 4:
            let tail = ["/[0-9]+$", "(/.*)?$", "[a-z]*", "", ".*", "s?/x"].randomElement(using: &random)!
            request.append(#""pathPattern": "^\#(escaped(randomCut(path, &random) + tail))""#)
        case 5:
            // No literal prefix: case-insensitive, unanchored, alternation.
            let pattern = ["(?i)/API/.*", "[0-9]+$", "^/api/v1|^/items", "/users", ".*"].randomElement(using: &random)!
            request.append(#""pathPattern": "\#(escaped(pattern))""#)
        case 6:
            let target = [path, path + "?q=1", "/a%20b/x", "/a+b"].randomElement(using: &random)!
            request.append(#""url": "\#(escaped(target))""#)
        case 7:
            request.append(#""urlPattern": "\#(escaped(randomCut(path, &random)))\\?.*""#)
        case 8:
            break  // no path condition
        default:
            request.append(#""path": "\#(escaped(randomCut(path, &random)))""#)
        }
        if Bool.random(using: &random) {
            request.append(#""method": "\#(["GET", "POST"].randomElement(using: &random)!)""#)
        }
        let priority = Int.random(in: 0...6, using: &random)
        let priorityMember = priority == 0 ? "" : #", "priority": \#(priority)"#
        return
            #"{"id": "s\#(number)", "request": {\#(request.joined(separator: ", "))}, "responses": [{}]\#(priorityMember)}"#
    }

    /// What the index must offer for a request, found by scanning every stub.
    private func bruteForce(_ stubs: [Stub], ranks: [Int], method: String, path: String) -> [Int] {
        let candidates = stubs.indices.filter { index in
            let stub = stubs[index]
            switch stub.request.path {
            case .exact(let exact)?:
                return exact == path && (stub.request.method == nil || stub.request.method == method)
            case .pattern(let regex)?:
                return Array(path.utf8).starts(with: PatternPrefix.of(regex.pattern))
            case .exactTarget(let target)?:
                let pathPart = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
                return pathPart.contains("%") || pathPart.contains("+") || path.hasPrefix(pathPart)
            case .targetPattern?, nil:
                return true
            }
        }
        return candidates.sorted { ranks[$0] < ranks[$1] }
    }

    func testCandidatesMatchABruteForceScanInRankOrder() throws {
        for seed in UInt64(1)...40 {
            var random = Generator(seed: seed)
            let count = Int.random(in: 1...120, using: &random)
            let json = #"{"stubs": ["# + (0..<count).map { randomStub($0, &random) }.joined(separator: ",\n") + "]}"
            var stubs = try StubLoader.parse(bytes: Array(json.utf8), file: "test.json", root: nil).stubs
            XCTAssertEqual(stubs.count, count, "seed \(seed): every stub loads")
            // Some sets mix in a format whose newest stub wins a tie (WireMock's rule).
            if seed % 3 == 0 {
                for i in stubs.indices where Bool.random(using: &random) { stubs[i].tieOrder = .newestFirst }
            }
            let index = StubIndex(stubs: stubs)
            let ranks = Stub.ranks(of: stubs)
            var paths = ["", "/", "/api", "/api/", "/a%20b/x", "/a b/x", "/users/42"]
            for _ in 0..<60 { paths.append(randomPath(&random)) }
            for _ in 0..<20 { paths.append(randomCut(randomPath(&random), &random)) }
            for stub in stubs {
                if case .exact(let path)? = stub.request.path { paths.append(path) }
            }
            for path in paths {
                for method in ["GET", "POST", "DELETE"] {
                    let expected = bruteForce(stubs, ranks: ranks, method: method, path: path)
                    var visited: [Int] = []
                    let none = index.firstCandidate(method: method, path: path) {
                        visited.append($0)
                        return false
                    }
                    XCTAssertNil(none)
                    XCTAssertEqual(visited, expected, "seed \(seed), \(method) \(path)")
                    guard !expected.isEmpty else { continue }
                    // Stopping at a candidate returns it and offers no more.
                    let stop = Int.random(in: 0..<expected.count, using: &random)
                    var offered = 0
                    let winner = index.firstCandidate(method: method, path: path) { _ in
                        offered += 1
                        return offered == stop + 1
                    }
                    XCTAssertEqual(winner, expected[stop], "seed \(seed), \(method) \(path)")
                    XCTAssertEqual(offered, stop + 1)
                }
            }
        }
    }

    func testManyPatternsSharingAPrefixOfferOnlyTheGroupsThePathStartsWith() throws {
        // A user's set: thousands of patterns under one API prefix, a few with none, a priority.
        var stubs: [String] = []
        for i in 0..<2_000 {
            stubs.append(
                #"{"id": "p\#(i)", "request": {"pathPattern": "^/api/v1/users/\#(i)/[0-9]+$"}, "responses": [{}]}"#)
        }
        stubs.append(#"{"id": "users", "request": {"pathPattern": "^/api/v1/users/.*"}, "responses": [{}]}"#)
        stubs.append(#"{"id": "ci", "request": {"pathPattern": "(?i)/API/V2/.*"}, "responses": [{}]}"#)
        stubs.append(#"{"id": "first", "request": {"path": "/api/v1/users/1999/5"}, "responses": [{}], "priority": 1}"#)
        let set = try StubLoader.parse(
            bytes: Array((#"{"stubs": ["# + stubs.joined(separator: ",") + "]}").utf8), file: "test.json", root: nil)
        let index = StubIndex(stubs: set.stubs)
        XCTAssertEqual(index.unindexed.groupCount, 2_002)
        var visited: [Int] = []
        index.firstCandidate(method: "GET", path: "/api/v1/users/1999/5") {
            visited.append($0)
            return false
        }
        // The prioritised exact stub, then `/api/v1/users/1999/`'s pattern, then `/api/v1/users/`'s, then
        // the prefix-less one; `/api/v1/users/1/` and `/api/v1/users/19/` are not prefixes of the path.
        XCTAssertEqual(visited, [2_002, 1_999, 2_000, 2_001])
    }
}
