/// Receives each journal entry as one line of JSON (the object followed by `"\n"`), synchronously,
/// before the response for that request is returned. The engine encodes the line once and shares
/// the bytes between the in-memory journal and the sink.
public protocol JournalSink: AnyObject {
    /// Writes one encoded entry, newline included.
    func write(line: [UInt8])
}
