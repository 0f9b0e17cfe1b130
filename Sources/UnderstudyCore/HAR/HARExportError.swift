/// A journal line `understudy har` could not convert.
public struct HARExportError: Error, CustomStringConvertible, Sendable {
    /// 1-based line number in the JSON Lines file.
    public var line: Int
    public var message: String

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
