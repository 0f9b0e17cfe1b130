/// What `check --openapi` found over a stub set.
public struct StubCheckReport: Sendable {
    /// A stub left out on purpose with `"openapi": {"skip": "why"}`.
    public struct Skipped: Sendable {
        /// The stub's id.
        public var id: String
        /// The stub's file.
        public var file: String
        /// The reason the stub gives.
        public var reason: String
    }

    /// Errors and warnings, by file, line and column.
    public var findings: [OpenAPIFinding] = []
    /// Stubs checked (mapped to operations and their responses checked).
    public var checkedStubs = 0
    /// Responses checked (faults have no HTTP response to check).
    public var checkedResponses = 0
    /// Stubs skipped on purpose.
    public var skipped: [Skipped] = []

    /// The errors alone.
    public var errors: [OpenAPIFinding] { findings.filter { $0.severity == .error } }
    /// The warnings alone.
    public var warnings: [OpenAPIFinding] { findings.filter { $0.severity == .warning } }

    /// The ids of the stubs with at least one error.
    public var failingStubs: Set<String> { Set(errors.compactMap(\.stubID)) }
}
