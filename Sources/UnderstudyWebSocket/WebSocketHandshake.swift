/// The pure parts of the opening handshake (RFC 6455 §4.2): judging an HTTP/1.1 upgrade request's
/// headers, choosing a subprotocol and computing `Sec-WebSocket-Accept`. The transport reads the
/// request and writes the 101; this type only decides.
///
/// SHA-1 is not written here: ``acceptValue(forKey:sha1:)`` takes the digest as a function (the
/// transport passes OpenSSL's), so the package holds no hand-written crypto and the daemon no new
/// dependency.
public enum WebSocketHandshake {
    /// The GUID §1.3 appends to the key before hashing.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The only version RFC 6455 defines; another gets 426 with `Sec-WebSocket-Version: 13`.
    public static let version = "13"

    /// Judges an upgrade request (§4.2.1): a GET whose `Upgrade` lists `websocket`, whose
    /// `Connection` lists `Upgrade` (tokens, case-insensitive), with `Sec-WebSocket-Version: 13`
    /// and exactly one `Sec-WebSocket-Key` that is base64 for 16 bytes. Header names are matched
    /// case-insensitively; a field given on several lines counts as one comma-separated list.
    public static func validate(
        method: String, headers: [(name: String, value: String)]
    ) throws(WebSocketHandshakeError) -> WebSocketUpgradeRequest {
        guard method == "GET" else { throw .methodNotGET(method) }
        func values(_ name: String) -> [String] {
            headers.filter { asciiLowercased($0.name) == asciiLowercased(name) }.map(\.value)
        }
        func tokens(_ name: String) -> [String] { values(name).flatMap(commaList) }
        guard tokens("Upgrade").contains(where: { asciiLowercased($0) == "websocket" }) else {
            throw .missingUpgradeWebSocket
        }
        guard tokens("Connection").contains(where: { asciiLowercased($0) == "upgrade" }) else {
            throw .missingConnectionUpgrade
        }
        let versions = values("Sec-WebSocket-Version").map(trimmed)
        guard versions == [version] else { throw .unsupportedVersion(versions.first) }
        let keys = values("Sec-WebSocket-Key").map(trimmed)
        guard keys.count == 1, let key = keys.first else { throw keys.isEmpty ? .missingKey : .duplicateKey }
        guard Base64.isSixteenByteKey(key) else { throw .invalidKey(key) }
        return WebSocketUpgradeRequest(
            key: key, subprotocols: tokens("Sec-WebSocket-Protocol"),
            extensions: tokens("Sec-WebSocket-Extensions").map { trimmed(String($0.prefix { $0 != ";" })) })
    }

    /// `Sec-WebSocket-Accept` for `key` (§4.2.2): base64 of SHA-1 over the key and ``guid``.
    /// - Parameter sha1: SHA-1 of its input (20 bytes); the transport passes OpenSSL's.
    public static func acceptValue(forKey key: String, sha1: ([UInt8]) -> [UInt8]) -> String {
        Base64.encode(sha1(Array((key + guid).utf8)))
    }

    /// The subprotocol to answer with: the first of the server's `supported` (its preference order)
    /// that the client offered, compared exactly (subprotocol names are case-sensitive); nil when
    /// none is shared, and the response then carries no `Sec-WebSocket-Protocol` (§4.2.2).
    public static func selectSubprotocol(offered: [String], supported: [String]) -> String? {
        supported.first { offered.contains($0) }
    }

    /// The 101 response's headers beyond the status line: `Upgrade`, `Connection`,
    /// `Sec-WebSocket-Accept` and, when one was chosen, `Sec-WebSocket-Protocol`.
    public static func responseHeaders(accept: String, subprotocol: String?) -> [(name: String, value: String)] {
        var headers = [
            (name: "Upgrade", value: "websocket"), (name: "Connection", value: "Upgrade"),
            (name: "Sec-WebSocket-Accept", value: accept),
        ]
        if let subprotocol { headers.append((name: "Sec-WebSocket-Protocol", value: subprotocol)) }
        return headers
    }

    private static func commaList(_ value: String) -> [String] {
        value.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// A valid upgrade request: what the server needs from it to answer.
public struct WebSocketUpgradeRequest: Equatable, Sendable {
    /// `Sec-WebSocket-Key`, as sent (base64 for 16 bytes).
    public var key: String
    /// `Sec-WebSocket-Protocol`'s tokens in the client's order.
    public var subprotocols: [String]
    /// The extension names `Sec-WebSocket-Extensions` offers, parameters dropped
    /// (`permessage-deflate` when the client can compress).
    public var extensions: [String]
}

/// Why an upgrade request was refused, and the status to refuse it with (§4.2.2: 400, or 426 with
/// `Sec-WebSocket-Version: 13` for a version the server does not speak).
public enum WebSocketHandshakeError: Error, Equatable, Sendable {
    /// The method is not GET.
    case methodNotGET(String)
    /// `Upgrade` does not list `websocket`.
    case missingUpgradeWebSocket
    /// `Connection` does not list `Upgrade`.
    case missingConnectionUpgrade
    /// `Sec-WebSocket-Version` is missing (nil), repeated or not 13.
    case unsupportedVersion(String?)
    /// No `Sec-WebSocket-Key`.
    case missingKey
    /// More than one `Sec-WebSocket-Key`.
    case duplicateKey
    /// A `Sec-WebSocket-Key` that is not base64 for 16 bytes.
    case invalidKey(String)

    /// The HTTP status to answer with: 426 Upgrade Required for a version, else 400.
    public var status: Int {
        if case .unsupportedVersion = self { return 426 }
        return 400
    }
}
