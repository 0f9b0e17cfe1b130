#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` response header, formatted once per second.
///
/// Every response that lacks a `Date` gets one (RFC 9110 §6.6.1); formatting it each time was one of
/// the larger costs of sending a reply. This cache costs a `time(2)` read, which the vDSO answers
/// without a syscall.
struct DateHeader {
    private var second: time_t = -1
    /// `Sun, 06 Nov 1994 08:49:37 GMT` and its terminating NUL.
    private var text = [CChar](repeating: 0, count: 40)

    /// Calls `body` with the header value for the current second, as a C string. Always inlined:
    /// in the codec's generic writer it had become a call (~50 instructions a reply, callgrind).
    @inline(__always)
    mutating func withCurrentValue<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let now = time(nil)
        if now != second {
            second = now
            var parts = tm()
            var seconds = now
            gmtime_r(&seconds, &parts)
            // Swift never calls setlocale, so strftime uses the C locale's English names.
            _ = text.withUnsafeMutableBufferPointer {
                strftime($0.baseAddress, $0.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            }
        }
        return text.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
