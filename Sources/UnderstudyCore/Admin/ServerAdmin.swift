import UnderstudyHTTP

/// The daemon-wide admin endpoints: `GET /__admin/health`, `GET /__admin/rate-limits`,
/// `POST /__admin/reset`, `POST /__admin/reload` and `GET /__admin/tls/ca.pem`.
enum ServerAdmin {
    static func health(_ call: AdminCall) -> HTTPResponse {
        let engine = call.engine
        return AdminResponse.value(
            .object([
                JSONMember("status", .string("ok")),
                JSONMember("stubs", .int(engine.stubs.count)),
                JSONMember("requests", .int(engine.journal.count)),
                JSONMember("pending", .int(engine.awaitingDelivery)),
                JSONMember("waiting", .int(engine.waiterCount)),
                JSONMember("skipped", .array(engine.skippedMappings.map(skippedJSON))),
            ]))
    }

    /// A skipped mapping (of a lenient adapter's file) as health lists it: where it is and why it was left out.
    private static func skippedJSON(_ mapping: SkippedMapping) -> JSONValue {
        let first = mapping.problems.first
        return .object([
            JSONMember("file", .string(mapping.file)),
            JSONMember("index", .int(mapping.index)),
            JSONMember("line", .int(first?.line ?? 1)),
            JSONMember("column", .int(first?.column ?? 1)),
            JSONMember("reason", .string(mapping.reason)),
        ])
    }

    /// Each rate-limited stub's window right now (for the UI's panel).
    static func rateLimits(_ call: AdminCall) -> HTTPResponse {
        let engine = call.engine
        let runtimes = engine.runtimes
        let now = engine.clock.monotonicNanoseconds
        var items: [JSONValue] = []
        for (index, stub) in engine.stubs.enumerated() {
            guard let rule = stub.rateLimit else { continue }
            let state = runtimes[index].rateLimit.peek(rule, now: now)
            items.append(
                .object([
                    JSONMember("stub", .string(stub.id)),
                    JSONMember("limit", .int(rule.limit)),
                    JSONMember("window", .number(StubEngine.formatSeconds(rule.window))),
                    JSONMember("algorithm", .string(rule.algorithm.rawValue)),
                    JSONMember("retryAfter", .string(rule.retryAfter.rawValue)),
                    JSONMember("headers", .string(rule.headers.rawValue)),
                    JSONMember("status", .int(rule.status)),
                    JSONMember("remaining", .int(state.remaining)),
                    JSONMember("resetSeconds", .number(TimeFormatting.fractionalSeconds(state.reset))),
                ]))
        }
        return AdminResponse.value(.object([JSONMember("rateLimits", .array(items))]))
    }

    /// Journal, sequences, scenarios and rate limits back to the start (stubs stay), then each
    /// adapter's reset (``AdminAdapter/onReset``).
    static func reset(_ call: AdminCall) -> HTTPResponse {
        call.engine.reset()
        for adapter in call.routes.adapters { adapter.onReset?(call) }
        return AdminResponse.value(.object([JSONMember("reset", .bool(true))]))
    }

    /// Re-reads the stub files, all or nothing.
    static func reload(_ call: AdminCall) -> HTTPResponse {
        switch call.reload() {
        case .success(let count): return AdminResponse.value(.object([JSONMember("stubs", .int(count))]))
        case .failure(let failure): return AdminResponse.loadFailure(failure)
        }
    }

    /// The CA certificate clients must trust to reach the HTTPS listener, as PEM; 404 when the
    /// daemon generated none.
    static func certificateAuthority(_ call: AdminCall) -> HTTPResponse {
        guard let pem = call.engine.configuration.certificateAuthorityPEM else {
            return AdminResponse.error(
                404, "no generated CA: start the daemon with --https (and without --tls-cert) to serve HTTPS with one")
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/x-pem-file"], body: Array(pem.utf8))
    }

    /// The answer of the sessions routes on a main port that hosts none.
    static func noSessions(_ call: AdminCall) -> HTTPResponse {
        AdminResponse.error(404, "sessions are not enabled on this server")
    }
}
