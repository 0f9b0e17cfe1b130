/// One way a request or a response breaks the API's contract (the OpenAPI document given to
/// `serve --openapi`): journaled in the entry's `openapiViolations` as `{"where","pointer","message"}`.
public struct ContractViolation: Sendable, Equatable {
    /// The part that breaks it: `request.path`, `request.query.limit`, `request.header.X-Id`,
    /// `request.body`, `response.status`, `response.header.X-Rate`, `response.body`.
    public var location: String
    /// The spec file and JSON pointer of what was expected (`petstore.yaml#/paths/~1pets/get/…`).
    public var pointer: String
    /// What was expected and what was found (`$.id: expected integer, found string`).
    public var message: String

    /// A violation.
    public init(location: String, pointer: String, message: String) {
        self.location = location
        self.pointer = pointer
        self.message = message
    }

    /// `request.query.limit: expected integer, found string`.
    public var summary: String { "\(location): \(message)" }
}

/// What contract checking found for one journaled request: its violations, and why it was
/// refused when the checker refuses violations (`--openapi-mode fail`). A class, so a journal
/// record carries one pointer for it (nil when `--openapi` is off).
final class ContractFindings {
    let violations: [ContractViolation]
    /// Journaled as the entry's refusal reason (`"outcome":"refused"`); nil when only reported.
    let refusal: String?

    init(violations: [ContractViolation], refusal: String?) {
        self.violations = violations
        self.refusal = refusal
    }
}
