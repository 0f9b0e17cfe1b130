#if OpenAPI  // OpenAPIKit and Yams come with the OpenAPI trait; without it, WithoutOpenAPITrait.swift
import Foundation
import OpenAPIKit30

/// OpenAPIKit's judgement of a 3.0 document (its `OpenAPIKit30` module); see ``OpenAPIKitGate31``.
enum OpenAPIKitGate30 {
    /// `nil` when the document decodes; else the problem and its coding path.
    static func problem(json: [UInt8]) -> (message: String, path: [String])? {
        do {
            // Without vendor extensions: decoding them is most of the time, and the one check they
            // bring, unknown keys, is `OpenAPIFieldCheck`'s.
            let decoder = JSONDecoder()
            decoder.userInfo[OpenAPIKit30.VendorExtensionsConfiguration.enabledKey] = false
            _ = try decoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: Data(json))
            return nil
        } catch {
            let described = OpenAPIKit30.OpenAPI.Error(from: error)
            return (described.localizedDescription, described.codingPath.map(\.stringValue))
        }
    }
}
#endif
