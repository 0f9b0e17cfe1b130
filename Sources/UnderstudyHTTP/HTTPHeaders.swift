/// An ordered list of header fields. Order and repeated names are kept because both the journal
/// and stub responses promise to preserve them; lookups compare names case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name with the case it was sent or written in (lookups ignore case).
        public var name: String
        /// The field value, as the request sent it or the stub wrote it.
        public var value: String
        /// A field as given: nothing is validated or normalised.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates a header list from fields in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with a single field holding `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        removeAll(named: name)
        append(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func removeAll(named name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The first value for `name`, compared case-insensitively.
    @inlinable
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value for `name`, in order.
    @inlinable
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether any field is named `name`.
    @inlinable
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// The fields with every `cookie` field joined into one, at the first one's place, their values
    /// separated by `"; "`: what RFC 9113 §8.2.3 has an HTTP/2 server do with the split `cookie`
    /// fields a client may send (one per cookie pair) before handing the request on as one field.
    /// Unchanged when there is at most one `cookie` field.
    public func joiningCookieFields() -> HTTPHeaders {
        var first: Int?
        var joined = ""
        var repeated = false
        for (index, field) in fields.enumerated() where Self.namesMatch(field.name, "cookie") {
            if first == nil {
                first = index
                joined = field.value
            } else {
                repeated = true
                joined += "; " + field.value
            }
        }
        guard repeated, let first else { return self }
        var out: [Field] = []
        out.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            if index == first {
                out.append(Field(name: field.name, value: joined))
            } else if !Self.namesMatch(field.name, "cookie") {
                out.append(field)
            }
        }
        return HTTPHeaders(out)
    }

    /// How many fields there are, each repeat of a name counted.
    @inlinable
    public var count: Int { fields.count }

    @inlinable
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison, as HTTP field names require; avoids Foundation on the hot path.
    /// Native strings (every name a request or stub brings) are compared in their contiguous UTF-8:
    /// `zip` over the two UTF-8 views stepped String indices, ~120 instructions a byte (callgrind,
    /// `scripts/bench --replay`: 1,900 of a replay's instructions went to one `Idempotency-Key` lookup).
    @inlinable
    public static func namesMatch(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        if let compared = x.withContiguousStorageIfAvailable({ p in
            y.withContiguousStorageIfAvailable { q in bytesMatch(p, q) }
        }), let matched = compared {
            return matched
        }
        for (p, q) in zip(x, y) where p != q {
            let lp = (p >= 65 && p <= 90) ? p + 32 : p
            let lq = (q >= 65 && q <= 90) ? q + 32 : q
            if lp != lq { return false }
        }
        return true
    }

    /// ``namesMatch(_:_:)`` over two UTF-8 buffers of the same length.
    @inlinable
    static func bytesMatch(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<x.count where x[index] != y[index] {
            let p = x[index], q = y[index]
            let lp = (p >= 65 && p <= 90) ? p + 32 : p
            let lq = (q >= 65 && q <= 90) ? q + 32 : q
            if lp != lq { return false }
        }
        return true
    }
}
