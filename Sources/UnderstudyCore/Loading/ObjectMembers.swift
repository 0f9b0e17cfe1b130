import UnderstudyJSON

/// An object's known members by key, as ``StubDecoder/members(of:_:known:required:)`` returns them.
///
/// A stub file's objects have a handful of keys each, so a linear scan comparing short strings beats
/// a `Dictionary`: hashing a key (SipHash) cost about 350 instructions a lookup, and the decoder made
/// some 59 lookups and inserts a stub, a quarter of the instructions of loading 10 000 stubs
/// (callgrind, `scripts/bench --startup-callgrind`).
struct ObjectMembers {
    /// Keys as stored, which may differ from the member's own (the WireMock adapter files
    /// `jsonBody` under `json`).
    private var entries: [(key: String, member: JSONNode.Member)] = []

    init() {}

    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The member with this key, or nil; setting replaces it or appends it.
    subscript(key: String) -> JSONNode.Member? {
        get {
            // By index: iterating by value would retain and release every entry passed over.
            for index in entries.indices where Self.sameKey(entries[index].key, key) { return entries[index].member }
            return nil
        }
        set {
            let index = entries.firstIndex { Self.sameKey($0.key, key) }
            switch (index, newValue) {
            case (let index?, let member?): entries[index].member = member
            case (let index?, nil): entries.remove(at: index)
            case (nil, let member?): entries.append((key, member))
            case (nil, nil): break
            }
        }
    }

    /// `a == b`, comparing lengths first: keys compared against a list of known ones mostly differ,
    /// and most differ in length, which costs a few instructions to see where `==` is a call.
    @inline(__always)
    static func sameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    /// The first member kept, with its key (the only one when `count` is 1).
    var first: (key: String, value: JSONNode.Member)? {
        entries.first.map { ($0.key, $0.member) }
    }
}
