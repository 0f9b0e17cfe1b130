import UnderstudyHTTP

/// One journaled request and how it was answered. The JSON line is encoded once, when the entry
/// is made, and the same bytes serve the in-memory journal, the admin API and the JSONL file.
public struct JournalEntry: Sendable {
    /// How much of a body an entry keeps by default: 4 KiB, enough for the bodies stubs usually
    /// send while bounding the in-memory journal (``EngineConfiguration/journalBodyLimit``).
    public static let defaultBodyLimit = 4096

    /// 1, 2, … in the order entries were written, since the engine started or was last reset.
    public var seq: Int
    /// The request as received.
    public var request: HTTPRequest
    /// Whether a stub answered (false for unmatched and transport-rejected requests).
    public var matched: Bool
    /// The stub that answered (or rate-limited) it.
    public var stubID: String?
    /// The status line sent, or nil when none was (a fault before the head, a client that left,
    /// a shutdown).
    public var status: Int?
    /// How the request ended on the wire.
    public var outcome: ReplyOutcome
    /// Whether the stub's rate limit refused it.
    public var rateLimited: Bool
    /// The entry as one line of JSON Lines: the object followed by `"\n"`, exactly the bytes the
    /// journal sink was given.
    public var line: [UInt8]

    /// The entry as one JSON object, without the trailing newline.
    public var json: ArraySlice<UInt8> { line.dropLast() }
}
