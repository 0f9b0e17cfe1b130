/// The literal text that every path matching a `pathPattern` as a whole must start with, read off
/// the pattern: `^/bench/p7/[0-9]+$` gives `/bench/p7/`.
///
/// The engine compares it (bytes, no regex) before running the pattern, so a request is only run
/// against the patterns that can match it. It errs towards shorter: any construct it does not read
/// as plain literal text ends the prefix, and a pattern with `|` anywhere gets none at all.
enum PatternPrefix {
    static func of(_ pattern: String) -> [UInt8] {
        var bytes = Array(pattern.utf8)
        if bytes.contains(UInt8(ascii: "|")) { return [] }
        if bytes.first == UInt8(ascii: "^") {
            bytes.removeFirst()
        } else if bytes.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "A")]) {
            bytes.removeFirst(2)
        }
        var prefix: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            guard byte < 0x80, !isSpecial(byte) else { break }
            if i + 1 < bytes.count {
                let next = bytes[i + 1]
                // `a*`, `a?` and `a{0,…}` may match no `a`; `a+` needs one but says nothing after it.
                if next == UInt8(ascii: "*") || next == UInt8(ascii: "?") || next == UInt8(ascii: "{") { break }
                if next == UInt8(ascii: "+") {
                    prefix.append(byte)
                    break
                }
            }
            prefix.append(byte)
            i += 1
        }
        return prefix
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "?"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "#"):
            return true
        default:
            return false
        }
    }
}
