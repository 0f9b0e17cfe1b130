import UnderstudyHTTP

/// What the header blocks one stub has seen lately say for its idempotency rule: the key they
/// carry and whether they send a `Content-Type`, remembered by the block's identity.
///
/// A kept-alive connection hands the engine the very same ``HTTPHeaders`` storage for every
/// request that repeats its header block (the transport's `RequestHeaderBlockCache`), and a
/// retry repeats its block: finding the block by its address costs a few compares, where
/// scanning the fields for the key header and again for `Content-Type` compared every name twice
/// (~900 instructions a replay, `scripts/bench --replay`). A few slots, searched in turn and
/// replaced in turn, so that connections retrying at once do not evict each other (slots chosen
/// by the address's hash did: two of the bench's four connections often shared one). Each slot
/// holds its list, so its address cannot be another list's while it is remembered, and a held
/// list is never changed in place (a change copies it first).
struct KeyHeaderReadings {
    /// What one header block says.
    struct Reading {
        /// The key sent (see ``StubEngine/idempotencyKey(_:)``); nil when the header is missing or empty.
        let key: String?
        /// Whether the block has a `Content-Type` field (see ``IdempotencyStore/Entry/isSameRequest(_:_:sendsContentType:)``).
        let sendsContentType: Bool
    }

    private struct Slot {
        var fields: [HTTPHeaders.Field] = []
        var address: UnsafeRawPointer?
        var reading = Reading(key: nil, sendsContentType: false)
    }

    private static let slotCount = 8
    private var slots = [Slot](repeating: Slot(), count: KeyHeaderReadings.slotCount)
    /// The slot the next block read takes.
    private var next = 0

    /// What `headers` say for the rule whose key travels in `keyHeader`.
    mutating func reading(_ headers: HTTPHeaders, keyHeader: String) -> Reading {
        let fields = headers.fields
        guard !fields.isEmpty, let address = fields.withUnsafeBufferPointer({ $0.baseAddress }) else {
            return Reading(key: nil, sendsContentType: false)
        }
        let identity = UnsafeRawPointer(address)
        let found = slots.withUnsafeBufferPointer { slots in
            slots.firstIndex { $0.address == identity }.map { slots[$0].reading }
        }
        if let found { return found }
        let reading = Self.read(fields, keyHeader: keyHeader)
        slots[next] = Slot(fields: fields, address: identity, reading: reading)
        next = next == Self.slotCount - 1 ? 0 : next + 1
        return reading
    }

    /// The first `keyHeader` field's key, as `headers[keyHeader]` finds it, and whether any field
    /// is a `Content-Type`, in one pass.
    static func read(_ fields: [HTTPHeaders.Field], keyHeader: String) -> Reading {
        var key: String?
        var keyFound = false
        var sendsContentType = false
        for field in fields {
            if !keyFound, HTTPHeaders.namesMatch(field.name, keyHeader) {
                keyFound = true
                key = StubEngine.idempotencyKey(field.value)
            }
            if !sendsContentType, HTTPHeaders.namesMatch(field.name, "Content-Type") { sendsContentType = true }
        }
        return Reading(key: key, sendsContentType: sendsContentType)
    }
}
