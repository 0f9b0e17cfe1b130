// libFuzzer target over the engine: the input bytes are decoded into a sequence of operations
// (requests, clock steps, admin resets and scenario changes) against a fixed stub set, and the
// issue's invariants are checked after every step; a violation traps, which libFuzzer records.
// Compiled together with Sources/UnderstudyCore/**/*.swift into one module by scripts/fuzz.
@testable import UnderstudyCore

let engineFuzzStubs = #"""
    {"stubs": [
      {"id": "seq-exhaust", "request": {"method": "GET", "path": "/seq"}, "afterLast": "exhaust",
       "responses": [{"status": 200}, {"status": 201, "times": 2}, {"status": 202}]},
      {"id": "seq-cycle", "request": {"method": "GET", "path": "/cycle"}, "afterLast": "cycle",
       "responses": [{"status": 200}, {"status": 201}, {"status": 202, "times": 3}]},
      {"id": "seq-repeat", "request": {"path": "/repeat"},
       "responses": [{"status": 200, "times": 2}, {"status": 500, "fault": "connection-reset"}, {"status": 503}]},
      {"id": "login", "request": {"method": "POST", "path": "/login"}, "scenario": "auth", "setState": "LoggedIn",
       "responses": [{"status": 200}]},
      {"id": "data-anon", "request": {"method": "GET", "path": "/data"}, "scenario": "auth", "whenState": "Started",
       "responses": [{"status": 401}]},
      {"id": "data-in", "request": {"method": "GET", "path": "/data"}, "scenario": "auth", "whenState": "LoggedIn",
       "setState": "Expired", "responses": [{"status": 200}]},
      {"id": "data-expired", "request": {"method": "GET", "path": "/data"}, "scenario": "auth", "whenState": "Expired",
       "responses": [{"status": 419}]},
      {"id": "limited", "request": {"method": "GET", "path": "/limited"},
       "rateLimit": {"limit": 3, "window": 1}, "responses": [{"status": 200}]},
      {"id": "limited-fraction", "request": {"method": "GET", "path": "/limited2"},
       "rateLimit": {"limit": 1, "window": 0.25, "retryAfter": "fractional"}, "responses": [{"status": 200}]},
      {"id": "bucket", "request": {"method": "GET", "path": "/bucket"},
       "rateLimit": {"limit": 2, "window": 1, "algorithm": "token-bucket"}, "responses": [{"status": 200}]},
      {"id": "regex", "request": {"method": "POST", "pathPattern": "^/items/[0-9]+$", "body": {"contains": "x"}},
       "responses": [{"status": 204}]},
      {"id": "templated", "request": {"pathPattern": "^/t/.*"},
       "responses": [{"template": true, "headers": {"X-Echo": "{{request.headers.x}}", "Link": "<{{server.url}}{{request.url}}>"},
                      "json": {"seg": "{{request.pathSegments.1}}", "q": "{{request.query.q}}", "body": "{{request.body}}",
                               "field": "{{request.json.a.b}}", "seq": "{{seq}}", "now": "{{now.plus.1h.iso}}",
                               "id": "{{random.uuid}}", "n": "{{random.int.1.6}}",
                               "{{request.method}}": ["{{#request.json.a}}{{b}}{{/request.json.a}}", 1]}},
                     {"template": true, "body": "{{request.body}}", "dribble": {"chunks": 3, "overMs": 10}}]},
      {"id": "stream", "request": {"path": "/sse"},
       "responses": [{"template": true, "events": [{"data": "{{request.query.q}}", "id": "1"}, {"comment": "c", "retry": 5, "delayMs": 3}]},
                     {"body": "slow", "bytesPerSecond": 3}]}
    ]}
    """#

private let engineFuzzPaths = [
    "/seq", "/cycle", "/repeat", "/login", "/data", "/limited", "/limited2", "/bucket",
    "/items/1", "/items/x", "/nothing", "/seq?x=1", "/%2e%2e/seq", "/",
    "/t/a%20b?q=%ZZ&q=2", "/t/", "/t/x/y?q", "/sse?q=a%0Ab", "/sse",
]
private let engineFuzzMethods = ["GET", "POST", "PUT", "DELETE", "HEAD"]
private let engineFuzzStates = ["Started", "LoggedIn", "Expired"]

/// The stub set, parsed once: the loader itself is the other target's concern.
private let engineFuzzSet: StubSet = {
    do {
        return try StubLoader.parse(bytes: Array(engineFuzzStubs.utf8), file: "<engine-fuzz>", root: nil)
    } catch {
        fatalError("the engine fuzz stubs do not load: \(error)")
    }
}()

/// Counts the lines the engine hands its journal sink.
private final class CountingSink: JournalSink {
    var lines = 0
    var lastLine: [UInt8]?
    func write(line: [UInt8]) {
        lines += 1
        lastLine = line
        precondition(line.last == 10, "a journal line without its newline")
    }
}

private func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant violated: \(message())") }
}

/// Reads `"key":<integer>` from a journal line; nil for null or absent.
private func integerField(_ node: JSONNode, _ key: String) -> Int? {
    guard let member = node.members?.first(where: { $0.key == key }), let text = member.value.numberText else {
        return nil
    }
    return Int(text)
}

/// One engine input: a sequence of operations, every invariant checked after each.
func fuzzEngine(_ bytes: [UInt8]) {
    let clock = ManualEngineClock()
    let sink = CountingSink()
    let responder = UnderstudyResponder(
        stubs: engineFuzzSet,
        configuration: EngineConfiguration(journalLimit: 64, journalSink: sink, clock: clock))
    let engine = responder.engine
    let stubIDs = engine.stubs.map(\.id)
    let declared = engine.scenarios.knownStates
    var expectedSeq = 0
    var lastIndex: [String: Int] = [:]  // per sequence stub, since the last reset
    var admitted: [String: [UInt64]] = [:]  // admitted request times per sliding-window stub
    var cursor = 0
    var exhausted = false
    var sinkBase = 0  // sink lines before the last reset
    var expectedStream: String?  // the last answer's `stream` kind, for its journal line

    func next() -> UInt8? {
        guard cursor < bytes.count else { return nil }
        defer { cursor += 1 }
        return bytes[cursor]
    }

    while let op = next() {
        switch op % 16 {
        case 0:  // step the clock by 0..255 × 10 ms
            clock.advance(milliseconds: Double(next() ?? 0) * 10)
        case 1:  // admin reset: seq restarts at 1, sequences and rate limits start over
            let response = responder.respond(to: HTTPRequest(method: "POST", target: "/__admin/reset"))
            fuzzCheck(response.status == 200, "reset answered \(response.status)")
            fuzzCheck(engine.journal.count == 0, "the journal survived a reset")
            expectedSeq = 0
            sinkBase = sink.lines
            exhausted = false
            lastIndex = [:]
            admitted = [:]
        case 2:  // admin: force the scenario into a state, declared or not
            let pick = Int(next() ?? 0)
            let state = pick < 200 ? engineFuzzStates[pick % engineFuzzStates.count] : "Undeclared\(pick)"
            let before = sink.lines
            let response = responder.respond(
                to: HTTPRequest(
                    method: "PUT", target: "/__admin/scenarios/auth",
                    body: Array("{\"state\":\"\(state)\"}".utf8)))
            fuzzCheck(sink.lines == before, "an admin request was journaled")
            fuzzCheck(
                response.status == (declared["auth"]!.contains(state) ? 200 : 400),
                "PUT scenario \(state) answered \(response.status)")
        case 3:  // a transport rejection is journaled too
            let request = HTTPRequest(method: "POST", target: engineFuzzPaths[Int(next() ?? 0) % engineFuzzPaths.count])
            _ = responder.reject(request, status: 413, reason: "too large")
            expectedSeq += 1
            expectedStream = nil
        default:  // a request
            let method = engineFuzzMethods[Int(next() ?? 0) % engineFuzzMethods.count]
            let path = engineFuzzPaths[Int(next() ?? 0) % engineFuzzPaths.count]
            let bodyLength = Int(next() ?? 0) % 4
            let body = Array(bytes[cursor..<min(bytes.count, cursor + bodyLength)])
            cursor += body.count
            let request = HTTPRequest(method: method, target: path, headers: ["Host": "fuzz"], body: body)
            let how = Int(next() ?? 0) % 4
            let response: HTTPResponse
            if how == 0 {
                response = responder.respond(to: request)
            } else {
                // As a transport does: the entry waits for the delivery report, given exactly once
                // however often it is reported (answered as planned, or the client gone).
                let (answer, ticket) = responder.answerAwaitingDelivery(request)
                guard case .now(let answered) = answer else {
                    fatalError("invariant violated: a stub request was deferred")
                }
                response = answered
                fuzzCheck(ticket != nil, "a stub request got no journal ticket")
                fuzzCheck(sink.lines - sinkBase == expectedSeq, "journaled before the delivery was reported")
                ticket?.commit(how == 1 ? .clientGone : .planned(response))
                ticket?.commit(.shutdown)
            }
            expectedSeq += 1
            expectedStream = response.streaming?.kind.rawValue
            // Templates: request bytes never break the JSON body or a header line.
            if response.stubID == "templated", response.streaming == nil {
                fuzzCheck(
                    (try? JSONParser.parse(response.body)) != nil, "a templated json body is not JSON: \(response.body)"
                )
            }
            for field in response.headers {
                fuzzCheck(
                    !field.value.utf8.contains { $0 == 10 || $0 == 13 || $0 == 0 },
                    "header \(field.name) carries a line break")
            }
            if case .dribble(let chunks, _)? = response.streaming {
                let pieces = response.streaming!.pieces(body: response.body)
                fuzzCheck(pieces.flatMap(\.bytes) == response.body, "dribble pieces do not add up to the body")
                fuzzCheck(
                    pieces.count == min(chunks, response.body.count), "\(pieces.count) pieces for \(chunks) chunks")
            }
        }
        // Exactly one journal entry per non-admin request, seq advancing by one; checked on the
        // sink's bytes (what the JSON Lines file gets) and on the in-memory journal's counters.
        fuzzCheck(
            engine.journal.nextSeq == expectedSeq + 1,
            "journal next seq \(engine.journal.nextSeq) after \(expectedSeq) requests")
        fuzzCheck(
            engine.journal.count == min(expectedSeq, 64),
            "journal holds \(engine.journal.count) entries after \(expectedSeq) requests")
        if op % 16 >= 3, let line = sink.lastLine {
            sink.lastLine = nil
            let node: JSONNode
            do { node = try JSONParser.parse(line) } catch {
                fatalError("invariant violated: journal line is not JSON: \(error)")
            }
            fuzzCheck(
                integerField(node, "seq") == expectedSeq,
                "line seq \(integerField(node, "seq") ?? -1), expected \(expectedSeq)")
            let stream = node.members?.first(where: { $0.key == "stream" })?.value.stringValue
            fuzzCheck(
                stream == expectedStream, "journal stream \(stream ?? "nil"), answered \(expectedStream ?? "nil")")
            let stub = node.members?.first(where: { $0.key == "stub" })?.value.stringValue
            let rateLimited =
                node.members?.first(where: { $0.key == "rateLimited" }).map { member -> Bool in
                    if case .bool(true) = member.value.kind { return true }
                    return false
                } ?? false
            // The journal tells what was sent: no status line for a fault other than
            // close-after-headers and malformed-response-chunk, nor for a client that left.
            let fault = node.members?.first(where: { $0.key == "fault" })?.value.stringValue
            let outcome = node.members?.first(where: { $0.key == "outcome" })?.value.stringValue
            fuzzCheck(["answered", "fault", "client-gone"].contains(outcome ?? ""), "outcome \(outcome ?? "absent")")
            if (fault != nil && fault != "close-after-headers" && fault != "malformed-response-chunk")
                || outcome == "client-gone"
            {
                fuzzCheck(
                    integerField(node, "status") == nil,
                    "a status for outcome \(outcome ?? "") fault \(fault ?? "none")")
            }
            fuzzCheck((fault != nil) == (outcome == "fault"), "fault \(fault ?? "none") with outcome \(outcome ?? "")")
            if let stub, let index = integerField(node, "responseIndex") {
                if stub.hasPrefix("seq-") && stub != "seq-cycle" {
                    // Sequence indexes only advance (cycle wraps by design).
                    fuzzCheck(index >= (lastIndex[stub] ?? 0), "\(stub) went back from \(lastIndex[stub]!) to \(index)")
                    lastIndex[stub] = index
                }
            }
            if let stub, stub.hasPrefix("limited"), !rateLimited {
                let window: UInt64 = stub == "limited" ? 1_000_000_000 : 250_000_000
                let limit = stub == "limited" ? 3 : 1
                let now = clock.monotonicNanoseconds
                var times = admitted[stub, default: []].filter { $0 + window > now }
                times.append(now)
                fuzzCheck(times.count <= limit, "\(stub) admitted \(times.count) requests inside one window")
                admitted[stub] = times
            }
            if stub == "seq-exhaust" {
                fuzzCheck(!exhausted, "seq-exhaust answered after its last response")
                if integerField(node, "responseIndex") == 2 { exhausted = true }
            }
        }
        fuzzCheck(
            sink.lines - sinkBase == expectedSeq,
            "the sink got \(sink.lines - sinkBase) lines for \(expectedSeq) requests")
        // Scenario states only take declared values.
        for (name, states) in declared {
            let state = engine.scenarios.state(of: name)
            fuzzCheck(states.contains(state), "scenario \(name) is in undeclared state \(state)")
        }
        fuzzCheck(stubIDs.count == engine.stubs.count, "the stub set changed")
    }
}
