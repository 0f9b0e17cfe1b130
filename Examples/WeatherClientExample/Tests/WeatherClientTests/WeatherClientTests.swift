import Foundation
import Testing
import UnderstudyTesting
import WeatherClient

// Each test runs in its own session of one shared daemon (the `.understudy` trait), in parallel.

@Test(
    .understudy(
        Stub.get("/v1/forecast").respond(.status(503).retryAfter(0.2), .json(["city": "Oslo", "tempC": 21.5]))
    ))
func forecastWaitsOutA503() async throws {
    let understudy = try #require(Understudy.current)
    let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1")
    #expect(try await client.forecast(city: "Oslo").tempC == 21.5)
    await understudy.verify(.exactly(2), .get("/v1/forecast").query("city", "Oslo"))
    await understudy.verifyGap(atLeast: .milliseconds(200), between: .get("/v1/forecast"), and: .get("/v1/forecast"))
}

@Suite("WeatherClient against Understudy")
struct WeatherClientTests {
    @Test(
        .understudy(
            Stub.get("/v1/forecast").scenario("auth", whenState: "Started").respond(.status(401)),
            Stub.post("/oauth/token").body(.json(["refresh_token": "r1"])).scenario("auth", setState: "Refreshed")
                .respond(.json(["access_token": "t2"])),
            Stub.get("/v1/forecast").scenario("auth", whenState: "Refreshed").respond(
                .json(["city": "Oslo", "tempC": 3]))
        ))
    func expiredTokenIsRefreshedOnceAndTheRetryCarriesTheNewOne() async throws {
        let understudy = try #require(Understudy.current)
        let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1")
        #expect(try await client.forecast(city: "Oslo") == Forecast(city: "Oslo", tempC: 3))
        await understudy.verifyOrder(.get("/v1/forecast"), .post("/oauth/token"), .get("/v1/forecast"))
        await understudy.verify(
            attempt: 1, of: .get("/v1/forecast"), after: .post("/oauth/token"),
            matches: .get("/v1/forecast").header("Authorization", "Bearer t2"))
        await understudy.verify(.once, .post("/oauth/token"))
    }

    @Test(
        .understudy(
            Stub.get("/v1/forecast").rateLimit(1, per: 0.3, retryAfter: .fractional).respond(
                .json(["city": "Oslo", "tempC": 1]))
        ))
    func rateLimitIsWaitedOut() async throws {
        let understudy = try #require(Understudy.current)
        let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1")
        _ = try await client.forecast(city: "Oslo")
        _ = try await client.forecast(city: "Oslo")  // over the limit: 429, Retry-After, then served
        let requests = await understudy.verify(.exactly(3), .get("/v1/forecast"))
        #expect(requests.map(\.rateLimited) == [false, true, false])
        // The retry waited out the 429's Retry-After (the window's rest, about 0.3 s), on the daemon's clock.
        if requests.count == 3 { #expect(requests[2].elapsedMs - requests[1].elapsedMs >= 250) }
    }

    @Test(.understudy(Stub.post("/v1/observations").respond(.status(201))))
    func observationIsPostedAsJSON() async throws {
        let understudy = try #require(Understudy.current)
        let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1")
        try await client.report(Observation(station: "OSL", tempC: 21.5))
        await understudy.verify(
            .once,
            .post("/v1/observations")
                .header("Content-Type", "application/json")
                .body(.json(["station": "OSL", "tempC": 21.5])))
    }

    @Test(.understudy(Stub.post("/v1/observations").respond(.fault(.connectionReset))))
    func aBrokenConnectionIsATransportError() async throws {
        let understudy = try #require(Understudy.current)
        let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1")
        await #expect {
            try await client.report(Observation(station: "OSL", tempC: 1))
        } throws: { error in
            if case WeatherError.transport = error { return true }
            return false
        }
        let requests = await understudy.verify(.atLeast(1), .post("/v1/observations"))
        #expect(requests.first?.fault == "connection-reset")
    }

    @Test(.understudy())
    func stationsFollowLinkHeadersAcrossPages() async throws {
        let understudy = try #require(Understudy.current)
        let base = understudy.baseURL.absoluteString
        try await understudy.install(
            Stub.get("/v1/stations").query("page", .absent)
                .respond(
                    .json([["id": "OSL"], ["id": "BGO"]]).header("Link", "<\(base)/v1/stations?page=2>; rel=\"next\"")),
            Stub.get("/v1/stations").query("page", "2")
                .respond(.json([["id": "TRD"]]).header("Link", "<\(base)/v1/stations?page=3>; rel=\"next\"")),
            Stub.get("/v1/stations").query("page", "3").respond(.json([["id": "TOS"]]))
        )
        let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1")
        #expect(try await client.stations().map(\.id) == ["OSL", "BGO", "TRD", "TOS"])
        await understudy.verifyOrder(
            .get("/v1/stations").query("page", .absent),
            .get("/v1/stations").query("page", "2"),
            .get("/v1/stations").query("page", "3"))
        await understudy.verify(.exactly(3), .get("/v1/stations"))
    }

    @Test(
        .understudy(
            Stub.get("/v1/forecast").respond(.json(["city": "Oslo", "tempC": 1]).delay(milliseconds: 5000))
        ))
    func aSlowServerTimesOutWithoutARetry() async throws {
        let understudy = try #require(Understudy.current)
        // A whole second: FoundationNetworking on Linux truncates `timeoutIntervalForRequest` to whole
        // seconds, so 0.3 s would be 0 and time out before the request left (docs/test-kit.md,
        // "Timeouts").
        let client = WeatherClient(baseURL: understudy.baseURL, refreshToken: "r1", accessToken: "t1", timeout: 1)
        let started = ContinuousClock.now
        await #expect {
            _ = try await client.forecast(city: "Oslo")
        } throws: { error in
            if case WeatherError.timedOut = error { return true }
            return false
        }
        // The client waited out its own timeout: a client that gave up at once (the rounding) fails here,
        // and one whose request the delay did not hold got its 200 above.
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        // A delayed request is journaled when its client leaves: wait for that, then prove no retry.
        try await understudy.admin.waitForRequests(path: "/v1/forecast", count: 1)
        let requests = await understudy.verify(.once, .get("/v1/forecast"))
        // The daemon held it (the stub's delay) until the client left, about a second after it arrived.
        if let request = requests.first {
            #expect(request.outcome == .clientGone)
            #expect(request.delayMs == 5000)
            #expect((request.outcomeMs ?? 0) - request.elapsedMs >= 900)
        }
        await understudy.verifyNoRequests(path: "/v1/forecast", since: 1, within: .milliseconds(500))
    }
}
