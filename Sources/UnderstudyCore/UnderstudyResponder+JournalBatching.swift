/// The daemon's responder batches the writes of its engine's journal sink.
extension UnderstudyResponder: JournalBatching {
    public func beginJournalBatch() {
        engine.beginJournalBatch()
    }

    public func endJournalBatch() {
        engine.endJournalBatch()
    }
}
