/// A journal file that could not be opened.
public struct JournalFileError: Error, Sendable, CustomStringConvertible {
    /// The path that was being opened.
    public var path: String
    /// The `errno` from `open(2)`.
    public var errno: Int32
    /// The system's text for `errno`.
    public var message: String

    /// Creates an error.
    public init(path: String, errno: Int32, message: String) {
        self.path = path
        self.errno = errno
        self.message = message
    }

    public var description: String {
        "cannot open journal file \(path): \(message) (errno \(errno))"
    }
}
