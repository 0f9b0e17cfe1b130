/// Checks, before anything is sent, that a base URL is one URLSession can send an HTTP request
/// to. Without this, `htp://…`, `http://` or `NOT A HOST` came back from URLSession as transport
/// errors (`URLError` −1002 or −1000), indistinguishable from a network failure.
enum BaseURLValidation {
    /// Why `url` cannot be a base URL, or `nil` when it can.
    static func problem(with url: URL) -> String? {
        guard let scheme = url.scheme else {
            return "it has no scheme: a base URL starts with http:// or https://"
        }
        guard ["http", "https"].contains(scheme.lowercased()) else {
            return "scheme `\(scheme)` is not http or https"
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            return "it has no host"
        }
        if let bad = host.unicodeScalars.first(where: { !isHostScalar($0, ipv6: host.contains(":")) }) {
            let what = bad == " " ? "a space" : "`\(bad.escaped(asASCII: true))`"
            return "host `\(host)` contains \(what), which a host name cannot have"
        }
        if let port = url.port, !(1...65_535).contains(port) {
            return "port \(port) is outside 1–65535"
        }
        return nil
    }

    /// Letters and digits (internationalised names included), `-`, `.`, `_`, `~`; for a bracketed
    /// IPv6 literal, hex digits, `:` and `.`.
    private static func isHostScalar(_ scalar: Unicode.Scalar, ipv6: Bool) -> Bool {
        if ipv6 { return scalar.properties.isASCIIHexDigit || scalar == ":" || scalar == "." }
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar)
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
