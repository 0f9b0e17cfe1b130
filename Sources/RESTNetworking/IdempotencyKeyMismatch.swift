/// The server refused an idempotency key because it was first used with another request (another
/// body, method or path): the draft's `422 Unprocessable Content`. It is a bug in the client (a
/// key reused for a different call), so it is never retried.
///
/// Thrown by the retry operators for a 422 answer to a request that carried a key, when the
/// answer is about the key: its body names the key or speaks of idempotency (as Understudy's,
/// the draft's and Stripe's refusals do). Any other 422 stays `HTTPClientError.unprocessableContent`.
public struct IdempotencyKeyMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key the request carried.
    public var key: String
    /// The refusal's status code (422).
    public var statusCode: Int
    /// The problem document's `detail`, or the body as text when it has none.
    public var detail: String

    /// A mismatch of `key`, answered with `statusCode` and `detail`.
    public init(key: String, statusCode: Int = 422, detail: String = "") {
        self.key = key
        self.statusCode = statusCode
        self.detail = detail
    }

    public var description: String {
        "HTTP \(statusCode): idempotency key \(key) was first used with another request"
            + (detail.isEmpty ? "" : ": \(detail)")
    }

    /// Throws the mismatch `output` reports, if it is one, for a request that sent `key`.
    static func check(_ output: HTTPResponseOutput, key: String?) throws {
        guard let key, output.response.statusCode == 422 else { return }
        let text = String(decoding: output.data, as: UTF8.self)
        guard text.contains(key) || text.lowercased().contains("idempotenc") else { return }
        let object = (try? JSONSerialization.jsonObject(with: output.data)) as? [String: Any]
        let detail = (object?["detail"] as? String) ?? text
        throw IdempotencyKeyMismatch(key: key, statusCode: 422, detail: detail)
    }
}
