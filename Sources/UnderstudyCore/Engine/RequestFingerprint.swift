/// What makes two requests with one idempotency key "the same request": method, path and body,
/// the body compared as its `Content-Type` reads (JSON by value, so member order and number
/// spelling do not matter; a form by its fields, so their order does not, while a repeated
/// field's values keep theirs; anything else byte for byte).
struct RequestFingerprint: Equatable {
    /// How the body is compared.
    enum Body: Equatable {
        case json(JSONValue)
        /// Decoded fields, sorted by name (stable, so repeated fields keep their order).
        case form([FormField])
        case bytes([UInt8])

        static func == (lhs: Body, rhs: Body) -> Bool {
            switch (lhs, rhs) {
            case (.json(let a), .json(let b)): return a.semanticallyEquals(b)
            case (.form(let a), .form(let b)): return a == b
            case (.bytes(let a), .bytes(let b)): return a == b
            default: return false
            }
        }
    }

    /// One decoded form field.
    struct FormField: Equatable {
        var name: String
        var value: String
    }

    var method: String
    var path: String
    var body: Body

    /// The request's fingerprint; its JSON body is the one matching already parsed, if any.
    init(_ context: MatchContext) {
        let request = context.request
        method = request.method
        path = request.path
        // Read as bytes: `String.contains` built a substring searcher (a hashed table of Characters)
        // for every request, 9,400 instructions of a replay's 35,000 (`scripts/bench --replay`).
        let type = request.headers["Content-Type"].map { Array($0.utf8) } ?? []
        if Self.contains(type, "json"), let json = context.bodyJSON {
            body = .json(json)
        } else if Self.hasPrefix(type, "application/x-www-form-urlencoded")
            || Self.hasPrefix(type, "multipart/form-data")
        {
            // Multipart by its fields too: each client picks its own boundary.
            let fields = FormBody.pairs(context).enumerated().sorted { a, b in
                a.element.name != b.element.name ? a.element.name < b.element.name : a.offset < b.offset
            }
            body = .form(fields.map { FormField(name: $0.element.name, value: $0.element.value) })
        } else {
            body = .bytes(request.body)
        }
    }

    /// Whether `bytes` start with the lower-case ASCII `prefix`, in any case.
    private static func hasPrefix(_ bytes: [UInt8], _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let pattern = prefix.utf8Start
        for index in 0..<count where lowered(bytes[index]) != pattern[index] { return false }
        return true
    }

    /// Whether `bytes` contain the lower-case ASCII `needle`, in any case.
    private static func contains(_ bytes: [UInt8], _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let pattern = needle.utf8Start
        outer: for start in 0...(bytes.count - count) {
            for index in 0..<count where lowered(bytes[start + index]) != pattern[index] { continue outer }
            return true
        }
        return false
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// What differs from `other`, for the mismatch's problem body.
    func difference(from other: RequestFingerprint) -> String {
        if method != other.method || path != other.path {
            return "it was first used for \(other.method) \(other.path), not \(method) \(path)"
        }
        return "it was first used with a different request body"
    }
}
