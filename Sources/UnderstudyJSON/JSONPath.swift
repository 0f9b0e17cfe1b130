/// Where a value sits in a stub document: `stubs[2].responses[0].status`, `headers.Retry-After`,
/// `headers["Bad Name"]` (`""` for the root).
///
/// Decoding makes one for every value it visits, but only an error needs the text, so a path is a
/// link to its parent plus one step and ``text`` is built on demand.
package final class JSONPath: Sendable {
    private enum Step: Sendable {
        case root
        case literal(String)
        case member(String)
        case element(Int)
    }

    private let parent: JSONPath?
    private let step: Step

    /// The document itself.
    package static let root = JSONPath(parent: nil, step: .root)

    /// A path given as text, for callers that start decoding below the root.
    package convenience init(text: String) {
        self.init(parent: nil, step: .literal(text))
    }

    private init(parent: JSONPath?, step: Step) {
        self.parent = parent
        self.step = step
    }

    /// The path of the member `key` of the object at this path.
    package func member(_ key: String) -> JSONPath {
        JSONPath(parent: self, step: .member(key))
    }

    /// The path of element `index` of the array at this path.
    package func element(_ index: Int) -> JSONPath {
        JSONPath(parent: self, step: .element(index))
    }

    /// The path as errors show it.
    package var text: String {
        switch step {
        case .root: return ""
        case .literal(let text): return text
        case .member(let key): return Self.member(parent?.text ?? "", key)
        case .element(let index): return Self.element(parent?.text ?? "", index)
        }
    }

    /// Appends member `key` to a path's text, quoting keys that are not plain identifiers.
    package static func member(_ parent: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                scalar == "_" || scalar == "$" || scalar == "-"
                    || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
            }
        if plain { return parent.isEmpty ? key : "\(parent).\(key)" }
        var escaped = ""
        for character in key {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\(parent)[\"\(escaped)\"]"
    }

    /// Appends element `index` to a path's text.
    package static func element(_ parent: String, _ index: Int) -> String {
        "\(parent)[\(index)]"
    }
}
