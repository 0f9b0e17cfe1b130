/// How ``StubLoader`` reads stub files, beyond the files themselves: settings another tool's
/// format takes from that tool's command line.
public struct StubLoadOptions: Sendable {
    /// WireMock's `--global-response-templating`: every WireMock mapping's response is a template,
    /// as if it listed the `response-template` transformer (native stubs are not affected).
    public var wireMockGlobalTemplating: Bool
    /// `--strict`: a WireMock mapping Understudy cannot serve fails the load, as a native stub file
    /// does, instead of being skipped (``StubSet/skipped``) while the rest of its root serves.
    public var strict: Bool

    /// The defaults: what `serve` and `check` do without flags.
    public init(wireMockGlobalTemplating: Bool = false, strict: Bool = false) {
        self.wireMockGlobalTemplating = wireMockGlobalTemplating
        self.strict = strict
    }
}
