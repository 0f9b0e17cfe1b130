// Micro-benchmark of the engine alone: requests per second through `StubEngine.handle` with 1,
// 100 and 10 000 loaded stubs, journal on. No sockets: this is the ceiling the transport works
// under. Run it with scripts/bench-engine (release build).
//
// Usage: understudy-engine-bench [--requests N] [--journal-file PATH] [--unmatched-only STUBS [--random-paths]]
import Foundation
import UnderstudyCore

struct Options {
    var requests = 200_000
    var journalFile: String?
    /// Only the unmatched (near-miss) run, with this many stubs and `requests` runs: for callgrind.
    var unmatchedOnly: Int?
    /// With `unmatchedOnly`: every stub path (and the request's) 40 pseudo-random characters, the
    /// near-miss ranking's worst case (no stub is close, so few can be dismissed early).
    var randomPaths = false

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--requests": requests = iterator.next().flatMap(Int.init) ?? requests
            case "--journal-file": journalFile = iterator.next()
            case "--unmatched-only": unmatchedOnly = iterator.next().flatMap(Int.init)
            case "--random-paths": randomPaths = true
            default:
                FileHandle.standardError.write(
                    Data(
                        "usage: understudy-engine-bench [--requests N] [--journal-file PATH] [--unmatched-only STUBS [--random-paths]]\n"
                            .utf8))
                exit(2)
            }
        }
    }
}

/// `count` stubs shaped like real ones: exact paths under a few methods, a header matcher on every
/// tenth, a sequence on every seventh, plus a handful of pattern stubs that every request is
/// checked against.
func stubDocument(count: Int) -> [UInt8] {
    let methods = ["GET", "POST", "PUT", "DELETE"]
    var stubs: [String] = []
    stubs.reserveCapacity(count)
    for i in 0..<count {
        let method = methods[i % methods.count]
        let header = i % 10 == 0 ? #","headers":{"Accept":{"contains":"json"}}"# : ""
        let responses =
            i % 7 == 0
            ? #"[{"status":200,"json":{"id":\#(i),"ok":true},"times":2},{"status":201,"body":"done"}],"afterLast":"cycle""#
            : #"[{"status":200,"json":{"id":\#(i),"title":"item \#(i)"}}]"#
        stubs.append(
            #"{"id":"s\#(i)","request":{"method":"\#(method)","path":"/items/\#(i)"\#(header)},"responses":\#(responses)}"#
        )
    }
    for p in 0..<min(5, count) {
        stubs.append(
            #"{"id":"pattern\#(p)","request":{"pathPattern":"/patterned/\#(p)/[0-9]+"},"responses":[{"status":200}]}"#)
    }
    return Array(#"{"stubs":["#.utf8) + Array(stubs.joined(separator: ",").utf8) + Array("]}".utf8)
}

func requests(count: Int) -> [HTTPRequest] {
    let methods = ["GET", "POST", "PUT", "DELETE"]
    var headers = HTTPHeaders()
    headers.append(name: "Host", value: "127.0.0.1:8080")
    headers.append(name: "User-Agent", value: "engine-bench/1.0")
    headers.append(name: "Accept", value: "application/json")
    // A spread of targets: each stub in turn, cycling, so the index and every sequence are exercised.
    let distinct = min(count, 1_000)
    return (0..<distinct).map { i in
        let index = (i * 7919) % count
        return HTTPRequest(
            method: methods[index % methods.count], target: "/items/\(index)?page=\(i % 3)", headers: headers)
    }
}

func measure(stubCount: Int, options: Options, sink: (any JournalSink)?) throws -> (
    loadMs: Double, perSecond: Double, checksum: Int
) {
    let document = stubDocument(count: stubCount)
    let loadStart = DispatchTime.now().uptimeNanoseconds
    let set = try StubLoader.parse(bytes: document, file: "bench.json", root: nil)
    let loadMs = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e6
    let engine = StubEngine(stubs: set, configuration: EngineConfiguration(journalSink: sink))
    let batch = requests(count: stubCount)
    var checksum = 0
    // Warm-up, then the measured run.
    for i in 0..<min(10_000, options.requests) { checksum &+= engine.handle(batch[i % batch.count]).status }
    let start = DispatchTime.now().uptimeNanoseconds
    for i in 0..<options.requests {
        checksum &+= engine.handle(batch[i % batch.count]).status
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    precondition(engine.droppedJournalEntries + engine.journalEntries.count > 0, "journal must be on")
    return (loadMs, Double(options.requests) / seconds, checksum)
}

let options = Options(CommandLine.arguments)
var sink: JournalFileWriter?
if let path = options.journalFile {
    do { sink = try JournalFileWriter(path: path) } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
if let count = options.unmatchedOnly {
    var document = stubDocument(count: count)
    var target = "/itemz/12"
    if options.randomPaths {
        // A fixed seed, so instruction counts compare across builds.
        var state: UInt64 = 0x9E3779B97F4A7C15
        let letters = Array("abcdefghijklmnopqrstuvwxyz/")
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % letters.count
        }
        func word() -> String { "/" + String((0..<40).map { _ in letters[next()] }) }
        let stubs = (0..<count).map {
            #"{"id":"l\#($0)","request":{"method":"GET","path":"\#(word())"},"responses":[{}]}"#
        }
        document = Array(#"{"stubs":["#.utf8) + Array(stubs.joined(separator: ",").utf8) + Array("]}".utf8)
        target = word()
    }
    let set = try StubLoader.parse(bytes: document, file: "bench.json", root: nil)
    let engine = StubEngine(stubs: set)
    let request = HTTPRequest(method: "GET", target: target, headers: ["Host": "127.0.0.1"])
    for _ in 0..<options.requests { precondition(engine.handle(request).status == 404) }
    print("stubs \(count): \(options.requests) unmatched requests")
    exit(0)
}
print(
    "engine bench: \(options.requests) requests per run through StubEngine.handle, in-memory journal on (cap 100000)"
        + (options.journalFile.map { ", JSONL to \($0)" } ?? ""))
for count in [1, 100, 10_000] {
    do {
        let result = try measure(stubCount: count, options: options, sink: sink)
        let rate = Int(result.perSecond.rounded())
        print(
            "stubs \(String(count).padding(toLength: 6, withPad: " ", startingAt: 0)) load \(String(format: "%8.1f", result.loadMs)) ms   \(String(rate).padding(toLength: 9, withPad: " ", startingAt: 0)) requests/s   (checksum \(result.checksum))"
        )
    } catch {
        FileHandle.standardError.write(Data("bench stubs failed to load: \(error)\n".utf8))
        exit(1)
    }
}
// The slow path: no stub matches, so the engine ranks every stub to explain the closest misses.
for count in [100, 10_000] {
    let set = try StubLoader.parse(bytes: stubDocument(count: count), file: "bench.json", root: nil)
    let engine = StubEngine(stubs: set, configuration: EngineConfiguration(journalSink: sink))
    let request = HTTPRequest(method: "GET", target: "/itemz/12", headers: ["Host": "127.0.0.1"])
    let runs = count >= 10_000 ? 200 : 5_000
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<runs { precondition(engine.handle(request).status == 404) }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(
        "stubs \(String(count).padding(toLength: 6, withPad: " ", startingAt: 0)) unmatched (near-miss report)  \(Int((Double(runs) / seconds).rounded())) requests/s"
    )
}
sink?.close()
