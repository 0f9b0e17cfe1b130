/// Turns 4xx/5xx responses into errors; shared by `catchHTTPErrors()` in both APIs.
enum HTTPResponseValidation {
    static func validate(_ output: HTTPResponseOutput) throws -> HTTPResponseOutput {
        if let error = output.response.httpError() {
            throw error
        }
        return output
    }
}
