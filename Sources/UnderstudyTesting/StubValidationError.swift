import Foundation

/// One problem the daemon found in a stub file.
public struct StubValidationError: Codable, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var path: String?
    public var message: String
    public var suggestion: String?

    public var description: String {
        "\(file ?? "<admin>"):\(line ?? 0):\(column ?? 0): \(message)" + (path.map { " (at \($0))" } ?? "")
    }
}
