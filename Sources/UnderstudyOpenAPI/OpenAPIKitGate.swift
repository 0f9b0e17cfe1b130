#if OpenAPI  // OpenAPIKit and Yams come with the OpenAPI trait; without it, WithoutOpenAPITrait.swift
import Foundation
import OpenAPIKit

/// OpenAPIKit's judgement of a 3.1 document: it decodes the whole document and says where it is not
/// OpenAPI. Understudy then checks stubs over the raw document (so every finding keeps its pointer),
/// but only once OpenAPIKit has accepted it.
enum OpenAPIKitGate31 {
    /// `nil` when the document decodes; else the problem and its coding path.
    static func problem(json: [UInt8]) -> (message: String, path: [String])? {
        do {
            // Without vendor extensions: decoding them is most of the time, and the one check they
            // bring, unknown keys, is `OpenAPIFieldCheck`'s.
            let decoder = JSONDecoder()
            decoder.userInfo[OpenAPIKit.VendorExtensionsConfiguration.enabledKey] = false
            _ = try decoder.decode(OpenAPIKit.OpenAPI.Document.self, from: Data(json))
            return nil
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            return (described.localizedDescription, described.codingPath.map(\.stringValue))
        }
    }
}
#endif
