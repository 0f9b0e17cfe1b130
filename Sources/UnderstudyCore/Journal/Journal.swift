/// The in-memory request journal: a ring buffer capped at `limit` entries. When full, the oldest
/// entry is dropped and counted, so a long run cannot exhaust memory.
struct Journal {
    let limit: Int
    private var storage: [JournalEntry] = []
    /// Index of the oldest entry once the buffer has wrapped.
    private var start = 0
    /// Entries evicted by the cap since start or reset.
    private(set) var dropped = 0
    /// The seq the next entry gets.
    private(set) var nextSeq = 1

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int { storage.count }

    /// Adds `entry`, which must carry ``nextSeq`` (the journal hands out each seq once, in order).
    mutating func append(_ entry: consuming JournalEntry) {
        precondition(entry.seq == nextSeq, "journal entries are appended in seq order")
        nextSeq += 1
        if storage.count < limit {
            storage.append(entry)
        } else {
            storage[start] = entry
            start = start + 1 == limit ? 0 : start + 1
            dropped += 1
        }
    }

    /// When the journal is full, the line of the entry the next ``append(_:)`` evicts, moved out
    /// so its storage can carry the next line (that entry's `line` is left empty until then);
    /// else an empty array.
    mutating func takeLineToEvict() -> [UInt8] {
        guard storage.count == limit else { return [] }
        var line: [UInt8] = []
        swap(&line, &storage[start].line)
        return line
    }

    /// Entries in ascending `seq`.
    var entries: [JournalEntry] {
        start == 0 ? storage : Array(storage[start...] + storage[..<start])
    }

    /// Visits entries in ascending `seq` without copying them out.
    func forEach(_ body: (JournalEntry) -> Void) {
        for i in 0..<storage.count {
            body(storage[(start + i) % storage.count])
        }
    }

    /// Drops every entry; `seq` keeps counting so a client polling with `since` is not confused.
    mutating func clear() -> Int {
        let cleared = storage.count
        storage.removeAll(keepingCapacity: true)
        start = 0
        return cleared
    }

    /// Back to the start: empty, `seq` from 1, nothing dropped.
    mutating func reset() {
        _ = clear()
        dropped = 0
        nextSeq = 1
    }
}
