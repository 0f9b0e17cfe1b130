import UnderstudyRegex

/// `pattern` and `patternProperties` regexes, compiled once per process.
///
/// JSON Schema patterns are ECMA-262 and unanchored (a match anywhere counts); Understudy's engine
/// matches whole texts, so a pattern is wrapped as `(?s:.*)(?:pattern)(?s:.*)`. What the engine
/// refuses (lookaround, backreferences) is reported as unchecked, never as a pass or a failure.
/// Differences from ECMA-262 that remain: `$` also matches before a final newline, and `\d`, `\w`
/// follow the engine's classes.
enum PatternCache {
    private static let lock = Lock()
    nonisolated(unsafe) private static var compiled: [String: CompiledRegex?] = [:]

    /// Whether `pattern` matches somewhere in `text`; `nil` when the engine cannot compile it.
    static func search(_ pattern: String, in text: String) -> Bool? {
        let regex: CompiledRegex? = lock.withLock {
            if let cached = compiled[pattern] { return cached }
            let made = try? CompiledRegex("(?s:.*)(?:\(pattern))(?s:.*)")
            compiled[pattern] = made
            return made
        }
        return regex?.matchesWhole(text)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex (the module imports no Foundation).
final class Lock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }

    deinit { pthread_mutex_destroy(&mutex) }

    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
