import Foundation

extension Understudy {
    /// Adds `stubs` to this daemon or session in one `POST /__admin/stubs`, all or nothing (a stub
    /// with an existing id replaces it). A refusal throws `StubInstallError`, naming the line that
    /// built each refused stub and the daemon's reason.
    @discardableResult
    public func install(_ stubs: Stub..., fileID: String = #fileID, line: Int = #line) async throws -> AddedStubs {
        try await install(stubs, fileID: fileID, line: line)
    }

    /// Adds `stubs` in one call; see `install(_:)`.
    @discardableResult
    public func install(_ stubs: [Stub], fileID: String = #fileID, line: Int = #line) async throws -> AddedStubs {
        do {
            return try await admin.addStubs(json: Stub.file(stubs).jsonText)
        } catch UnderstudyError.admin(let failure) where failure.status == 400 {
            throw StubInstallError(
                installedAt: "\(fileID):\(line)", admin: failure,
                stubSites: failure.errors.map { error in
                    StubInstallError.stubIndex(error.path).flatMap {
                        stubs.indices.contains($0) ? "\(stubs[$0].fileID):\(stubs[$0].line)" : nil
                    }
                })
        }
    }

    /// Adds stubs given as raw stub-file JSON text (`{"stubs": [...]}`), all or nothing.
    @discardableResult
    public func install(json: String) async throws -> AddedStubs {
        try await admin.addStubs(json: json)
    }
}

extension Stub {
    /// The stub file holding `stubs`: `{"stubs": [...]}`.
    public static func file(_ stubs: [Stub]) -> JSONValue {
        ["stubs": .array(stubs.map(\.json))]
    }
}

extension Understudy {
    /// A new session (see `session(stubs:name:on:)`) with these typed stubs installed.
    public static func session(
        with stubs: Stub..., name: String? = nil, on daemon: Understudy? = nil,
        fileID: String = #fileID, line: Int = #line
    ) async throws -> Understudy {
        let session = try await session(name: name, on: daemon)
        do {
            try await session.install(stubs, fileID: fileID, line: line)
        } catch {
            await session.stop()
            throw error
        }
        return session
    }
}
