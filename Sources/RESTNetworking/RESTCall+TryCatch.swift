extension RESTCall {
    /// The async form of `Publisher.tryCatch(_:_:)`: when the call fails with an error equal to
    /// `error` (for HTTP errors: the same status code), `handler` gets the error as it arrived
    /// and answers instead (or throws); every other failure passes through untouched. HTTP errors
    /// are checked first (`catchHTTPErrors()`).
    public func tryCatch<E: Error & Equatable>(
        _ error: E, _ handler: @escaping @Sendable (E) async throws -> HTTPResponseOutput
    ) -> RESTCall {
        let checked = catchHTTPErrors()
        return RESTCall(
            method: method,
            scoped: { scope in
                do {
                    return try await checked.response(in: scope)
                } catch let caught as E where caught == error {
                    return try await handler(caught)
                }
            })
    }
}
