extension LoopbackHTTPResponse {
    /// Parses a whole response: every byte the server sent on a `Connection: close` exchange, up to
    /// its close.
    ///
    /// The body is framed as RFC 9112 §6.3 says: none for a `HEAD` request, a 1xx, 204 or 304;
    /// chunked when `Transfer-Encoding` ends in `chunked` (extensions and trailer fields are read
    /// and dropped); `Content-Length` bytes when there is one (bytes past it are ignored); else
    /// everything up to the close. Interim 1xx responses before the final one are skipped.
    ///
    /// - Parameters:
    ///   - bytes: what the server sent, from its first byte to the close.
    ///   - requestMethod: the request's method (a `HEAD` response has no body).
    /// - Throws: ``LoopbackHTTPError/malformedResponse(_:)`` when the bytes are not an HTTP/1.x
    ///   response, ``LoopbackHTTPError/truncatedResponse(_:)`` when they stop before it is whole.
    public init(parsing bytes: [UInt8], requestMethod: String = "GET") throws(LoopbackHTTPError) {
        var start = 0
        while true {
            guard let headEnd = Self.find([13, 10, 13, 10], in: bytes[...], from: start) else {
                throw bytes.count == start
                    ? .truncatedResponse("the connection closed without a response")
                    : .truncatedResponse(
                        "the connection closed inside the response head (\(bytes.count - start) bytes, no blank line)")
            }
            let head = try Self.parseHead(bytes[start..<headEnd])
            start = headEnd + 4
            // An interim response (100 Continue, 103 Early Hints) precedes the real one; 101 ends HTTP.
            if (100...199).contains(head.status) && head.status != 101 { continue }
            let body = try Self.body(of: head, in: bytes[start...], requestMethod: requestMethod)
            self.init(status: head.status, reason: head.reason, headers: head.headers, body: body)
            return
        }
    }

    // MARK: The head

    private struct Head {
        var status: Int
        var reason: String
        var headers: [Field]
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(LoopbackHTTPError) -> Head {
        var lines = split(bytes)
        let statusLine = lines.removeFirst()
        // `HTTP/1.1 200 OK`: the version, a space, three digits, then a space and a reason (maybe empty).
        let version = Array("HTTP/1.".utf8)
        let text = Array(statusLine)
        guard text.count >= 12, text.starts(with: version), isDigit(text[7]), text[8] == 32,
            text[9...11].allSatisfy(isDigit), text.count == 12 || text[12] == 32
        else {
            throw .malformedResponse("not an HTTP/1.x status line: \(quoted(statusLine))")
        }
        let status = text[9...11].reduce(0) { $0 * 10 + Int($1 - 48) }
        guard status >= 100 else {
            throw .malformedResponse("status \(status) is below 100: \(quoted(statusLine))")
        }
        let reason = text.count > 13 ? String(decoding: text[13...], as: UTF8.self) : ""
        var headers: [Field] = []
        for line in lines {
            headers.append(try field(line, in: "header"))
        }
        return Head(status: status, reason: reason, headers: headers)
    }

    /// `name: value`, the value without the white space around it.
    private static func field(_ line: ArraySlice<UInt8>, in section: String) throws(LoopbackHTTPError) -> Field {
        guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
            !line[..<colon].contains(where: { $0 == 32 || $0 == 9 })
        else {
            throw .malformedResponse("not a \(section) field (name: value): \(quoted(line))")
        }
        return Field(
            name: String(decoding: line[..<colon], as: UTF8.self),
            value: String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self))
    }

    // MARK: The body

