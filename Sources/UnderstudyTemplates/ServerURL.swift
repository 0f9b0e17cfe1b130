/// The base URL `{{server.url}}` renders: the listener's URL, with the host the client used when
/// that host names this server.
///
/// The transport knows its listener as `http://127.0.0.1:PORT`, but a client that called
/// `localhost:PORT` or `[::1]:PORT` and checks that `Link` URLs are same-origin would refuse one
/// that says `127.0.0.1`. So when the request's `Host` is a loopback name or address (`localhost`,
/// a name under `.localhost`, `127.x.y.z`, `[::1]`) with the listener's port, that host is used;
/// any other `Host` (another name, another port, none) gets the listener's own address, so a
/// request can never steer the URL away from this server.
enum ServerURL {
    /// `listenerURL` (`scheme://host:port`) with its host replaced by the one in `hostHeader`
    /// when that names this server.
    static func arrivedOn(_ listenerURL: String, hostHeader: String?) -> String {
        guard let hostHeader, let (scheme, listenerPort) = schemeAndPort(listenerURL),
            let (name, port) = splitHostPort(hostHeader), isLoopback(name),
            (port ?? (scheme == "https" ? 443 : 80)) == listenerPort
        else { return listenerURL }
        return scheme + "://" + hostHeader
    }

    /// `("http", 8080)` from `http://127.0.0.1:8080`.
    static func schemeAndPort(_ url: String) -> (scheme: String, port: Int)? {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let scheme = String(url[..<separator.lowerBound])
        let authority = url[separator.upperBound...].prefix { $0 != "/" }
        guard let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"),
            let port = Int(authority[authority.index(after: colon)...])
        else { return nil }
        return (scheme, port)
    }

    /// `("localhost", 8080)` from `localhost:8080`, `("[::1]", nil)` from `[::1]`; nil for a
    /// malformed host (a port that is not digits, an unclosed bracket).
    static func splitHostPort(_ host: String) -> (name: String, port: Int?)? {
        var name = Substring(host)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            name = host[...close]
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            name = host[..<colon]
            portText = host[host.index(after: colon)...]
        }
        guard let portText else { return (String(name), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText)
        else { return nil }
        return (String(name), port)
    }

    /// Loopback by name or address, as every resolver and RFC 6761 treat `localhost`.
    static func isLoopback(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "localhost" || lower == "localhost." { return true }
        if lower.hasSuffix(".localhost") || lower.hasSuffix(".localhost.") {
            // Only letters, digits, hyphens and dots: the name goes into a URL as it is.
            return lower.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        }
        if lower == "[::1]" || lower == "[0:0:0:0:0:0:0:1]" { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy {
                !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } && Int($0)! <= 255
            }
    }
}
