import UnderstudyHTTP

/// A ``ResponseStreaming`` in a box of its own, so responses carry it as one plain pointer (not an
/// `indirect` enum, whose tag bits hide the pointer from LeakSanitizer).
package final class Pacing: Sendable {
    package let streaming: ResponseStreaming

    package init(_ streaming: ResponseStreaming) {
        self.streaming = streaming
    }
}
