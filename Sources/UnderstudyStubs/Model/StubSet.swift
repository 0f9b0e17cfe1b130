/// A validated, ordered set of stubs, ready to hand to an engine. Order is load order, which is
/// the order stubs are tried in.
public struct StubSet: Sendable {
    /// The stubs in load order.
    public internal(set) var stubs: [Stub]
    /// What loading let pass with a warning (WireMock's leniencies), in file order.
    public internal(set) var warnings: [StubFileError] = []
    /// The WireMock mappings left out (unless loading was strict), in file order.
    public internal(set) var skipped: [SkippedMapping] = []

    /// Every warning line to print at start-up and in `check`: the leniencies, then one line
    /// per skipped mapping.
    public var warningLines: [StubFileError] { warnings + skipped.map(\.warning) }

    /// Creates a set from stubs already validated (ids unique).
    package init(stubs: [Stub]) {
        self.stubs = stubs
    }

    /// A set built in code rather than loaded from files. Checks what the loader checks that the
    /// types cannot: ids unique and non-empty, at least one response each, statuses 100–599,
    /// `times` ≥ 1, and `whenState`/`setState` only with a `scenario`.
    public init(validating stubs: [Stub]) throws(StubLoadFailure) {
        var errors: [StubFileError] = []
        var seen: Set<String> = []
        for (index, stub) in stubs.enumerated() {
            let path = "stubs[\(index)]"
            func fail(_ suffix: String, _ message: String) {
                errors.append(
                    StubFileError(file: stub.file, line: 1, column: 1, jsonPath: path + suffix, message: message))
            }
            if stub.id.isEmpty { fail(".id", "expected a stub id, found an empty string") }
            if !seen.insert(stub.id).inserted { fail(".id", "duplicate stub id `\(stub.id)`") }
            if stub.responses.isEmpty { fail(".responses", "`responses` is empty; give at least one response") }
            for (r, response) in stub.responses.enumerated() {
                if !(100...599).contains(response.status) {
                    fail(".responses[\(r)].status", "expected a status code from 100 to 599, found \(response.status)")
                }
                if response.times < 1 {
                    fail(".responses[\(r)].times", "expected a repeat count (an integer ≥ 1), found \(response.times)")
                }
            }
            if stub.scenario == nil && (stub.whenState != nil || stub.setState != nil) {
                fail(stub.whenState != nil ? ".whenState" : ".setState", "`whenState` and `setState` need `scenario`")
            }
            if let rule = stub.rateLimit, rule.limit < 1 || !(rule.window > 0) {
                fail(".rateLimit", "a rate limit needs `limit` ≥ 1 and `window` > 0")
            }
        }
        guard errors.isEmpty else { throw StubLoadFailure(errors: errors) }
        self.stubs = stubs
    }

    /// An empty set: every request goes unmatched.
    public init() {
        self.stubs = []
    }

    /// How many stubs the set holds.
    public var count: Int { stubs.count }
}
