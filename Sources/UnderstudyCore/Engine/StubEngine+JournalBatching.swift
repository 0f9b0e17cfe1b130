/// Forwards batches to the journal sink when it can batch (``JournalFileWriter`` can); other
/// sinks keep getting every line as it is made.
extension StubEngine: JournalBatching {
    public func beginJournalBatch() {
        sinkBatching?.beginJournalBatch()
    }

    public func endJournalBatch() {
        sinkBatching?.endJournalBatch()
    }
}
