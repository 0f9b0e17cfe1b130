/// The admin token check: `Authorization: Bearer <token>`, the token compared in constant time
/// so its bytes cannot be guessed one at a time from response timings.
struct AdminAuthorization {
    private let expected: [UInt8]

    init(token: String) {
        expected = Array(token.utf8)
    }

    /// nil when `request` carries the token; otherwise the 401 to send.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        guard let header = request.headers["Authorization"] else {
            return Self.unauthorized(
                "the admin API needs `Authorization: Bearer <token>` (the daemon was started with an admin token)",
                challenge: #"Bearer realm="understudy""#)
        }
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        let hasScheme = bytes.count >= scheme.count && zip(bytes, scheme).allSatisfy { ($0 | 0x20) == $1 }
        guard hasScheme else {
            return Self.unauthorized(
                "the admin API needs `Authorization: Bearer <token>`; another scheme was sent",
                challenge: #"Bearer realm="understudy""#)
        }
        var offset = scheme.count
        while offset < bytes.count && bytes[offset] == 0x20 { offset += 1 }
        guard Self.constantTimeEqual(Array(bytes[offset...]), expected) else {
            return Self.unauthorized(
                "the admin token is wrong",
                challenge: #"Bearer realm="understudy", error="invalid_token""#)
        }
        return nil
    }

    /// Equal bytes, in a time that depends only on the expected token's length.
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            let byte = index < given.count ? given[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }

    private static func unauthorized(_ message: String, challenge: String) -> HTTPResponse {
        var response = AdminResponse.error(401, message)
        response.headers.append(name: "WWW-Authenticate", value: challenge)
        return response
    }
}
