import Foundation
import OpenAPIKit

/// OpenAPIKit's judgement of a 3.1 document: it decodes the whole document and says where it is not
/// OpenAPI. Understudy then checks stubs over the raw document (so every finding keeps its pointer),
/// but only once OpenAPIKit has accepted it.
enum OpenAPIKitGate31 {
    /// `nil` when the document decodes; else the problem and its coding path.
    static func problem(json: [UInt8]) -> (message: String, path: [String])? {
        do {
            _ = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: Data(json))
            return nil
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            return (described.localizedDescription, described.codingPath.map(\.stringValue))
        }
    }
}
