import Foundation

/// The daemon refused stubs built in Swift: each of its errors is paired with the Swift line that
/// built the stub it is about (`#fileID:#line`), and the `install` call is named too.
public struct StubInstallError: Error, Sendable, CustomStringConvertible {
    /// Where `install` was called.
    public var installedAt: String
    /// The daemon's refusal, as the admin API gave it.
    public var admin: AdminError
    /// For each of `admin.errors`, where the stub it names was built (`nil` when it names none).
    public var stubSites: [String?]

    public var description: String {
        // The daemon's message repeats its first error; with errors, each gets its own line instead.
        var text =
            "the daemon refused the stubs installed at \(installedAt): "
            + (admin.errors.isEmpty ? admin.message : "\(admin.errors.count) error(s)")
        for (error, site) in zip(admin.errors, stubSites) {
            text +=
                "\n  \(site ?? installedAt): \(error.message)" + (error.path.map { " (at \($0))" } ?? "")
                + Self.suggestion(error)
        }
        return text
    }

    /// The daemon's suggestion when its message does not already give it (its typo messages end
    /// "did you mean `x`?"; appending the bare key again read as a stray "; x").
    static func suggestion(_ error: StubValidationError) -> String {
        guard let suggestion = error.suggestion, !error.message.contains("`\(suggestion)`") else { return "" }
        return "; did you mean `\(suggestion)`?"
    }

    /// The index N of a JSON path that starts `stubs[N]`.
    static func stubIndex(_ path: String?) -> Int? {
        guard let path, path.hasPrefix("stubs[") else { return nil }
        return Int(path.dropFirst("stubs[".count).prefix { $0.isNumber })
    }
}
