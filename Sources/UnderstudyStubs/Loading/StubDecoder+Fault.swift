import UnderstudyStubFormat
import UnderstudyHTTP

/// Decoding of a response's `fault`: a name (`"connection-reset"`, `"rst-stream-refused"`…), or
/// the object form that parameterises HTTP/2's `RST_STREAM` and `GOAWAY`:
/// `{"rstStream": {"errorCode", "afterHeaders"}}` or `{"goaway": {"lastStreamId", "errorCode", "inFlight"}}`.
/// The object form becomes the named fault of the same shape (`rst-stream`, `rst-stream-after-headers`,
/// `goaway`, `goaway-now`) with ``FaultParameters``, so the engine, journal and transport keep one
/// fault enum.
extension StubDecoder {
    /// The largest stream id HTTP/2 has (31 bits).
    static let maximumStreamID = 2_147_483_647

    mutating func decodeFault(_ node: JSONNode, _ path: JSONPath, into response: inout StubResponse) {
        guard let all = node.members else {
            if node.stringValue != nil {
                response.fault = enumValue(node, path, Fault.self)
            } else {
                typeMismatch(
                    node, path,
                    expected:
                        "a fault name or {\"rstStream\": {...}} or {\"goaway\": {...}} (HTTP/2's parameterised faults)")
            }
            return
        }
        let keys = members(of: node, path, known: StubFormat.Object.fault.keys)
        let given = all.filter { StubFormat.Object.fault.keys.contains($0.key) }
        guard given.count == 1 else {
            if given.count > 1 {
                fail(given[1].keyPosition, path.member(given[1].key), "give one of `rstStream` or `goaway`, not both")
            } else if all.isEmpty {
                fail(
                    node.position, path,
                    "an empty `fault` object; give `{\"rstStream\": {...}}` or `{\"goaway\": {...}}`")
            }
            return
        }
        if let member = keys["rstStream"] {
            decodeRstStream(member.value, path.member("rstStream"), into: &response)
        } else if let member = keys["goaway"] {
            decodeGoaway(member.value, path.member("goaway"), into: &response)
        }
    }

    private mutating func decodeRstStream(_ node: JSONNode, _ path: JSONPath, into response: inout StubResponse) {
        guard node.members != nil else {
            typeMismatch(
                node, path, expected: "an object: {\"errorCode\": ..., \"afterHeaders\": ...} (`{}` for the defaults)")
            return
        }
        let keys = members(of: node, path, known: StubFormat.Object.rstStream.keys)
        var code = HTTP2ErrorCode.internalError
        if let member = keys["errorCode"] {
            code = enumValue(member.value, path.member("errorCode"), HTTP2ErrorCode.self) ?? code
        }
        var afterHeaders = false
        if let member = keys["afterHeaders"] {
            if case .bool(let flag) = member.value.kind {
                afterHeaders = flag
            } else {
                typeMismatch(member.value, path.member("afterHeaders"), expected: "true or false")
            }
        }
        response.fault = afterHeaders ? .rstStreamAfterHeaders : .rstStream
        response.faultParameters = FaultParameters(errorCode: code)
    }

    private mutating func decodeGoaway(_ node: JSONNode, _ path: JSONPath, into response: inout StubResponse) {
        guard node.members != nil else {
            typeMismatch(
                node, path,
                expected:
                    "an object: {\"lastStreamId\": ..., \"errorCode\": ..., \"inFlight\": ...} (`{}` for the defaults)")
            return
        }
        let keys = members(of: node, path, known: StubFormat.Object.goaway.keys)
        var last = GoawayLastStream.previous
        if let member = keys["lastStreamId"] {
            last = decodeLastStream(member.value, path.member("lastStreamId")) ?? last
        }
        var code = HTTP2ErrorCode.noError
        if let member = keys["errorCode"] {
            code = enumValue(member.value, path.member("errorCode"), HTTP2ErrorCode.self) ?? code
        }
        var inFlight = StubFormat.GoawayInFlight.finish
        if let member = keys["inFlight"] {
            inFlight = enumValue(member.value, path.member("inFlight"), StubFormat.GoawayInFlight.self) ?? inFlight
        }
        response.fault = inFlight == .cut ? .goawayNow : .goaway
        response.faultParameters = FaultParameters(errorCode: code, lastStream: last)
    }

    private mutating func decodeLastStream(_ node: JSONNode, _ path: JSONPath) -> GoawayLastStream? {
        if node.numberText != nil {
            guard let id = integer(node, path, minimum: 0, what: "a stream id") else { return nil }
            guard id <= Self.maximumStreamID else {
                fail(node.position, path, "a stream id is at most \(Self.maximumStreamID) (31 bits), found \(id)")
                return nil
            }
            guard id == 0 || id % 2 == 1 else {
                // A server's GOAWAY names a stream the client opened: those are odd (RFC 9113 §5.1.1).
                fail(node.position, path, "`lastStreamId` names a client's stream: 0 or an odd number, found \(id)")
                return nil
            }
            return .id(Int32(id))
        }
        let names = GoawayLastStream.names
        switch node.stringValue {
        case "previous": return .previous
        case "this": return .this
        case let text?:
            let hint = EditDistance.closest(to: text, among: names).map { "did you mean `\($0)`? " } ?? ""
            fail(node.position, path, "unknown value `\(text)`; \(hint)expected `previous`, `this` or a stream id")
        case nil:
            typeMismatch(node, path, expected: "`previous`, `this` or a stream id (an integer ≥ 0)")
        }
        return nil
    }
}
