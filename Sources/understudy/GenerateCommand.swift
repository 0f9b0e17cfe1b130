import ArgumentParser
import Foundation
import UnderstudyJSON
import UnderstudyOpenAPI

/// `understudy generate --openapi SPEC --out DIR`: stubs from a spec, one per operation and status.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write stub files from an OpenAPI document: one stub per operation and declared status.",
        discussion: "Bodies are the spec's examples, or minimal values its schemas accept. The output passes `check --openapi`."
    )

    @Option(name: .customLong("openapi"), help: "The OpenAPI 3.0/3.1 document (YAML or JSON).")
    var openAPI: String

    @Option(name: .customLong("out"), help: "The directory to write stub files into (created if missing).")
    var out: String

    func run() throws {
        let spec: OpenAPISpec
        do {
            spec = try OpenAPISpec.load(openAPI)
        } catch {
            for finding in error.findings { Console.out(finding.description) }
            Console.error("understudy generate: the OpenAPI document \(openAPI) cannot be used; nothing was written")
            throw ExitCode(1)
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var count = 0
        let documents = StubGenerator(spec: spec).documents()
        for (name, document) in documents {
            count += document["stubs"].flatMap { if case .array(let items) = $0 { items.count } else { nil } } ?? 0
            let path = (out as NSString).appendingPathComponent(name)
            try Data((StubGenerator.indented(document) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        }
        Console.out("understudy generate: \(count) stubs in \(documents.count) files in \(out) from \(openAPI)")
    }
}
