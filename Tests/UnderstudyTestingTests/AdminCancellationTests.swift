import Foundation
import Testing
import UnderstudyTesting

/// Regression: cancelling in-flight admin calls (as a task group does to its siblings when one
/// child throws) must not freeze the admin client — FoundationNetworking could deadlock in
/// `URLSession.data(for:)` that way and stop every later call. Admin calls now ignore
/// cancellation: each still completes with its real answer, and other calls go on meanwhile.
@Suite(
    "UnderstudyTesting: admin calls survive cancellation",
    .understudy(
        Stub.request(nil, pathPattern: "/cancel/.*").respond(.status(204))
    ))
struct AdminCancellationTests {
    struct Thrown: Error {}

    @Test func cancellingInFlightAdminCallsRepeatedlyFreezesNothing() async throws {
        let understudy = try #require(Understudy.current)
        let rounds = 25
        let workload = Task.detached { () async throws -> (waits: Int, other: Int) in
            // Other calls go on the whole time: a steady stream of admin reads and client requests.
            let other = Task.detached { () async throws -> Int in
                var done = 0
                for index in 0..<(rounds * 4) {
                    _ = try await understudy.admin.health()
                    try await HTTP.send("GET", "/cancel/other-\(index)", to: understudy)
                    done += 1
                }
                return done
            }
            var completedWaits = 0
            for round in 0..<rounds {
                let wake = "/cancel/wake-\(round)"
                let answers = try await withThrowingTaskGroup(of: RequestWait?.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await understudy.admin.requestsAfterWaiting(
                                RequestFilter(path: wake), count: 1, timeout: 20)
                        }
                    }
                    for index in 0..<4 {
                        group.addTask {
                            switch index {
                            case 0: _ = try await understudy.admin.requests()
                            case 1: _ = try await understudy.admin.stubs()
                            case 2: _ = try await understudy.admin.scenarios()
                            default: _ = try await understudy.admin.health()
                            }
                            return nil
                        }
                    }
                    // All four long polls are parked on the daemon: the calls are in flight.
                    try await Self.waitUntil { (try await understudy.admin.health().waiting ?? 0) >= 4 }
                    // A sibling throws: the group cancels every in-flight call, as in the field.
                    group.addTask { throw Thrown() }
                    do {
                        while try await group.next() != nil {}
                    } catch is Thrown {}
                    // The cancelled long polls are still waiting (no Swift cancellation reaches
                    // them); the request they wait for ends them with their real answer.
                    try await HTTP.send("GET", wake, to: understudy)
                    var answers: [RequestWait] = []
                    while let answer = try? await group.next() { if let answer { answers.append(answer) } }
                    return answers
                }
                completedWaits += answers.filter { !$0.timedOut && $0.requests.map(\.path) == [wake] }.count
            }
            return (completedWaits, try await other.value)
        }
        // A frozen client never returns: wait with a deadline, and fail instead of hanging.
        let finished = Flag()
        let watched = Task {
            let result = try await workload.value
            finished.set()
            return result
        }
        let deadline = ContinuousClock.now + .seconds(90)
        while !finished.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(finished.isSet, "admin calls froze after cancellation")
        let (waits, other) = try await watched.value
        #expect(other == rounds * 4, "every other call completed")
        #expect(waits <= rounds * 4)
        // The group's cancellation may land before a long poll is sent in a few rounds; most
        // must still have completed with the request they waited for.
        #expect(waits >= rounds * 3, "cancelled long polls ended with their real answer: \(waits) of \(rounds * 4)")
        #expect(try await understudy.admin.health().status == "ok", "the client still works afterwards")
    }

    /// Cancellation at arbitrary points of a call (connecting, sending, waiting for the answer).
    /// With the old URLSession admin client this froze the test process in 3 runs of 3 (the
    /// cooperative threads blocked inside FoundationNetworking, so not even the deadline below
    /// could fire); with the socket client every call completes:
    /// hundreds of groups of admin calls cancelled after 0-3 ms, while another task keeps
    /// calling. Every call still returns its answer, and nothing freezes.
    @Test func cancellingAdminCallsAtArbitraryPointsFreezesNothing() async throws {
        let understudy = try #require(Understudy.current)
        let rounds = 150
        let workload = Task.detached { () async throws -> (answered: Int, other: Int) in
            let other = Task.detached { () async throws -> Int in
                var done = 0
                for _ in 0..<rounds {
                    _ = try await understudy.admin.requests()
                    done += 1
                }
                return done
            }
            var answered = 0
            for round in 0..<rounds {
                answered += await withTaskGroup(of: Int.self) { group in
                    for index in 0..<6 {
                        group.addTask {
                            let ok: Bool
                            switch index % 3 {
                            case 0: ok = (try? await understudy.admin.health()) != nil
                            case 1: ok = (try? await understudy.admin.stubs()) != nil
                            default:
                                ok =
                                    (try? await understudy.admin.requestsAfterWaiting(
                                        RequestFilter(path: "/cancel/none"), count: 1, timeout: 0.05)) != nil
                            }
                            return ok ? 1 : 0
                        }
                    }
                    try? await Task.sleep(nanoseconds: UInt64(round % 4) * 1_000_000)
                    group.cancelAll()
                    var sum = 0
                    for await one in group { sum += one }
                    return sum
                }
            }
            return (answered, try await other.value)
        }
        let finished = Flag()
        let watched = Task {
            let result = try await workload.value
            finished.set()
            return result
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while !finished.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(finished.isSet, "admin calls froze after cancellation")
        let (answered, other) = try await watched.value
        #expect(other == rounds, "every other call completed")
        #expect(answered == rounds * 6, "every cancelled call still returned its answer")
    }

    /// Polls `condition` until true (deadline 10 s).
    static func waitUntil(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw Thrown() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// A thread-safe one-way flag.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
