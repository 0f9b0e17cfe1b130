import UnderstudyCore
import UnderstudyJSON

extension StubEngine {
    /// The stubs recording makes of this engine's journal after `since` (see ``StubRecorder``):
    /// what `understudy record` writes when it stops. Throws when an entry's body was cut.
    public func recordedStubs(options: RecordingOptions, since: Int = 0) throws(RecordingError) -> RecordedStubs {
        try StubRecorder.record(journal: journalEntries, options: options, since: since)
    }
}
