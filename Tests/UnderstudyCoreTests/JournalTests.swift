import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The request journal: every field, the cap, the sink and the JSONL file writer.
final class JournalTests: XCTestCase {
    func testEntryHasEveryDocumentedFieldInOrder() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_795_321_678.123_9))
        let engine = try makeEngine(
            #"{"stubs":[{"id":"p","request":{"path":"/posts"},"responses":[{"status":201}]}]}"#, clock: clock)
        clock.advance(milliseconds: 12.3456)  // wall clock now 04:27:58.136245
        var headers = HTTPHeaders()
        headers.append(name: "Host", value: "127.0.0.1:8080")
        headers.append(name: "X-Multi", value: "a")
        headers.append(name: "x-multi", value: "b")
        _ = engine.handle(
            HTTPRequest(method: "GET", target: "/posts?page=1", headers: headers, body: Array("hi \"there\"\n".utf8)))
        let line = String(decoding: engine.journalEntries[0].json, as: UTF8.self)
        XCTAssertEqual(
            line,
            #"{"seq":1,"time":"2026-11-22T04:27:58.136Z","elapsedMs":12.345,"method":"GET","path":"/posts","query":"page=1","headers":{"host":["127.0.0.1:8080"],"x-multi":["a","b"]},"body":"hi \"there\"\n","matched":true,"stub":"p","responseIndex":0,"status":201,"fault":null,"scenario":null,"rateLimited":false,"outcome":"answered","delayMs":0,"outcomeMs":12.345,"response":{"status":201,"headers":{},"bodySize":0,"body":"","truncated":false}}"#
        )
    }

    func testAnHTTP2RequestCarriesItsProtocolAndStreamAfterTheSchemeAndHTTP11LinesAreUnchanged() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_795_321_678.123_9))
        let engine = try makeEngine(
            #"{"stubs":[{"id":"p","request":{"path":"/posts"},"responses":[{"status":200}]}]}"#, clock: clock)
        var request = HTTPRequest(method: "GET", target: "/posts")
        request.isSecure = true
        request.streamID = 7
        _ = engine.handle(request)
        _ = engine.handle(HTTPRequest(method: "GET", target: "/posts"))
        let lines = engine.journalEntries.map { String(decoding: $0.json, as: UTF8.self) }
        XCTAssertTrue(
            lines[0].hasPrefix(#"{"seq":1,"scheme":"https","protocol":"HTTP/2","streamId":7,"time":"#), lines[0])
        XCTAssertTrue(lines[1].hasPrefix(#"{"seq":2,"time":"#), lines[1])
        XCTAssertFalse(lines[1].contains(#""protocol""#), lines[1])
    }

    func testLinesEscapeControlsQuotesAndLongValuesThatOutgrowTheScratchBuffer() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#)
        let long = String(repeating: "ab\u{1}\"\\", count: 600)  // 3 000 bytes, 7 200 once escaped
        var headers = HTTPHeaders()
        headers.append(name: "X-Ctl", value: "tab\there\u{7F}é")
        _ = engine.handle(HTTPRequest(method: "PUT", target: "/esc", headers: headers, body: Array(long.utf8)))
        _ = engine.get("/after")
        let first = String(decoding: engine.journalEntries[0].json, as: UTF8.self)
        XCTAssertTrue(first.contains(#""x-ctl":["tab\there\u007fé"]"#), first)
        XCTAssertTrue(first.contains(#""body":""# + String(repeating: #"ab\u0001\"\\"#, count: 600) + #"","#))
        XCTAssertEqual(engine.journalObjects[0]["body"] as? String, long, "the line is valid JSON that decodes back")
        XCTAssertEqual(engine.journalObjects[1]["path"] as? String, "/after", "the scratch buffer is reused cleanly")
        XCTAssertEqual(engine.journalEntries[1].line.last, UInt8(ascii: "\n"))
    }

    func testNonUTF8BodyIsBase64AndMissingQueryIsNull() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#)
        _ = engine.handle(HTTPRequest(method: "POST", target: "/bin", body: [0xFF, 0xFE, 0x00]))
        let entry = engine.journalObjects[0]
        XCTAssertEqual(entry["bodyBase64"] as? String, "//4A")
        XCTAssertNil(entry["body"])
        XCTAssertTrue(entry["query"] is NSNull)
        _ = engine.get("/empty?")
        XCTAssertEqual(engine.journalObjects[1]["query"] as? String, "")
        XCTAssertEqual(engine.journalObjects[1]["body"] as? String, "")
    }

    func testElapsedIsMonotonicSubMillisecondAndSurvivesReset() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(#"{"stubs":[]}"#, clock: clock)
        clock.advance(milliseconds: 0.25)
        _ = engine.get("/a")
        clock.advance(milliseconds: 1500)
        _ = engine.get("/b")
        XCTAssertEqual(engine.journalObjects.map { $0["elapsedMs"] as? Double }, [0.25, 1500.25])
        engine.reset()
        clock.advance(milliseconds: 1)
        _ = engine.get("/c")
        XCTAssertEqual(engine.journalObjects.map { $0["elapsedMs"] as? Double }, [1501.25])
        XCTAssertEqual(engine.journalObjects.map { $0["seq"] as? Int }, [1], "reset restarts seq")
    }

    func testCapDropsOldestAndCountsThem() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#, journalLimit: 3)
        for i in 1...7 { _ = engine.get("/\(i)") }
        XCTAssertEqual(engine.journalEntries.map(\.seq), [5, 6, 7])
        XCTAssertEqual(engine.journalEntries.map(\.request.path), ["/5", "/6", "/7"])
        XCTAssertEqual(engine.droppedJournalEntries, 4)
        let listed = engine.adminCall("GET", "/__admin/requests").jsonObject
        XCTAssertEqual(listed["dropped"] as? Int, 4)
        XCTAssertEqual(listed["total"] as? Int, 3)
    }

    func testSinkGetsEachLineBeforeTheResponseIsReturned() throws {
        let sink = CollectingSink()
        let engine = try makeEngine(#"{"stubs":[{"responses":[{}]}]}"#, sink: sink)
        _ = engine.get("/one")
        XCTAssertEqual(sink.lines.count, 1)
        _ = engine.get("/two")
        XCTAssertEqual(sink.lines.count, 2)
        XCTAssertEqual(sink.lines[1].last, UInt8(ascii: "\n"))
        XCTAssertEqual(sink.lines[1], engine.journalEntries[1].line, "one encoding shared by memory and sink")
        XCTAssertEqual(Array(engine.journalEntries[1].json), Array(sink.lines[1].dropLast()))
        XCTAssertEqual(jsonObject(Array(sink.lines[0].dropLast()))["path"] as? String, "/one")
    }

    func testAdminRequestsAreNotJournaledButRejectedOnesAre() throws {
        let responder = UnderstudyResponder(
            stubs: try StubLoader.parse(bytes: Array(#"{"stubs":[]}"#.utf8), file: "t.json", root: nil))
        _ = responder.respond(to: HTTPRequest(method: "GET", target: "/__admin/health"))
        let rejected = responder.reject(
            HTTPRequest(method: "POST", target: "/big"), status: 413, reason: "body over 1024 bytes")
        XCTAssertEqual(rejected.status, 413)
        XCTAssertEqual(rejected.text, "body over 1024 bytes\n")
        let entries = responder.engine.journalObjects
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[0]["status"] as? Int, 413)
        XCTAssertEqual(entries[0]["matched"] as? Bool, false)
    }

    func testFileWriterAppendsLines() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/journal.jsonl"
        try write("existing\n", to: path)
        let writer = try JournalFileWriter(path: path)
        let engine = try makeEngine(#"{"stubs":[]}"#, sink: writer)
        _ = engine.get("/a")
        _ = engine.get("/b")
        writer.close()
        writer.write(line: Array("after close\n".utf8))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines[0], "existing")
        XCTAssertEqual(jsonObject(Array(lines[2].utf8))["path"] as? String, "/b")
    }

    func testFileWriterBatchesWriteTogetherWhenTheBatchEndsAndOutsideOneAtOnce() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/journal.jsonl"
        let writer = try JournalFileWriter(path: path)
        let engine = try makeEngine(#"{"stubs":[]}"#, sink: writer)
        let fileText = { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        engine.beginJournalBatch()
        _ = engine.get("/a")
        _ = engine.get("/b")
        XCTAssertEqual(fileText(), "", "held back while the batch is open")
        engine.endJournalBatch()
        XCTAssertEqual(
            fileText().split(separator: "\n").map { jsonObject(Array($0.utf8))["path"] as? String }, ["/a", "/b"])
        _ = engine.get("/c")
        XCTAssertEqual(fileText().split(separator: "\n").count, 3, "outside a batch each line is written at once")
        engine.beginJournalBatch()
        _ = engine.get("/d")
        writer.close()
        XCTAssertEqual(fileText().split(separator: "\n").count, 4, "closing writes what a batch still held")
    }

    func testFileWriterReportsWhyItCannotOpen() throws {
        let directory = try makeTemporaryDirectory(self)
        XCTAssertThrowsError(try JournalFileWriter(path: directory + "/missing/dir/journal.jsonl")) { error in
            let failure = error as! JournalFileError
            XCTAssertEqual(failure.errno, ENOENT)
            XCTAssertEqual(failure.path, directory + "/missing/dir/journal.jsonl")
            XCTAssertTrue(failure.description.contains("No such file or directory"), failure.description)
        }
    }

    func testFileWriterReportsFailedWritesOncePerBurstAndKeepsGoing() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full to make writes fail")
        let writer = try JournalFileWriter(path: "/dev/full")
        let captured = try captureStandardError {
            for _ in 0..<3 { writer.write(line: Array("{\"seq\":1}\n".utf8)) }
        }
        writer.close()
        let reports = captured.split(separator: "\n").filter { $0.contains("journal write to /dev/full failed") }
        XCTAssertEqual(reports.count, 1, captured)
        XCTAssertTrue(captured.contains("No space left on device"), captured)
    }

    /// Runs `body` with file descriptor 2 pointed at a pipe and returns what was written to it.
    private func captureStandardError(_ body: () -> Void) throws -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw XCTSkip("pipe failed") }
        let saved = dup(2)
        dup2(fds[1], 2)
        body()
        dup2(saved, 2)
        close(saved)
        close(fds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        close(fds[0])
        return String(decoding: output, as: UTF8.self)
    }
}
