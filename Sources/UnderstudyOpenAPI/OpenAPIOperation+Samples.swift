import UnderstudyJSON
import UnderstudyOpenAPIContract

/// Sample concrete paths of an operation's template, for stubs that give a path regex.
extension OpenAPIOperation {
    /// Concrete paths this template stands for, with sample values for its parameters (for
    /// stubs that give a path regex rather than a path): first each parameter's own `enum`,
    /// `example` or `default`, then common shapes of ids.
    func samplePaths() -> [String] {
        let samples = ["", "1", "42", "abc", "a1b2c3", "00000000-0000-0000-0000-000000000000", "2024-01-01", "x"]
        return samples.map { sample in
            filledPath { sample.isEmpty ? declaredSample($0) ?? "1" : sample }
        }
    }

    /// The path template with each `{name}` replaced by `value(name)`; text outside braces kept.
    func filledPath(_ value: (String) -> String) -> String {
        var text = ""
        var name: String?
        for character in path {
            if var current = name {
                if character == "}" {
                    text += value(current)
                    name = nil
                } else {
                    current.append(character)
                    name = current
                }
            } else if character == "{" {
                name = ""
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// The path parameter's `enum[0]`, `example` or `default` (its own or its schema's).
    func declaredSample(_ name: String) -> String? {
        guard
            let parameter = parameters.first(where: {
                $0["name"]?.stringValue == name && $0["in"]?.stringValue == "path"
            })
        else { return nil }
        let schema = parameter["schema"]
        let candidates: [JSONValue?] = [
            { if case .array(let values)? = schema?["enum"] { values.first } else { nil } }(),
            parameter["example"], schema?["example"], schema?["default"],
        ]
        guard let value = candidates.compactMap({ $0 }).first else { return nil }
        return value.stringValue ?? value.jsonText
    }

}
