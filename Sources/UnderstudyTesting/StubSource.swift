import UnderstudyStubFormat

/// Something a test's session can start with: a stub file or directory, named by its path (a
/// `String`), or a typed `Stub`.
///
/// It lets the `.understudy(...)` trait take both in one list, under one spelling:
/// `.understudy(stubs: "stubs/weather.json", Stub.post("/v1/observations").respond(.status(201)))`.
/// Only `String` and `Stub` conform: the requirement's type can be made by this module alone.
public protocol StubSource: Sendable {
    /// What this source adds to a session.
    var stubSourceKind: StubSourceKind { get }
}

/// What a ``StubSource`` adds to a session: a stub file or directory, or a typed stub.
public struct StubSourceKind: Sendable {
    enum Kind: Sendable {
        case path(String)
        case typed(Stub)
    }

    let kind: Kind
}

extension String: StubSource {
    /// A stub file or directory, loaded as the daemon loads its own (relative to the current
    /// directory).
    public var stubSourceKind: StubSourceKind { StubSourceKind(kind: .path(self)) }
}

extension Stub: StubSource {
    /// The typed stub itself, installed after the session's files.
    public var stubSourceKind: StubSourceKind { StubSourceKind(kind: .typed(self)) }
}

extension Array where Element == any StubSource {
    /// The paths, then the typed stubs, each in the order given.
    var partitioned: (paths: [String], typed: [Stub]) {
        var paths: [String] = []
        var typed: [Stub] = []
        for source in self {
            switch source.stubSourceKind.kind {
            case .path(let path): paths.append(path)
            case .typed(let stub): typed.append(stub)
            }
        }
        return (paths, typed)
    }
}
