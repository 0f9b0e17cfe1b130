/// Forwards batches to the journal sink when it can batch (``JournalFileWriter`` can); other
/// sinks keep getting every line as it is made.
extension StubEngine: JournalBatching {
    public func beginJournalBatch() {
        (configuration.journalSink as? any JournalBatching)?.beginJournalBatch()
    }

    public func endJournalBatch() {
        (configuration.journalSink as? any JournalBatching)?.endJournalBatch()
    }
}
