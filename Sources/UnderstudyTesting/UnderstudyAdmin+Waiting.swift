import Foundation

extension UnderstudyAdmin {
    /// `GET /__admin/requests/wait`: answers as soon as at least `count` journaled requests match
    /// `filter` (a long poll on the daemon's event loop, no polling here), or when `timeout`
    /// passes, with whatever matched by then and `timedOut` set. Entries are journaled before their
    /// response is sent, so a wait that returns has seen every request that was answered.
    ///
    /// Use it to prove that *nothing more* arrived — a wait for one more than expected that times
    /// out — instead of sleeping.
    public func requestsAfterWaiting(
        _ filter: RequestFilter = RequestFilter(), count: Int,
        timeout: TimeInterval = 10
    ) async throws -> RequestWait {
        var query = filter.queryItems
        query.append(URLQueryItem(name: "count", value: String(count)))
        query.append(URLQueryItem(name: "timeoutMs", value: String(Int((timeout * 1000).rounded(.up)))))
        // The daemon answers at its deadline; the transport's must come well after it.
        return try await send("GET", "/__admin/requests/wait", query: query, timeout: timeout + 30)
    }

    /// Waits until at least `count` journaled requests match `filter` and returns them; throws
    /// `UnderstudyError.waitTimedOut` (with what did arrive) after `timeout`.
    @discardableResult
    public func waitForRequests(
        _ filter: RequestFilter = RequestFilter(), count: Int,
        timeout: TimeInterval = 10
    ) async throws -> [RecordedRequest] {
        let answer = try await requestsAfterWaiting(filter, count: count, timeout: timeout)
        guard !answer.timedOut else {
            throw UnderstudyError.waitTimedOut(expected: count, seconds: timeout, arrived: answer.requests)
        }
        return answer.requests
    }

    /// Waits until at least `count` requests to `path` (with `method`, if given) are journaled.
    @discardableResult
    public func waitForRequests(
        path: String, method: String? = nil, count: Int,
        timeout: TimeInterval = 10
    ) async throws -> [RecordedRequest] {
        try await waitForRequests(RequestFilter(method: method, path: path), count: count, timeout: timeout)
    }

    /// `POST /__admin/requests/find`: the journaled requests `matcher` matches (the same matcher
    /// shape as a stub's `request`, so query, header and body matchers work), in arrival order.
    public func find(matching matcher: RequestMatcher) async throws -> [RecordedRequest] {
        let answer: FoundRequests = try await send(
            "POST", "/__admin/requests/find", body: try JSONEncoder().encode(matcher))
        return answer.requests
    }
}

/// `requests/find`'s answer; other members (counts) are not needed here.
private struct FoundRequests: Decodable {
    var requests: [RecordedRequest]
}
