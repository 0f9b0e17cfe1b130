import UnderstudyJSON

/// An object's known members by key, as ``StubDecoder/members(of:_:known:required:)`` returns them.
///
/// A stub file's objects have a handful of keys each, so a linear scan comparing short strings beats
/// a `Dictionary`: hashing a key (SipHash) cost about 350 instructions a lookup, and the decoder made
/// some 59 lookups and inserts a stub, a quarter of the instructions of loading 10 000 stubs
/// (callgrind, `scripts/bench --startup-callgrind`).
package struct ObjectMembers {
    /// The keys as stored, which may differ from a member's own: the WireMock adapter files
    /// `jsonBody` under `json`. Two arrays, not one of `(key, member)` tuples: an array of tuples is
    /// copied through the runtime's generic tuple witnesses, which cost more than the hashing saved.
    private var keys: [String] = []
    private var members: [JSONNode.Member] = []

    package init() {}

    init(capacity: Int) {
        keys.reserveCapacity(capacity)
        members.reserveCapacity(capacity)
    }

    /// The member with this key, or nil; setting replaces it or appends it.
    package subscript(key: String) -> JSONNode.Member? {
        get {
            guard let index = index(of: key) else { return nil }
            return members[index]
        }
        set {
            switch (index(of: key), newValue) {
            case (let index?, let member?):
                members[index] = member
            case (let index?, nil):
                keys.remove(at: index)
                members.remove(at: index)
            case (nil, let member?):
                keys.append(key)
                members.append(member)
            case (nil, nil):
                break
            }
        }
    }

    private func index(of key: String) -> Int? {
        for index in keys.indices where Self.sameKey(keys[index], key) { return index }
        return nil
    }

    /// `a == b`, comparing lengths first: keys compared against a list of known ones mostly differ,
    /// and most differ in length, which costs a few instructions to see where `==` is a call.
    @inline(__always)
    static func sameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }
    /// The first member kept, with its key (the only one when `count` is 1).
    var first: (key: String, value: JSONNode.Member)? {
        keys.isEmpty ? nil : (keys[0], members[0])
    }
}
