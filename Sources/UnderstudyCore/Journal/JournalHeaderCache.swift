#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyHTTP

/// The `"headers"` JSON of request header lists that repeat, and of the response head that
/// repeats (see ``append(_:into:)-(UnsafeBufferPointer<RawHeaderField>,_)``), so a journal line
/// copies it instead of encoding the fields again.
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

    // MARK: - Response heads

    // The response's `"headers"` object, from the head the transport wrote (``RawHeaderField``s):
    // a static answer's head is the same bytes on every request but for `Date`, which changes once a
    // second, so its JSON is kept and copied while the next head's fields are byte for byte the
    // same (names lower-cased and values escaped again was ~600 instructions of every request in
    // the callgrind gate). One head is kept, the last one seen twice in a row (by its field
    // lengths), so responses that take turns cost a length sum and a comparison, not a copy each.

    /// The kept head's names and values, one after the other, and each one's length.
    @exclusivity(unchecked) private var headBytes: [UInt8] = []
    @exclusivity(unchecked) private var headLengths: [Int] = []
    /// The kept head's JSON.
    @exclusivity(unchecked) private var headJSON: [UInt8] = []
    /// The field lengths' signature of the last head that was not the kept one.
    @exclusivity(unchecked) private var missedSignature = -1

    /// Appends the response head's fields as the journal's `{"name":[values…]}` object.
    func append(_ fields: UnsafeBufferPointer<RawHeaderField>, into out: JSONWriter) {
        if keptHeadMatches(fields) {
            headJSON.withUnsafeBufferPointer { out.append($0) }
            return
        }
        let start = out.count
        JournalEntry.encodeHeaders(fields, into: out)
        var signature = fields.count
        for field in fields { signature = signature &* 31 &+ field.name.count &* 7 &+ field.value.count }
        guard signature == missedSignature else {
            missedSignature = signature
            return
        }
        // The second head in a row with these lengths: keep it.
        headBytes.removeAll(keepingCapacity: true)
        headLengths.removeAll(keepingCapacity: true)
        for field in fields {
            headBytes.append(contentsOf: field.name)
            headBytes.append(contentsOf: field.value)
            headLengths.append(field.name.count)
            headLengths.append(field.value.count)
        }
        out.copyBytes(from: start, into: &headJSON)
        missedSignature = -1
    }

    /// Whether `fields` are the kept head's, name for name and value for value.
    private func keptHeadMatches(_ fields: UnsafeBufferPointer<RawHeaderField>) -> Bool {
        guard headLengths.count == fields.count &* 2, !headLengths.isEmpty else { return false }
        return headBytes.withUnsafeBufferPointer { kept in
            guard var next = kept.baseAddress else { return false }
            for index in 0..<fields.count {
                let field = fields[index]
                guard headLengths[index &* 2] == field.name.count, headLengths[index &* 2 &+ 1] == field.value.count,
                    Self.same(next, field.name), Self.same(next + field.name.count, field.value)
                else { return false }
                next += field.name.count &+ field.value.count
            }
            return true
        }
    }

    /// Whether `bytes` are the bytes at `kept`.
    private static func same(_ kept: UnsafePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return true }
        return memcmp(kept, start, bytes.count) == 0
    }
}
