extension URLRequest {
    /// A copy of this request with `value` set for `header` (replacing any earlier value).
    public func addingValue(_ value: String, forHTTPHeaderField header: String) -> URLRequest {
        var request = self
        request.setValue(value, forHTTPHeaderField: header)
        return request
    }

    /// A copy of this request carrying `Authorization: Bearer <accessToken>`.
    public func addingBearerAuthorization(accessToken: String) -> URLRequest {
        addingValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
    }

    /// A copy of this request that asks for JSON (`Accept: application/json`).
    public func receivingJSON() -> URLRequest {
        addingValue("application/json", forHTTPHeaderField: "Accept")
    }

    /// A copy of this request that declares a JSON body (`Content-Type: application/json`).
    public func sendingJSON() -> URLRequest {
        addingValue("application/json", forHTTPHeaderField: "Content-Type")
    }
}
