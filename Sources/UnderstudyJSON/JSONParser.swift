/// A small strict JSON parser (RFC 8259) that records positions and keeps key order and number
/// text. Foundation's parser can do neither, and both matter for stub files.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// Column bookkeeping: the column at `columnIndex` on the current line. Positions are asked for
    /// in increasing order, so counting on from the last answer keeps long lines linear.
    private var columnIndex = 0
    private var column = 1
    /// Where the parser is, so a syntax error can name its JSON path like validation errors do.
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }
    /// Deep enough for any real stub file, shallow enough that recursion cannot blow the stack.
    private static let maximumDepth = 512

    /// Parses a whole document (a leading UTF-8 byte-order mark is skipped).
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return node
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var position: SourcePosition {
        mutating get {
            // Columns count scalars, not bytes, so non-ASCII text before an error does not skew them.
            if columnIndex < lineStart || columnIndex > index {
                columnIndex = lineStart
                column = 1
            }
            while columnIndex < index {
                if bytes[columnIndex] & 0xC0 != 0x80 { column += 1 }
                columnIndex += 1
            }
            return SourcePosition(line: line, column: column)
        }
    }

    private mutating func error(_ message: String) -> JSONSyntaxError {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text = JSONPath.member(text, key)
            case .index(let index): text = JSONPath.element(text, index)
            }
        }
        return JSONSyntaxError(position: position, message: message, jsonPath: text)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("expected a JSON value, found end of file") }
        let start = position
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(start)
        case UInt8(ascii: "["): return try parseArray(start)
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), position: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(kind: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(kind: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(kind: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(kind: .number(try parseNumber()), position: start)
        default:
            throw error("expected a JSON value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let text = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount {
            guard index < bytes.count, bytes[index] == text[offset] else {
                throw error("invalid literal; expected `\(literal)`")
            }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject(_ start: SourcePosition) throws(JSONSyntaxError) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(kind: .object(members), position: start)
        }
        // Stub objects mostly have 2-4 members: one allocation instead of growing 1 → 2 → 4.
        members.reserveCapacity(4)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key, found \(describeCurrent())")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected `:` after key \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object; expected `,` or `}`") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(kind: .object(members), position: start)
            }
            throw error("expected `,` or `}` in object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray(_ start: SourcePosition) throws(JSONSyntaxError) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(kind: .array(items), position: start)
        }
        while true {
            skipWhitespace()
            path.append(.index(items.count))
            items.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array; expected `,` or `]`") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(kind: .array(items), position: start)
            }
            throw error("expected `,` or `]` in array, found \(describeCurrent())")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let begin = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: expected a digit after `.`")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let begin = index
        // Fast path: no escapes, so the bytes between the quotes are the string.
        var high: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = bytes[begin..<index]
                index += 1
                // ASCII needs no validation; `String(validating:)` is generic over the encoding
                // and cost ~900 instructions a string (a tenth of loading 10 000 stubs).
                if high < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw error("string is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string; escape it") }
            high |= byte
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[begin..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if code >= 0xD800 && code < 0xDC00 {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if code >= 0xDC00 && code < 0xE000 {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 1
                    throw error("invalid escape `\\\(Character(Unicode.Scalar(escape)))` in string")
                }
            default:
                if byte < 0x20 { throw error("control character in string; escape it") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("incomplete \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
