import UnderstudyHTTP

/// Builders for admin API responses: every body is JSON; every error is
/// `{"error":"why","errors":[...]?}`.
package enum AdminResponse {
    /// An error response carried through `Result`.
    struct Failure: Error {
        var response: HTTPResponse
    }

    package static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    package static func value(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        json(status, value.jsonBytes)
    }

    package static func error(_ status: Int, _ message: String, errors: [StubFileError]? = nil) -> HTTPResponse {
        var members = [JSONMember("error", .string(message))]
        if let errors {
            members.append(JSONMember("errors", .array(errors.map(encode))))
        }
        return Self.value(.object(members), status: status)
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> HTTPResponse {
        var response = error(405, "method \(method) is not allowed here; use \(allowed.joined(separator: " or "))")
        response.headers.append(name: "Allow", value: allowed.joined(separator: ", "))
        return response
    }

    static func encode(_ error: StubFileError) -> JSONValue {
        .object([
            JSONMember("file", .string(error.file)),
            JSONMember("line", .number(String(error.line))),
            JSONMember("column", .number(String(error.column))),
            JSONMember("path", .string(error.jsonPath)),
            JSONMember("message", .string(error.message)),
            JSONMember("suggestion", error.suggestion.map(JSONValue.string) ?? .null),
        ])
    }

    package static func loadFailure(_ failure: StubLoadFailure) -> HTTPResponse {
        let count = failure.errors.count
        let summary =
            count == 1
            ? failure.errors[0].description
            : "\(count) errors in stubs; first: \(failure.errors.first?.description ?? "")"
        return error(400, summary, errors: failure.errors)
    }
}
