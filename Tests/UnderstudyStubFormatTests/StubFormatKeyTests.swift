import Foundation
import UnderstudyStubFormat
import XCTest

/// One vocabulary for readers and writers: the keys the compile step reads are keys of the format
/// (which `StubFormatRoundTripTests` proves the builders write), and `StubFormat.Key`, through which
/// every stub writer names them, is exactly the format's keys.
final class StubFormatKeyTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Keys the compile step reads that `StubFormat.Object` does not list yet, each with the builder
    /// that writes it (checked below): `openapi`'s one member, `skip`.
    private static let readOutsideTheObjects: [String: JSONValue] = [
        "skip": Stub.get("/").openAPISkip("why").json["openapi"] ?? .null
    ]

    /// The keys the compile step (`StubCompiler.swift` and the native part readers,
    /// `StubDecoder*.swift`) reads from a stub's objects: every `keys["…"]` lookup.
    private static func keysTheCompilerReads() throws -> [String: String] {
        let loading = root + "/Sources/UnderstudyStubs/Loading"
        let files = try FileManager.default.contentsOfDirectory(atPath: loading).filter {
            $0 == "StubCompiler.swift" || ($0.hasPrefix("StubDecoder") && $0.hasSuffix(".swift"))
        }
        XCTAssertGreaterThan(files.count, 5, "the compile step's files were not found under \(loading)")
        let lookup = try NSRegularExpression(pattern: #"\b(?:keys|members)\["([^"\\]+)"\]"#)
        var read: [String: String] = [:]
        for file in files.sorted() {
            let text = try String(contentsOfFile: loading + "/" + file, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in lookup.matches(in: text, range: range) {
                let key = String(text[Range(match.range(at: 1), in: text)!])
                if read[key] == nil { read[key] = file }
            }
        }
        return read
    }

    func testEveryKeyTheCompileStepReadsIsOneTheFormatWrites() throws {
        let written = Set(StubFormat.Object.allCases.flatMap(\.keys))
        let read = try Self.keysTheCompilerReads()
        XCTAssertGreaterThan(read.count, 40, "the scan found too few keys to be reading the compile step")
        for (key, file) in read.sorted(by: { $0.key < $1.key }) where !written.contains(key) {
            guard let builder = Self.readOutsideTheObjects[key] else {
                XCTFail(
                    "\(file) reads the stub key `\(key)`, which no StubFormat.Object lists, so no builder or stub "
                        + "writer is held to write it: add it to its object's keys in StubFormat.swift")
                continue
            }
            XCTAssertNotNil(builder[key], "the builder named for `\(key)` does not write it")
        }
    }

    func testTheKeyConstantsAreExactlyTheFormatsKeys() {
        let constants = StubFormat.Key.all.map(\.name)
        XCTAssertEqual(Set(constants).count, constants.count, "a key constant is listed twice")
        XCTAssertEqual(
            Set(constants), Set(StubFormat.Object.allCases.flatMap(\.keys)),
            "StubFormat.Key.all and StubFormat.Object.keys disagree")
        XCTAssertEqual(JSONMember(.bodyFile, .string("a")), JSONMember("bodyFile", .string("a")))
    }
}
