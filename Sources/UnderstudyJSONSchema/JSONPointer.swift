import UnderstudyJSON

/// RFC 6901 JSON pointers, in the URI-fragment form OpenAPI and JSON Schema write them (`#/a/b~1c`).
public enum JSONPointer {
    /// `token` escaped for a pointer (`~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The unescaped tokens of `pointer` (with or without the leading `#`), percent-decoded as a URI
    /// fragment is; `nil` when it is not a pointer.
    public static func tokens(_ pointer: String) -> [String]? {
        var text = Substring(pointer)
        if text.hasPrefix("#") { text = text.dropFirst() }
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { return nil }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            String(token).removingPercentEncoding().replacingOccurrences(of: "~1", with: "/")
                .replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value `pointer` names in `document`, or `nil`.
    public static func resolve(_ pointer: String, in document: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members.first(where: { $0.key == token }) else { return nil }
                current = next.value
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension String {
    /// `self` with `%XX` sequences decoded (invalid sequences kept as written). `package`: the OpenAPI
    /// contract decodes query strings with it too (Foundation's `removingPercentEncoding` is not in
    /// FoundationEssentials, and the daemon links no full Foundation).
    package func removingPercentEncoding() -> String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
