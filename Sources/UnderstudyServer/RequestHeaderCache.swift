#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibevent
import UnderstudyCore

/// The header fields of a connection's previous request, kept to be reused when the next request
/// carries the very same bytes.
///
/// A client on a kept-alive connection usually sends the same header block with every request
/// (`Host`, `User-Agent`, `Accept`, …). Turning evhttp's C strings into Swift strings costs ~200
/// instructions a string plus an array, ~1.4k for a small block; comparing the bytes with the
/// previous block costs a fraction of that, and on a match the previous ``HTTPHeaders`` value is
/// handed out again (the same strings, nothing allocated). Any difference, in any field, and the
/// block is read afresh and becomes the one remembered. The comparison is byte for byte, so a
/// reused value is exactly what a fresh read would give.
struct RequestHeaderCache {
    /// The previous block's fields.
    private var headers = HTTPHeaders()
    /// How many of them are named Content-Length.
    private var contentLengths = 0
    /// Their bytes as evhttp held them: each name and value followed by a NUL.
    private var bytes: [UInt8] = []
    /// Whether the connection has had a request. The first request's block is not remembered:
    /// many connections carry one request (`Connection: close`), and remembering costs about as
    /// much as reading the block; from the second request on it pays for itself.
    private var hadRequest = false

    /// The fields of `list` in order (see ``HTTPServer/fields(of:)``), reusing the previous
    /// request's when every byte is the same.
    mutating func headers(of list: UnsafeMutablePointer<evkeyvalq>) -> (HTTPHeaders, contentLengths: Int) {
        if matches(list) { return (headers, contentLengths) }
        guard hadRequest else {
            hadRequest = true
            return HTTPServer.fields(of: list)
        }
        (headers, contentLengths) = HTTPServer.fields(of: list)
        bytes.removeAll(keepingCapacity: true)
        var field = understudy_keyvalq_first(list)
        while let current = field {
            if let key = current.pointee.key, let value = current.pointee.value {
                Self.append(key, to: &bytes)
                Self.append(value, to: &bytes)
            }
            field = understudy_keyval_next(current)
        }
        return (headers, contentLengths)
    }

    /// Whether `list` holds exactly the remembered bytes, field for field.
    private func matches(_ list: UnsafeMutablePointer<evkeyvalq>) -> Bool {
        guard !bytes.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { remembered in
            guard let start = remembered.baseAddress else { return false }
            var offset = 0
            // Each remembered string ends in a NUL, so comparing through the NUL also compares
            // the lengths (strcmp stops at the first difference or NUL).
            func next(is text: UnsafePointer<CChar>) -> Bool {
                guard offset < remembered.count,
                      strcmp(text, UnsafeRawPointer(start + offset).assumingMemoryBound(to: CChar.self)) == 0 else { return false }
                offset += strlen(text) + 1
                return true
            }
            var field = understudy_keyvalq_first(list)
            while let current = field {
                guard let key = current.pointee.key, let value = current.pointee.value,
                      next(is: key), next(is: value) else { return false }
                field = understudy_keyval_next(current)
            }
            return offset == remembered.count
        }
    }

    private static func append(_ text: UnsafePointer<CChar>, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: text, count: strlen(text) + 1))
    }
}
