import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// Loading from disk: directories, ordering, body files and their confinement, cross-file errors.
final class StubLoaderTests: XCTestCase {
    private func stubFile(_ stubs: String) -> String { #"{"stubs": ["# + stubs + "]}" }

    func testDirectoryLoadsEveryJSONFileRecursivelyInPathOrder() throws {
        let root = try makeTemporaryDirectory(self)
        try write(stubFile(#"{"id": "b", "responses": [{}]}"#), to: root + "/b.json")
        try write(stubFile(#"{"id": "a", "responses": [{}]}"#), to: root + "/a.json")
        try write(stubFile(#"{"id": "nested", "responses": [{}]}"#), to: root + "/a/z.json")
        try write("not a stub file", to: root + "/notes.txt")
        try write("{broken", to: root + "/.hidden.json")
        let set = try StubLoader.load(paths: [root])
        // Plain byte order of the paths: "a.json" < "a/z.json" < "b.json".
        XCTAssertEqual(set.stubs.map(\.id), ["a", "nested", "b"])
        XCTAssertEqual(set.stubs[1].file, root + "/a/z.json")
    }

    func testExplicitNonJSONFileAndMissingPathAreRefused() throws {
        let root = try makeTemporaryDirectory(self)
        try write("hello", to: root + "/README.md")
        do {
            _ = try StubLoader.load(paths: [root + "/README.md", root + "/missing.json"])
            XCTFail("expected failure")
        } catch {
            XCTAssertEqual(error.errors.count, 2)
            XCTAssertEqual(
                error.errors[0],
                StubFileError(
                    file: root + "/README.md", line: 1, column: 1, jsonPath: "",
                    message: "not a stub file: expected a `.json` file"))
            XCTAssertEqual(
                error.errors[1],
                StubFileError(
                    file: root + "/missing.json", line: 1, column: 1, jsonPath: "",
                    message: "no such file or directory"))
        }
    }

    func testExplicitJSONFileThatIsNotJSONIsRefusedWithPosition() throws {
        let root = try makeTemporaryDirectory(self)
        try write("{\n  \"stubs\": [\n    oops\n  ]\n}", to: root + "/bad.json")
        XCTAssertThrowsError(try StubLoader.load(paths: [root + "/bad.json"])) { error in
            let failure = error as! StubLoadFailure
            XCTAssertEqual(failure.errors.map { "\($0.line):\($0.column) \($0.jsonPath)" }, ["3:5 stubs[0]"])
            XCTAssertTrue(
                failure.errors[0].message.hasPrefix("not valid JSON: expected a JSON value"), failure.errors[0].message)
        }
    }

    func testErrorsFromEveryFileAndDuplicateIDsAcrossFiles() throws {
        let root = try makeTemporaryDirectory(self)
        try write(stubFile(#"{"id": "same", "responses": [{}]}"#), to: root + "/1.json")
        try write(stubFile("\n" + #"{"id": "same", "responses": [{}]}"#), to: root + "/2.json")
        try write(stubFile(#"{"id": "x", "responses": [{"status": 0}]}"#), to: root + "/3.json")
        XCTAssertThrowsError(try StubLoader.load(paths: [root])) { error in
            let failure = error as! StubLoadFailure
            XCTAssertEqual(failure.errors.count, 2, failure.description)
            let status = failure.errors.first { $0.file.hasSuffix("3.json") }
            XCTAssertEqual(status?.jsonPath, "stubs[0].responses[0].status")
            let duplicate = failure.errors.first { $0.file.hasSuffix("2.json") }
            XCTAssertEqual(duplicate?.line, 2)
            XCTAssertEqual(duplicate?.column, 8)
            XCTAssertEqual(duplicate?.jsonPath, "stubs[0].id")
            XCTAssertEqual(duplicate?.message, "duplicate stub id `same`; first used at \(root)/1.json:1:19")
            XCTAssertEqual(failure.description.split(separator: "\n").count, 2)
        }
    }

    func testGeneratedIDsComeFromFileAndIndex() throws {
        let set = try StubLoader.parse(
            bytes: Array(stubFile(#"{"responses":[{}]},{"responses":[{}]}"#).utf8), file: "gen.json", root: nil)
        XCTAssertEqual(set.stubs.map(\.id), ["gen.json#0", "gen.json#1"])
    }

    func testBodyFileIsReadRelativeToTheStubFile() throws {
        let root = try makeTemporaryDirectory(self)
        try write("file body\n", to: root + "/bodies/hello.txt")
        try write(
            stubFile(#"{"id":"f","responses":[{"bodyFile":"../bodies/hello.txt"}]}"#), to: root + "/sub/stub.json")
        let set = try StubLoader.load(paths: [root])
        XCTAssertEqual(set.stubs[0].responses[0].body, Array("file body\n".utf8))
    }

    func testBodyFileMayNotEscapeTheRoot() throws {
        let outside = try makeTemporaryDirectory(self)
        try write("secret", to: outside + "/secret.txt")
        let root = try makeTemporaryDirectory(self)
        let secretName = (outside as NSString).lastPathComponent
        try write(
            stubFile(
                """
                {"id":"escape","responses":[{"bodyFile":"../\(secretName)/secret.txt"}]}
                """), to: root + "/stub.json")
        XCTAssertThrowsError(try StubLoader.load(paths: [root])) { error in
            let failure = error as! StubLoadFailure
            XCTAssertEqual(failure.errors.count, 1)
            XCTAssertEqual(failure.errors[0].jsonPath, "stubs[0].responses[0].bodyFile")
            XCTAssertEqual(failure.errors[0].line, 1)
            XCTAssertEqual(failure.errors[0].column, 52)
            XCTAssertTrue(
                failure.errors[0].message.contains("resolves outside the stub root"), failure.errors[0].message)
        }
    }

    func testBodyFileSymlinkOutOfTheRootIsRefused() throws {
        let outside = try makeTemporaryDirectory(self)
        try write("secret", to: outside + "/secret.txt")
        let root = try makeTemporaryDirectory(self)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/link.txt", withDestinationPath: outside + "/secret.txt")
        try write(stubFile(#"{"id":"link","responses":[{"bodyFile":"link.txt"}]}"#), to: root + "/stub.json")
        XCTAssertThrowsError(try StubLoader.load(paths: [root])) { error in
            let errors = (error as! StubLoadFailure).errors
            XCTAssertEqual(errors.count, 1)
            XCTAssertEqual(errors.first?.file, root + "/stub.json")
            XCTAssertEqual(errors.first?.line, 1)
            XCTAssertEqual(errors.first?.column, 50)
            XCTAssertEqual(errors.first?.jsonPath, "stubs[0].responses[0].bodyFile")
            XCTAssertTrue(errors.first?.message.contains("through a symlink") ?? false, errors.first?.message ?? "")
        }
    }

    func testBodyFileMissingOrAbsoluteOrDirectory() throws {
        let root = try makeTemporaryDirectory(self)
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: true)
        try write(
            stubFile(
                """
                {"id":"a","responses":[{"bodyFile":"missing.txt"}]},
                {"id":"b","responses":[{"bodyFile":"/etc/hostname"}]},
                {"id":"c","responses":[{"bodyFile":"dir"}]}
                """), to: root + "/stub.json")
        XCTAssertThrowsError(try StubLoader.load(paths: [root + "/stub.json"])) { error in
            let errors = (error as! StubLoadFailure).errors
            XCTAssertEqual(
                errors.map(\.jsonPath),
                ["stubs[0].responses[0].bodyFile", "stubs[1].responses[0].bodyFile", "stubs[2].responses[0].bodyFile"])
            XCTAssertEqual(errors.map(\.line), [1, 2, 3])
            XCTAssertEqual(errors.map(\.column), [47, 36, 36])
            XCTAssertEqual(Set(errors.map(\.file)), [root + "/stub.json"])
            XCTAssertEqual(errors.map(\.suggestion), [nil, nil, nil])
            XCTAssertTrue(
                errors[0].message.contains("cannot read `bodyFile` `missing.txt`: No such file or directory"),
                errors[0].message)
            XCTAssertTrue(errors[1].message.contains("must be a path relative to the stub file"), errors[1].message)
            XCTAssertTrue(errors[2].message.contains("it is a directory"), errors[2].message)
        }
    }

    func testBodyFileIsRefusedForDocumentsNotOnDisk() {
        let errors = loadErrors(#"{"stubs":[{"responses":[{"bodyFile":"x.txt"}]}]}"#, file: "<admin>")
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.file, "<admin>")
        XCTAssertEqual(errors.first?.line, 1)
        XCTAssertEqual(errors.first?.column, 37)
        XCTAssertEqual(errors.first?.jsonPath, "stubs[0].responses[0].bodyFile")
        XCTAssertTrue(errors.first?.message.contains("needs a stub file on disk") ?? false)
    }

    func testSchemaKeyAndByteOrderMarkAreAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"$schema":"https://example.com/s.json","stubs":[]}"#.utf8)
        XCTAssertEqual(try StubLoader.parse(bytes: bytes, file: "s.json", root: nil).count, 0)
    }
}

/// Stub sets built in code get the checks the types cannot express.
final class StubSetTests: XCTestCase {
    func testValidatingInitAcceptsGoodStubsAndServesThem() throws {
        let set = try StubSet(validating: [
            Stub(
                id: "a", request: RequestPattern(method: "get", path: .exact("/a")),
                responses: [StubResponse(status: 202)])
        ])
        XCTAssertEqual(set.stubs.first?.request.method, "GET")
        XCTAssertEqual(StubEngine(stubs: set).get("/a").status, 202)
    }

    func testValidatingInitReportsEveryProblem() {
        XCTAssertThrowsError(
            try StubSet(validating: [
                Stub(id: "a", responses: [StubResponse(status: 42, times: 0)]),
                Stub(id: "a", responses: [], whenState: "x"),
            ])
        ) { error in
            let failure = error as! StubLoadFailure
            XCTAssertEqual(
                failure.errors.map(\.jsonPath),
                [
                    "stubs[0].responses[0].status", "stubs[0].responses[0].times",
                    "stubs[1].id", "stubs[1].responses", "stubs[1].whenState",
                ])
        }
    }
}
