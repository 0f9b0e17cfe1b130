import Foundation
import Testing

/// The README's "Testing your client" example must be code that runs: it is the first Swift block
/// of that section, and it appears verbatim in the example package's tests (run by scripts/test).
@Suite struct ReadmeTestingExampleTests {
    @Test func theTestingYourClientExampleIsTheExamplePackagesCode() throws {
        let root = ReadmeSnippetTests.root
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: root.appendingPathComponent(
            "Examples/WeatherClientExample/Tests/WeatherClientTests/WeatherClientTests.swift"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n## Testing your client with Understudy\n"))
        let section = readme[start.upperBound...]
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        #expect(block.split(separator: "\n").count <= 12, "the example stays short")
        #expect(block.contains("Understudy.current") && block.contains("verify"))
        #expect(source.contains(block), "not verbatim in WeatherClientTests.swift:\n\(block)")
    }
}
