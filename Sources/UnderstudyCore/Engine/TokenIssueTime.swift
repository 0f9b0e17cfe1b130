#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

/// When a request's bearer token was issued, for `tokenExpiresIn`: the `iat` claim of a JWT, else
/// the epoch the token ends with (10 digits: seconds; 13: milliseconds), which is what a token
/// endpoint templated as `"at-{{now.epoch}}"` issues on the world's clock.
enum TokenIssueTime {
    /// Seconds since 1970, or nil when the request has no bearer token or it says no issue time.
    static func of(_ request: HTTPRequest) -> Double? {
        guard let authorization = request.headers["Authorization"] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        let token = String(parts[1].drop(while: isBlank).reversed().drop(while: isBlank).reversed())
        return jwtIssuedAt(token) ?? trailingEpoch(token)
    }

    /// The `iat` claim of a JWT (`header.payload.signature`, base64url); nil if it is not one.
    static func jwtIssuedAt(_ token: String) -> Double? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return nil }
        var base64 = String(segments[1].replacing("-", with: "+").replacing("_", with: "/"))
        while base64.count % 4 != 0 { base64 += "=" }
        guard let payload = Data(base64Encoded: base64), let claims = JSONValue.parse(Array(payload)) else {
            return nil
        }
        return claims["iat"]?.doubleValue
    }

    /// The run of digits the token ends with, as epoch seconds (10 digits) or milliseconds (13).
    static func trailingEpoch(_ token: String) -> Double? {
        let digits = token.utf8.reversed().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard let value = Double(String(decoding: digits.reversed(), as: UTF8.self)) else { return nil }
        switch digits.count {
        case 10: return value
        case 13: return value / 1000
        default: return nil
        }
    }
}

extension StubEngine {
    /// The 401 for a request whose bearer token is older than `lifetime` seconds on the world's
    /// clock, or says no issue time; nil when it is still valid. Journaled as the stub's answer.
    func expiredToken(_ stub: Stub, _ lifetime: Double, _ context: MatchContext) -> (HTTPResponse, JournalRecord)? {
        let description: String
        if let issued = TokenIssueTime.of(context.request) {
            let age = clock.nowSeconds - issued
            guard age >= lifetime else { return nil }
            description =
                "The access token expired: issued \(TimeFormatting.iso8601Milliseconds(issued)), valid for "
                + "\(Self.formatSeconds(lifetime)) s, now \(TimeFormatting.iso8601Milliseconds(clock.nowSeconds))"
        } else {
            description = "No bearer token with an issue time (a JWT's iat, or a token ending in epoch seconds)"
        }
        var headers = HTTPHeaders()
        headers.append(
            name: "WWW-Authenticate", value: #"Bearer error="invalid_token", error_description="\#(description)""#)
        headers.append(name: "Content-Type", value: "application/json")
        let body = JSONValue.object([
            JSONMember("error", .string("invalid_token")),
            JSONMember("error_description", .string(description)),
        ]).jsonBytes
        let record = JournalRecord(
            request: context.request, matched: true, rateLimited: false, stubID: stub.id, responseIndex: nil,
            scenario: nil)
        return (HTTPResponse(status: 401, headers: headers, body: body, stubID: stub.id), record)
    }
}
