import Foundation
import XCTest
@testable import UnderstudyStubs
import UnderstudyStubsTestSupport

/// Which `.json` files below a loaded directory are stub files and which are response bodies
/// (``StubFileKind``): bodies named by a `bodyFile`, or under `__files/`, are not stubs; every
/// other file must be one, and is reported when it is not.
final class StubFileKindTests: XCTestCase {
    private func loadFailure(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) -> StubLoadFailure?
    {
        do {
            let set = try StubLoader.load(paths: paths)
            XCTFail("expected a failure, loaded \(set.stubs.map(\.id))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testJSONBodyNamedByABodyFileIsNotReadAsAStubFile() throws {
        let root = try makeTemporaryDirectory(self)
        try write(
            #"{"stubs":[{"id":"big","request":{"path":"/big"},"responses":[{"bodyFile":"files/big.json"}]}]}"#,
            to: root + "/ok.json")
        // Sorts before the stub that names it, and after it.
        try write(#"{"items":[1,2,3]}"#, to: root + "/files/big.json")
        try write(#"{"stubs":[{"id":"late","responses":[{"bodyFile":"zz/late.json"}]}]}"#, to: root + "/late.json")
        try write("[1, 2]", to: root + "/zz/late.json")
        let set = try StubLoader.load(paths: [root])
        XCTAssertEqual(set.stubs.map(\.id), ["late", "big"])
        XCTAssertEqual(String(decoding: set.stubs[1].responses[0].body, as: UTF8.self), #"{"items":[1,2,3]}"#)
        XCTAssertEqual(String(decoding: set.stubs[0].responses[0].body, as: UTF8.self), "[1, 2]")
    }

    func testBodyNamedThroughAnotherSpellingOfItsPathIsStillRecognised() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"responses":[{"bodyFile":"./bodies/../bodies/b.json"}]}]}"#, to: root + "/api/stub.json")
        try write(#"{"not":"stubs"}"#, to: root + "/api/bodies/b.json")
        // The directory given with a trailing slash: paths are still compared by where they lead.
        XCTAssertEqual(try StubLoader.load(paths: [root + "/"]).stubs.count, 1)
    }

    func testFilesUnderADoubleUnderscoreFilesDirectoryAreBodies() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"id":"s","responses":[{"bodyFile":"__files/used.json"}]}]}"#, to: root + "/s.json")
        try write(#"{"used":true}"#, to: root + "/__files/used.json")
        try write(#"{"unused":true}"#, to: root + "/__files/nested/unused.json")
        try write("not even JSON", to: root + "/deep/__files/broken.json")
        let set = try StubLoader.load(paths: [root])
        XCTAssertEqual(set.stubs.map(\.id), ["s"])
        XCTAssertEqual(String(decoding: set.stubs[0].responses[0].body, as: UTF8.self), #"{"used":true}"#)
    }

    func testUnreferencedJSONBelowADirectoryIsReportedWithTheRule() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"id":"s","responses":[{}]}]}"#, to: root + "/s.json")
        try write(#"{"items":[1],"total":1}"#, to: root + "/files/orphan.json")
        try write("[1, 2]", to: root + "/files/list.json")
        guard let failure = loadFailure([root]) else { return }
        XCTAssertEqual(failure.errors.map(\.file), [root + "/files/list.json", root + "/files/orphan.json"])
        XCTAssertEqual(
            failure.errors[0].message,
            "expected an object with a `stubs` array, found an array. " + StubFileKind.notAStubFileHint)
        // One error for the file, not one per key a body happens to have.
        XCTAssertEqual(
            failure.errors[1].message,
            #"not a stub file: missing key `stubs`; a stub file is {"stubs": [ ... ]}. "#
                + StubFileKind.notAStubFileHint)
        XCTAssertTrue(
            StubFileKind.notAStubFileHint.contains("`bodyFile`") && StubFileKind.notAStubFileHint.contains("`__files/`")
        )
    }

    func testStubFileWithATypoIsReportedNotSkippedEvenBesideBodies() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"id":"s","responses":[{"bodyFile":"body.json"}]}]}"#, to: root + "/s.json")
        try write(#"{"a":1}"#, to: root + "/body.json")
        try write(#"{"stubz": [{"id": "t", "responses": [{}]}]}"#, to: root + "/typo.json")
        guard let failure = loadFailure([root]) else { return }
        XCTAssertEqual(
            failure.errors,
            [
                StubFileError(
                    file: root + "/typo.json", line: 1, column: 2, jsonPath: "stubz",
                    message: "unknown key `stubz`; did you mean `stubs`? (`stubs` is required)", suggestion: "stubs")
            ])
    }

    func testAFileNamedExplicitlyIsAlwaysAStubFile() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"items":[]}"#, to: root + "/__files/body.json")
        guard let failure = loadFailure([root + "/__files/body.json"]) else { return }
        XCTAssertEqual(
            failure.errors.map(\.message), [#"not a stub file: missing key `stubs`; a stub file is {"stubs": [ ... ]}"#]
        )
    }

    func testBodyNamedByABrokenStubIsNotReportedAsAStubFile() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"id":"s","whenState":"x","responses":[{"bodyFile":"b.json"}]}]}"#, to: root + "/s.json")
        try write(#"{"a":1}"#, to: root + "/b.json")
        guard let failure = loadFailure([root]) else { return }
        XCTAssertEqual(failure.errors.map(\.jsonPath), ["stubs[0].whenState"], failure.description)
    }

    func testDuplicateIDAcrossFilesWhenTheFirstStubHasAnError() throws {
        let root = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"id":"same","responses":[{"status":7}]}]}"#, to: root + "/1.json")
        try write(#"{"stubs":[{"id":"same","responses":[{}]}]}"#, to: root + "/2.json")
        guard let failure = loadFailure([root]) else { return }
        XCTAssertEqual(
            failure.errors.map { "\(($0.file as NSString).lastPathComponent) \($0.jsonPath)" },
            ["1.json stubs[0].responses[0].status", "2.json stubs[0].id"])
        XCTAssertEqual(failure.errors[1].message, "duplicate stub id `same`; first used at \(root)/1.json:1:17")
    }

    func testOnlyLoadedStubsMakeABodyAndNoStubFileDisappearsSilently() throws {
        let root = try makeTemporaryDirectory(self)
        // Serves itself: still a stub file.
        try write(
            #"{"stubs":[{"id":"self","request":{"path":"/self"},"responses":[{"bodyFile":"self.json"}]}]}"#,
            to: root + "/self.json")
        // Two stub files naming each other: neither is loaded by the other, so both stay stub files.
        try write(
            #"{"stubs":[{"id":"ping","request":{"path":"/ping"},"responses":[{"bodyFile":"pong.json"}]}]}"#,
            to: root + "/ping.json")
        try write(
            #"{"stubs":[{"id":"pong","request":{"path":"/pong"},"responses":[{"bodyFile":"ping.json"}]}]}"#,
            to: root + "/pong.json")
        XCTAssertEqual(try StubLoader.load(paths: [root]).stubs.map(\.id), ["ping", "pong", "self"])

        // A chain: `a` serves `b` (so `b` is a body and its stubs are not loaded); `b` naming `c`
        // therefore does not make `c` a body, and `c` must be a stub file.
        let chain = try makeTemporaryDirectory(self)
        try write(#"{"stubs":[{"id":"a","responses":[{"bodyFile":"b.json"}]}]}"#, to: chain + "/a.json")
        try write(#"{"stubs":[{"id":"b","responses":[{"bodyFile":"c.json"}]}]}"#, to: chain + "/b.json")
        try write(#"{"c":1}"#, to: chain + "/c.json")
        guard let failure = loadFailure([chain]) else { return }
        XCTAssertEqual(failure.errors.map(\.file), [chain + "/c.json"])
    }

    func testSourceFileKnowsTheDirectoriesBelowItsRoot() {
        XCTAssertEqual(StubSourceFile(path: "r/a/__files/b.json", root: "r").directoriesBelowRoot, ["a", "__files"])
        XCTAssertEqual(StubSourceFile(path: "r/b.json", root: "r/").directoriesBelowRoot, [])
        XCTAssertEqual(StubSourceFile(path: "__files/b.json", root: nil).directoriesBelowRoot, [])
        XCTAssertEqual(StubFileKind.byLocation(StubSourceFile(path: "__files/x/b.json", root: "__files")), nil)
        XCTAssertEqual(StubFileKind.byLocation(StubSourceFile(path: "r/x/__files/b.json", root: "r")), .body)
    }
}
