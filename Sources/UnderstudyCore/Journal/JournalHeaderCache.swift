import UnderstudyHTTP

/// The `"headers"` JSON of request header lists that repeat, so a journal line copies it instead
/// of encoding the fields again.
///
/// A kept-alive client usually sends the same header block with every request, and the
/// transport then hands out the very same ``HTTPHeaders`` storage for each (its
/// `RequestHeaderBlockCache`): encoding those fields again (names lower-cased, repeated names
/// grouped, values escaped) was ~900 instructions of every request. Lists are told apart by the
/// address of their fields' storage. A list's JSON is kept only while the cache holds the list
/// itself: its storage can then be neither freed (and the address reused) nor changed in place
/// (copy-on-write sees a second owner), so an address that matches is the same fields. A list
/// is kept from its second line on; one seen once (a single request, an HTTP/2 stream's fresh
/// list) costs one remembered address.
///
/// Direct-mapped: 1 024 slots (32 KiB), a list's slot found from a hash of its address, so
/// lists of fifty kept-alive connections rarely share one (two lists in one slot take turns and
/// miss). Owned by one engine and used on its thread only; its storage is
/// `@exclusivity(unchecked)`, as the engine's is (an access check costs more than a hit).
final class JournalHeaderCache {
    private static let slotBits = 10

    private struct Slot {
        /// The list seen last in this slot but not kept.
        var seen: UnsafeRawPointer?
        /// The kept list's address, the list (holding its storage) and its JSON.
        var keptAddress: UnsafeRawPointer?
        var kept: [HTTPHeaders.Field] = []
        var json: [UInt8] = []
    }

    @exclusivity(unchecked) private var slots = [Slot](repeating: Slot(), count: 1 << JournalHeaderCache.slotBits)

    /// Appends `headers` as the journal's `{"name":[values…]}` object.
    func append(_ headers: HTTPHeaders, into out: JSONWriter) {
        let fields = headers.fields
        guard !fields.isEmpty, let address = fields.withUnsafeBufferPointer({ $0.baseAddress }) else {
            JournalEntry.encodeHeaders(headers, into: out)
            return
        }
        let key = UnsafeRawPointer(address)
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.slotBits))
        if slots[slot].keptAddress == key {
            slots[slot].json.withUnsafeBufferPointer { out.append($0) }
            return
        }
        let start = out.count
        JournalEntry.encodeHeaders(headers, into: out)
        guard slots[slot].seen == key else {
            slots[slot].seen = key
            return
        }
        // Seen twice: keep it (the list first, so its storage outlives the address kept).
        slots[slot].kept = fields
        slots[slot].keptAddress = key
        slots[slot].seen = nil
        out.copyBytes(from: start, into: &slots[slot].json)
    }
}
