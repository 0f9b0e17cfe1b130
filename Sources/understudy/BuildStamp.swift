/// The version and commit `understudy --version` prints.
///
/// They are stamped into the linked binary by `scripts/release` (scripts/lib/stamp.py), the way Go's
/// `-ldflags -X` sets a string: the slot below is a fixed-size literal that the script finds by its
/// marker and overwrites in place. Nothing is passed to the compiler, so the release archive reuses the
/// static build CI already compiled in .build-serve (a `-D` flag would recompile every module), and a
/// build that was never stamped says so ("dev", "unknown commit").
enum BuildStamp {
    /// The marker, then `version commit`, padded with NULs to 96 bytes. Keep the marker and the length
    /// in step with scripts/lib/stamp.py.
    private static let slot: StaticString =
        "UNDERSTUDY-BUILD-STAMP:\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"

    /// `understudy VERSION (commit COMMIT)`, or the unstamped build's `understudy dev (unknown commit)`.
    static var description: String {
        let fields = stamped().split(separator: " ", maxSplits: 1).map(String.init)
        let version = fields.first ?? "dev"
        let commit = fields.count > 1 ? fields[1] : "unknown commit"
        return "understudy \(version) (\(commit == "unknown commit" ? commit : "commit \(commit)"))"
    }

    /// The slot's bytes after the marker, up to the first NUL. Not optimised: the optimiser knows the
    /// literal's bytes and would fold this scan into the unstamped constant, so a stamp would never show.
    @_optimize(none)
    private static func stamped() -> String {
        slot.withUTF8Buffer { buffer in
            // The marker's length as a number: the marker spelled a second time here would be a second
            // copy of it in the binary, and the stamp must find exactly one.
            let marker = 23
            var end = marker
            while end < buffer.count, buffer[end] != 0 { end += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[marker..<end]), as: UTF8.self)
        }
    }
}
