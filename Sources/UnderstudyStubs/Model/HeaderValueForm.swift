/// How a request header's value is put before its matcher sees it. Most headers are compared as
/// sent; a few carry values that HTTP defines as case-insensitive, and a client is free to send
/// them in any case (`Content-Type: APPLICATION/JSON`), so a stub written in lower case must still
/// match them.
public enum HeaderValueForm: Sendable, Equatable {
    /// The value as the client sent it (every header but those below).
    case asSent
    /// A media type or a list of them (native `Content-Type` and `Accept`): type, subtype and
    /// parameter names lowercased (RFC 9110 §8.3.1, §12.5.1), parameter values kept.
    case mediaType
    /// A list of tokens (native `Connection`): lowercased (RFC 9110 §7.6.1).
    case tokens
    /// A fixed set of values, each matched ignoring case and replaced by its spelling in the
    /// table, keyed by the lowercased value; any other value is left as sent. (WireMock roots:
    /// the values Jetty's parser hands WireMock in its own spelling.)
    case canonical([String: String])

    /// The form native stubs use for a header named `name`.
    public static func native(for name: String) -> HeaderValueForm {
        switch name.lowercased() {
        case "content-type", "accept": return .mediaType
        case "connection": return .tokens
        default: return .asSent
        }
    }

    /// The values as the matcher sees them.
    @inlinable
    public func normalize(_ values: [String]) -> [String] {
        if case .asSent = self { return values }
        return values.map(normalize)
    }

    /// One value as the matcher sees it.
    public func normalize(_ value: String) -> String {
        switch self {
        case .asSent: return value
        case .tokens: return value.lowercased()
        case .mediaType: return Self.lowercasingMediaTypeTokens(value)
        case .canonical(let table): return table[value.lowercased()] ?? value
        }
    }

    /// `matcher` with its exact values (`equals`, at any depth) put in this form, so that a native
    /// stub's `"Content-Type": "Application/JSON"` matches what `normalize` makes of a request's
    /// value. Other matchers see the normalised request value as they are written.
    public func normalizingLiterals(_ matcher: ValueMatcher) -> ValueMatcher {
        switch matcher {
        case .equals(let wanted): return .equals(normalize(wanted))
        case .allOf(let all): return .allOf(all.map(normalizingLiterals))
        case .anyOf(let any): return .anyOf(any.map(normalizingLiterals))
        case .not(let inner): return .not(normalizingLiterals(inner))
        default: return matcher
        }
    }

    /// `value` with every media type's type, subtype and parameter names lowercased, and the
    /// value of a `charset` parameter (charset names are case-insensitive too, RFC 9110 §8.3.2):
    /// the text of each comma-separated element up to its first `;`, and each parameter up to
    /// its `=`. Other parameter values (quoted strings included) are kept as written.
    static func lowercasingMediaTypeTokens(_ value: String) -> String {
        enum Place { case name, parameterValue, quoted, quotedEscape }
        var place = Place.name
        var parameterName = String.UnicodeScalarView()
        var lowercasingValue = false
        var out = String.UnicodeScalarView()
        func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 0x20)! : scalar
        }
        for scalar in value.unicodeScalars {
            switch place {
            case .name:
                if scalar == "=" {
                    place = .parameterValue
                    lowercasingValue = String(parameterName).trimmingSpaces == "charset"
                    parameterName = String.UnicodeScalarView()
                } else if scalar == ";" || scalar == "," {
                    parameterName = String.UnicodeScalarView()
                } else {
                    parameterName.append(lowered(scalar))
                }
                out.append(lowered(scalar))
                continue
            case .parameterValue:
                if scalar == "\"" {
                    place = .quoted
                } else if scalar == ";" || scalar == "," {
                    place = .name
                } else if lowercasingValue {
                    out.append(lowered(scalar))
                    continue
                }
            case .quoted:
                if scalar == "\\" { place = .quotedEscape } else if scalar == "\"" { place = .parameterValue }
            case .quotedEscape:
                place = .quoted
            }
            out.append(scalar)
        }
        return String(out)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
