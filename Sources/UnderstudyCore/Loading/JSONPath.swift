/// Builds the JSON paths errors name (`stubs[2].responses[0].status`, `headers.Retry-After`, `headers["Bad Name"]`).
enum JSONPath {
    static func member(_ parent: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || scalar == "$" || scalar == "-" || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
        }
        if plain { return parent.isEmpty ? key : "\(parent).\(key)" }
        var escaped = ""
        for character in key {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\(parent)[\"\(escaped)\"]"
    }

    static func element(_ parent: String, _ index: Int) -> String {
        "\(parent)[\(index)]"
    }
}
