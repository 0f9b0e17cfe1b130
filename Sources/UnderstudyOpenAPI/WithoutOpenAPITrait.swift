#if !OpenAPI
import UnderstudyJSON

// Built without the package's OpenAPI trait (Package.swift): OpenAPIKit and Yams are not in the graph,
// so the three types that use them are replaced by ones that refuse. `understudy-openapi` says so and
// exits before reaching them (main.swift); these only keep the module compiling.

/// Stands in for OpenAPIKit's 3.1 judgement when the OpenAPI trait is off.
enum OpenAPIKitGate31 {
    /// Always a problem: the document cannot be judged without OpenAPIKit.
    static func problem(json: [UInt8]) -> (message: String, path: [String])? {
        (OpenAPITrait.missing, [])
    }
}

/// Stands in for OpenAPIKit's 3.0 judgement when the OpenAPI trait is off.
enum OpenAPIKitGate30 {
    /// Always a problem: the document cannot be judged without OpenAPIKit.
    static func problem(json: [UInt8]) -> (message: String, path: [String])? {
        (OpenAPITrait.missing, [])
    }
}

/// Stands in for the JSON and YAML spec reader when the OpenAPI trait is off.
enum SpecDocumentParser {
    /// Always throws: without Yams no spec is read.
    static func parse(_ bytes: [UInt8], file: String) throws(OpenAPIFinding) -> JSONNode {
        throw OpenAPIFinding(file: file, position: SourcePosition(line: 1, column: 1), message: OpenAPITrait.missing)
    }
}
#endif

/// Whether this build has the package's OpenAPI trait (OpenAPIKit and Yams), and what to do if not.
package enum OpenAPITrait {
    /// `true` when built with the OpenAPI trait.
    #if OpenAPI
    package static let isEnabled = true
    #else
    package static let isEnabled = false
    #endif

    /// The message for a build without it.
    package static let missing =
        "understudy-openapi was built without the OpenAPI trait (OpenAPIKit, Yams): build it with "
        + "`swift build --traits OpenAPI --product understudy-openapi` (docs/openapi.md)"
}
