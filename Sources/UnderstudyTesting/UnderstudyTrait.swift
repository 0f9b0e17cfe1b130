#if canImport(Testing)
import Foundation
import Testing

extension Understudy {
    /// The session of the test running now, set by the `.understudy(stubs:)` trait (and `nil`
    /// outside one). Child tasks of the test see it too.
    @TaskLocal public static var current: Understudy?
}

/// A Swift Testing trait that gives every test its own session on the process-wide daemon.
///
/// On a test, or on a suite (where it applies to each test in it, and to each case of a
/// parameterised test), it creates a session with `stubs`, runs the test with the session in
/// `Understudy.current`, then records every unmatched request the test did not already report
/// as an issue, and deletes the session — also when the test throws. On a test in a suite that
/// has the trait too, the test's stubs are added to the session the suite's trait made.
///
/// ```swift
/// @Test(.understudy(stubs: "stubs/weather.json"))
/// func forecast() async throws {
///     let understudy = try #require(Understudy.current)
///     // … point the client at understudy.baseURL …
/// }
/// ```
public struct UnderstudyTrait: TestTrait, SuiteTrait, TestScoping {
    /// Stub files or directories each session starts with.
    public var stubs: [String]
    /// Typed stubs each session starts with too (after the files).
    public var installing: [Stub] = []
    /// Where sessions are created; `nil` means the process-wide daemon (`Understudy.shared()`).
    public var daemon: Understudy?
    /// When set, each session also gets an HTTPS port presenting this certificate
    /// (`Understudy.current?.httpsURL`).
    public var tls: TLSCertificateMode?
    /// When set, each session's clock starts this way (frozen, say); drive it with
    /// `Understudy.current?.clock`.
    public var clock: ClockMode?

    /// A suite's trait applies to each of its tests, which then each get a session of their own.
    public var isRecursive: Bool { true }

    /// Runs one test (or one case of a parameterised test) in a session of its own, in
    /// `Understudy.current`; Swift Testing calls it.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if let enclosing = Understudy.current {
            if let tls, enclosing.sessionTLS != tls {
                // One session per test: its certificate was chosen when the suite's trait made it.
                throw UnderstudyError.unsupported(
                    "\(test.name) asks for `tls: .\(tls)`, but it runs in the session its suite's `.understudy` trait made "
                        + "(\(enclosing.sessionTLS.map { "with `tls: .\($0)`" } ?? "without `tls`")); put `tls:` on the suite's trait, "
                        + "or take a session of its own with `Understudy.session(stubs:tls:)`")
            }
            // The suite's trait already made this test's session: add to it rather than hide it.
            for file in try StubPaths.files(in: stubs) { try await enclosing.admin.addStubs(stubFile: file) }
            if !installing.isEmpty { try await enclosing.install(installing) }
            try await function()
            return
        }
        // Named after the test, for the daemon's session list and stderr notes.
        let session = try await Understudy.session(
            stubs: stubs, name: test.id.description, tls: tls, clock: clock,
            on: daemon)
        if !installing.isEmpty {
            do { try await session.install(installing) } catch {
                await session.stop()
                throw error
            }
        }
        do {
            try await Understudy.$current.withValue(session, operation: function)
        } catch {
            await finish(session, test: test)
            throw error
        }
        await finish(session, test: test)
    }

    /// The end of a test: unmatched requests become issues at the test's declaration, then the
    /// session goes.
    private func finish(_ session: Understudy, test: Test) async {
        if let failure = await session.unreportedUnmatchedRequests(context: "when \(test.name) ended") {
            Issue.record(Comment(rawValue: failure), sourceLocation: test.sourceLocation)
        }
        await session.stop()
    }
}

extension Trait where Self == UnderstudyTrait {
    /// A session per test on the process-wide daemon, with these stub files or directories and
    /// typed stubs, in any mix: `.understudy("stubs/weather.json", Stub.get("/v1/x").respond(...))`.
    /// Files load first, then the typed stubs are installed, each in the order given. With `tls`,
    /// the session also serves HTTPS with that certificate; with `clock`, its clock starts so.
    public static func understudy(
        _ stubs: any StubSource..., tls: TLSCertificateMode? = nil, clock: ClockMode? = nil,
        daemon: Understudy? = nil
    ) -> Self {
        understudy(stubs: stubs, tls: tls, clock: clock, daemon: daemon)
    }

    /// The same trait, spelled with `stubs:`: files and typed stubs in any mix,
    /// `.understudy(stubs: "stubs/weather.json", Stub.post("/v1/x").respond(.status(201)))`.
    public static func understudy(
        stubs: any StubSource..., tls: TLSCertificateMode? = nil, clock: ClockMode? = nil,
        daemon: Understudy? = nil
    ) -> Self {
        understudy(stubs: stubs, tls: tls, clock: clock, daemon: daemon)
    }

    /// The same trait, with its stubs (paths and typed stubs) in an array.
    public static func understudy(
        stubs: [any StubSource], tls: TLSCertificateMode? = nil, clock: ClockMode? = nil,
        daemon: Understudy? = nil
    ) -> Self {
        let (paths, typed) = stubs.partitioned
        return UnderstudyTrait(stubs: paths, installing: typed, daemon: daemon, tls: tls, clock: clock)
    }

    /// A session per test with no stubs of its own (a test installs them), on the process-wide
    /// daemon. Spelled out so `.understudy()` has one meaning among the variadic forms.
    public static func understudy(
        tls: TLSCertificateMode? = nil, clock: ClockMode? = nil, daemon: Understudy? = nil
    ) -> Self {
        UnderstudyTrait(stubs: [], daemon: daemon, tls: tls, clock: clock)
    }

    /// Typed stubs and `files`: the earlier spelling. Files and typed stubs now go in one list.
    @available(*, deprecated, message: "put the files in the same list: .understudy(\"x.json\", stub, ...)")
    public static func understudy(
        _ stubs: Stub..., files: [String], tls: TLSCertificateMode? = nil,
        clock: ClockMode? = nil, daemon: Understudy? = nil
    ) -> Self {
        UnderstudyTrait(stubs: files, installing: stubs, daemon: daemon, tls: tls, clock: clock)
    }
}
#endif
