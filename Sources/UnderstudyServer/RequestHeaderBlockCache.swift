#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// The header fields of a connection's previous request, reused when the next request carries
/// the very same header block.
///
/// A client on a kept-alive connection usually sends the same block with every request (`Host`,
/// `User-Agent`, `Accept`, …). Making a `String` of every name and value costs far more than
/// comparing the block's bytes with the previous block's (one `memcmp`); on a match the previous
/// ``HTTPHeaders`` value is handed out again (the same strings, nothing allocated). The first
/// request's block is not remembered: many connections carry one request, and remembering costs
/// about as much as reading the block; from the second request on it pays for itself.
struct RequestHeaderBlockCache {
    private var bytes: [UInt8] = []
    private var headers = HTTPHeaders()
    private var hadRequest = false

    /// The fields of a complete head read from `base`: its field lines start at `fieldsStart`,
    /// `fields` are their offsets (``RequestHeadParser/fields``) and its blank line ends at `end`.
    /// Given the parser's parts, not the parser: passing the parser copied it (~160 instructions).
    mutating func headers(
        _ base: UnsafePointer<UInt8>, fieldsStart: Int, fields ranges: [RequestHeadParser.FieldRange], end: Int
    ) -> HTTPHeaders {
        let blockStart = fieldsStart, blockCount = end - 2 - fieldsStart
        if blockCount == bytes.count, blockCount > 0,
            bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base + blockStart, blockCount) == 0 })
        {
            return headers
        }
        let fresh = Self.fields(base, ranges)
        guard hadRequest else {
            hadRequest = true
            return fresh
        }
        headers = fresh
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + blockStart, count: max(0, blockCount)))
        return fresh
    }

    /// The fields at `ranges` in `base` (also those read so far of a refused head, for its entry).
    static func fields(_ base: UnsafePointer<UInt8>, _ ranges: [RequestHeadParser.FieldRange]) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(ranges.count)
        for range in ranges {
            let name = RequestHeadParser.text(base, from: Int(range.nameStart), to: Int(range.nameEnd))
            let value = RequestHeadParser.text(base, from: Int(range.valueStart), to: Int(range.valueEnd))
            fields.append(HTTPHeaders.Field(name: name, value: value))
        }
        return HTTPHeaders(fields)
    }
}
