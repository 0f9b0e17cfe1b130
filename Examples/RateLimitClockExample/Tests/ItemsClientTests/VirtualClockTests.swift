import Foundation
import ItemsClient
import RESTNetworking
import Testing
import UnderstudyTesting

// One request per 30 s; the second is refused with `Retry-After: 30`, and the client waits that out.
// With both clocks virtual the wait is one `advance(by: .seconds(30))` and the test takes well under
// a second. The same test on real clocks is `ItemsClient(baseURL:)` (scheduler `.system`), the
// `.understudy` trait without `clock:`, and no `advance`: it passes too, in about 30 s (not run).

let window = Stub.get("/v1/items").rateLimit(1, per: 30).respond(.json(["apples", "pears"]))
let start = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z

@Test(.understudy(window, clock: .frozen(at: start)))
func theClientWaitsOutThirtySecondsOfVirtualTime() async throws {
    let wall = ContinuousClock.now
    let understudy = try #require(Understudy.current)
    let scheduler = ManualRetryScheduler()
    let time = VirtualTime(server: understudy.clock) { scheduler.advance(by: $0.timeInterval) }
    let client = ItemsClient(baseURL: understudy.baseURL, scheduler: scheduler)

    #expect(try await client.items() == ["apples", "pears"])

    // The second call is refused; the client schedules its retry on the virtual scheduler.
    let (waits, waiting) = AsyncStream.makeStream(of: TimeInterval.self)
    let second = Task { try await client.items(onRetry: { waiting.yield($0.delay) }) }
    var asked: TimeInterval?
    for await delay in waits {
        asked = delay
        break
    }
    #expect(asked == 30)  // `Retry-After: 30`, the window's rest on the frozen clock

    // One advance moves both clocks: the window rolls on the server, then the retry fires.
    let fired = try await time.advance(by: .seconds(30))
    #expect(fired.map(\.kind) == ["rateLimitWindow"])
    #expect(try await second.value == ["apples", "pears"])

    let requests = await understudy.verify(.exactly(3), .get("/v1/items"))
    #expect(requests.map(\.rateLimited) == [false, true, false])
    #expect(try await understudy.clock.now == start.addingTimeInterval(30))
    #expect(ContinuousClock.now - wall < .seconds(1), "no real wait")
}