    private static func body(
        of head: Head, in rest: ArraySlice<UInt8>, requestMethod: String
    ) throws(LoopbackHTTPError) -> [UInt8] {
        if requestMethod == "HEAD" || head.status == 204 || head.status == 304 || head.status == 101 {
            return []
        }
        let transferCodings = head.headers.filter { $0.name.lowercased() == "transfer-encoding" }
            .flatMap { $0.value.split(separator: ",") }
            .map { trimmed($0).lowercased() }
        if let last = transferCodings.last {
            // Chunked last: the chunks frame the body. Any other coding last: the close does (RFC 9112 §6.3).
            return last == "chunked" ? try dechunk(rest) : Array(rest)
        }
        let lengths = head.headers.filter { $0.name.lowercased() == "content-length" }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
            .map { trimmed($0) }
        guard let first = lengths.first else { return Array(rest) }
        guard !first.isEmpty, first.utf8.count <= 18, first.utf8.allSatisfy(isDigit), let length = Int(first),
            lengths.allSatisfy({ $0 == first })
        else {
            throw .malformedResponse("Content-Length is not one decimal number: \(lengths.joined(separator: ", "))")
        }
        guard rest.count >= length else {
            throw .truncatedResponse("the connection closed after \(rest.count) of \(length) body bytes")
        }
        return Array(rest.prefix(length))
    }

    /// A chunked body's data: each `SIZE[;extensions] CRLF data CRLF`, up to the `0` chunk and its
    /// trailer section (fields, then an empty line).
    private static func dechunk(_ bytes: ArraySlice<UInt8>) throws(LoopbackHTTPError) -> [UInt8] {
        var output: [UInt8] = []
        var index = bytes.startIndex
        while true {
            let lineEnd = find([13, 10], in: bytes, from: index)
            let line = bytes[index..<(lineEnd ?? bytes.endIndex)]
            let sizeText = trimmed(line[..<(line.firstIndex(of: 59) ?? line.endIndex)])  // `;` starts extensions
            guard let lineEnd else {
                // Cut short, unless what came already cannot start a chunk size (a client stops there).
                guard sizeText.count <= 15, sizeText.allSatisfy(isHexDigit), line.first != 59 else {
                    throw .malformedResponse("not a chunk-size line: \(quoted(line))")
                }
                throw .truncatedResponse(
                    "the connection closed inside a chunk-size line after \(output.count) body bytes")
            }
            guard !sizeText.isEmpty, sizeText.count <= 15, sizeText.allSatisfy(isHexDigit),
                let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16)
            else {
                throw .malformedResponse("not a chunk-size line: \(quoted(line))")
            }
            index = lineEnd + 2
            if size == 0 { break }
            guard bytes.endIndex - index >= size else {
                throw .truncatedResponse(
                    "the connection closed after \(bytes.endIndex - index) of a \(size)-byte chunk "
                        + "(\(output.count) body bytes before it)")
            }
            output += bytes[index..<index + size]
            index += size
            guard bytes.endIndex - index >= 2 else {
                throw .truncatedResponse("the connection closed after a chunk, before its CRLF")
            }
            guard bytes[index] == 13, bytes[index + 1] == 10 else {
                throw .malformedResponse("a \(size)-byte chunk is not followed by CRLF")
            }
            index += 2
        }
        // The trailer section: fields (dropped; nothing here reads them), then an empty line.
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else {
                throw .truncatedResponse("the connection closed inside the chunked body's trailer section")
            }
            if lineEnd == index { return output }
            _ = try field(bytes[index..<lineEnd], in: "trailer")
            index = lineEnd + 2
        }
    }

    // MARK: Bytes

    /// Where `needle` first starts in `bytes` at or after `from`.
    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        guard from <= bytes.endIndex else { return nil }
        return bytes[from...].firstRange(of: needle)?.lowerBound
    }

    /// The CRLF-separated lines of a head (which ends without one).
    private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var index = bytes.startIndex
        while let end = find([13, 10], in: bytes, from: index) {
            lines.append(bytes[index..<end])
            index = end + 2
        }
        lines.append(bytes[index...])
        return lines
    }

    /// Without the spaces and tabs at either end.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == 32 || byte == 9 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    private static func trimmed(_ text: Substring) -> String {
        String(decoding: trimmed(ArraySlice(text.utf8)), as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// A line as a message shows it: quoted, escaped, at most 80 bytes.
    private static func quoted(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.prefix(80), as: UTF8.self).debugDescription + (line.count > 80 ? "…" : "")
    }
}
