import Foundation
@testable import UnderstudyCore
import XCTest

/// Replays every input kept in `scripts/hardening/regressions/loader` (crashing inputs the loader
/// fuzzer found, and hand-made hostile documents) through the loader: each must give a stub set or
/// well-formed errors, never a crash.
final class LoaderRegressionTests: XCTestCase {
    private var inputs: [String] {
        let directory = HardeningFixtures.repositoryRoot + "/scripts/hardening/regressions/loader"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted().map { directory + "/" + $0 }
    }

    func testEveryKeptInputLoadsOrFailsWithPositionedErrors() throws {
        XCTAssertGreaterThanOrEqual(inputs.count, 8, "the regression inputs are missing")
        for path in inputs {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            do {
                let set = try StubLoader.parse(bytes: bytes, file: "<regression>", root: nil)
                XCTAssertGreaterThanOrEqual(set.count, 0)
            } catch {
                XCTAssertFalse(error.errors.isEmpty, path)
                for item in error.errors {
                    XCTAssertGreaterThanOrEqual(item.line, 1, "\(path): \(item)")
                    XCTAssertGreaterThanOrEqual(item.column, 1, "\(path): \(item)")
                    XCTAssertFalse(item.message.isEmpty, path)
                }
            }
        }
    }

    func testDeepNestingIsRefusedWithAPositionNotAStackOverflow() {
        let bytes = Array(#"{"stubs":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 200_000)
        XCTAssertThrowsError(try StubLoader.parse(bytes: bytes, file: "deep.json", root: nil)) { error in
            let failure = error as? StubLoadFailure
            XCTAssertEqual(failure?.errors.count, 1)
            XCTAssertTrue(
                failure?.errors.first?.message.contains("nesting deeper than") ?? false,
                "\(String(describing: failure))")
        }
    }

    func testErrorPathsAreTheSameTextAsBefore() {
        // Paths are built lazily now; the text must not change: quoting, nesting, indexes, the root.
        let json =
            #"{"stubs":[{"responses":[{"status":200,"headers":{"Bad Name":"x","X-Ok":["a",7]}}]},{"responses":[{"fault":"nope"}],"whenState":"s"}],"$schema":1,"x":2}"#
        do {
            _ = try StubLoader.parse(bytes: Array(json.utf8), file: "p.json", root: nil)
            XCTFail("loaded")
        } catch {
            XCTAssertEqual(
                error.errors.map(\.jsonPath),
                [
                    #"stubs[0].responses[0].headers["Bad Name"]"#,
                    "stubs[0].responses[0].headers.X-Ok[1]",
                    "stubs[1].responses[0].fault",
                    "stubs[1].whenState",
                    "x",
                ])
        }
    }
}
