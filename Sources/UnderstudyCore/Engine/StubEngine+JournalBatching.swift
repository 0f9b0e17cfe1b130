import UnderstudyHTTP

/// Callers that hold the engine alone (tests, embedders without a transport) batch its journal
/// file's writes here; the transport gets the sink's batching through ``TransportHooks`` instead.
extension StubEngine: JournalBatching {
    public func beginJournalBatch() {
        recorder.beginJournalBatch()
    }

    public func endJournalBatch() {
        recorder.endJournalBatch()
    }
}
