import Foundation
import Testing

/// The README's "Parallel tests" examples must be code that runs: each Swift block of that
/// section appears verbatim in `ReadmeParallelExamples.swift`, which this target compiles and runs.
@Suite struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theParallelTestsExamplesAreTakenFromARunningTest() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Tests/UnderstudyTestingTests/ReadmeParallelExamples.swift"),
                                encoding: .utf8)
        let start = try #require(readme.range(of: "\n## Parallel tests\n"))
        let rest = readme[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let blocks = section.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 3)
        for block in blocks {
            #expect(source.contains(block), "not in ReadmeParallelExamples.swift:\n\(block)")
        }
    }
}
