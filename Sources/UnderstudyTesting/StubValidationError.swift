import Foundation

/// One problem the daemon found in a stub file.
public struct StubValidationError: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The stub file (`<admin>` for stubs sent over the admin API).
    public var file: String?
    /// The line of the problem, from 1.
    public var line: Int?
    /// The column of the problem, from 1.
    public var column: Int?
    /// The JSON path of the problem (`stubs[0].responses[1].status`).
    public var path: String?
    /// What is wrong.
    public var message: String
    /// The likely fix, for a misspelt key (`did you mean 'status'?`).
    public var suggestion: String?

    public var description: String {
        "\(file ?? "<admin>"):\(line ?? 0):\(column ?? 0): \(message)" + (path.map { " (at \($0))" } ?? "")
    }
}
