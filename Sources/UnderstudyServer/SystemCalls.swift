#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `close(2)`, reachable from types that have a `close()` method of their own.
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
