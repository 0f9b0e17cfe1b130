import UnderstudyHTTP

/// The fields of a form body, by name and in order: the parts of a `multipart/form-data` body
/// (each part's `Content-Disposition` name, its content as text; a file part's content too), else
/// the `name=value` pairs of an `application/x-www-form-urlencoded` one. The `form` matcher, the
/// `request.form` template and idempotency's body comparison all read forms through here.
package enum FormBody {
    /// The fields of the request `context` holds.
    package static func pairs(_ context: MatchContext) -> [(name: String, value: String)] {
        if let boundary = multipartBoundary(context.request) {
            return multipartPairs(context.request.body, boundary: boundary)
        }
        return PercentDecoding.queryPairs(context.bodyText)
    }

    /// The boundary of a `multipart/form-data` request, or nil for any other body.
    package static func multipartBoundary(_ request: HTTPRequest) -> [UInt8]? {
        guard let type = request.headers.values(for: "Content-Type").first,
            type.lowercased().hasPrefix("multipart/form-data")
        else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let trimmed = parameter.drop { $0 == " " || $0 == "\t" }
            guard trimmed.lowercased().hasPrefix("boundary=") else { continue }
            var value = trimmed.dropFirst("boundary=".count)
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            return value.isEmpty ? nil : Array(value.utf8)
        }
        return nil
    }

    /// The named parts of a multipart body (RFC 7578): every part between `--boundary` lines whose
    /// `Content-Disposition` is `form-data` with a `name`.
    package static func multipartPairs(_ body: [UInt8], boundary: [UInt8]) -> [(name: String, value: String)] {
        let delimiter = Array("--".utf8) + boundary
        var starts: [Int] = []
        var index = 0
        while let found = find(delimiter, in: body, from: index) {
            starts.append(found)
            index = found + delimiter.count
        }
        var pairs: [(name: String, value: String)] = []
        for (start, end) in zip(starts, starts.dropFirst()) {
            var partStart = start + delimiter.count
            // The line break after the delimiter (`--boundary--` closes the body and has none).
            if partStart + 1 < end, body[partStart] == 0x0D, body[partStart + 1] == 0x0A { partStart += 2 }
            // The line break before the next delimiter belongs to it.
            var partEnd = end
            if partEnd - 2 >= partStart, body[partEnd - 2] == 0x0D, body[partEnd - 1] == 0x0A { partEnd -= 2 }
            let part = Array(body[partStart..<partEnd])
            guard let split = find(Array("\r\n\r\n".utf8), in: part, from: 0) else { continue }
            let head = String(decoding: part[..<split], as: UTF8.self)
            guard let name = dispositionName(head) else { continue }
            pairs.append((name: name, value: String(decoding: part[(split + 4)...], as: UTF8.self)))
        }
        return pairs
    }

    /// The `name` of a part's `Content-Disposition: form-data; name="…"`.
    private static func dispositionName(_ head: String) -> String? {
        for line in head.split(separator: "\r\n") {
            let lower = line.lowercased()
            guard lower.hasPrefix("content-disposition:"), lower.contains("form-data") else { continue }
            for parameter in line.split(separator: ";").dropFirst() {
                let trimmed = parameter.drop { $0 == " " || $0 == "\t" }
                guard trimmed.lowercased().hasPrefix("name=") else { continue }
                var value = trimmed.dropFirst("name=".count)
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                return String(value)
            }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
