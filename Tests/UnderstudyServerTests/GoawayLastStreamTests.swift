import UnderstudyCore
import XCTest

@testable import UnderstudyServer

/// A `goaway` fault's last-stream id (RFC 9113 §6.8: the highest stream the sender might have acted
/// on). Named by position (`previous`, `this`), it is raised to cover a later stream the server had
/// already handed on (one that arrived during the fault's delay); a number is sent as written.
final class GoawayLastStreamTests: XCTestCase {
    func testPositionalIdsCoverLaterStreamsAlreadyActedOn() {
        // Nothing after the faulted stream was handed on: the stub's id as resolved.
        XCTAssertEqual(HTTP2Session.lastStream(covering: 3, for: .previous, faulted: 5, highestDispatched: 5), 3)
        XCTAssertEqual(HTTP2Session.lastStream(covering: 5, for: .this, faulted: 5, highestDispatched: 3), 5)
        // Stream 7 was answered while stream 5's fault waited: the GOAWAY may not disown it.
        XCTAssertEqual(HTTP2Session.lastStream(covering: 3, for: .previous, faulted: 5, highestDispatched: 7), 7)
        XCTAssertEqual(HTTP2Session.lastStream(covering: 5, for: .this, faulted: 5, highestDispatched: 9), 9)
    }

    func testANumberIsSentAsWritten() {
        XCTAssertEqual(HTTP2Session.lastStream(covering: 0, for: .id(0), faulted: 5, highestDispatched: 9), 0)
        XCTAssertEqual(HTTP2Session.lastStream(covering: 11, for: .id(11), faulted: 5, highestDispatched: 9), 11)
    }
}
