import UnderstudyHTTP

/// The body of `POST /__admin/sessions`: `{"name": "...", "stubs": [stub objects], "tls": "valid",
/// "clock": {"frozenAt": "2030-01-01T00:00:00Z"}, "recording": {"out": "DIR", …options}}`, each
/// optional, an empty body meaning none.
struct SessionRequest {
    static let keys = [
        "name", "stubs", "tls", "maxConcurrentStreams", "clock", "recording", "idempotency", "webhookDefaults",
        "earlyRetries",
    ]
    /// The modes a session's `"clock"` object names (exactly one).
    static let clockModes = ["frozenAt", "offset", "real"]
    /// The certificate modes a session's HTTPS port can present (`UnderstudyServer.CertificateMode`).
    static let tlsModes = ["valid", "expired", "not-yet-valid", "wrong-host", "untrusted"]

    var name: String?
    /// The session's own stubs, validated as `POST /__admin/stubs` validates them.
    var stubs: StubSet?
    /// When set, the session also gets an HTTPS port presenting this certificate mode.
    var tls: String?
    /// The HTTP/2 stream cap of the session's ports, when it asked for its own.
    var maxConcurrentStreams: Int?
    /// How the session's clock starts (real time when absent).
    var clock: WorldClock.Start?
    /// Set by `understudy record --session`: the session journals whole bodies, and its
    /// `POST /__admin/recordings/stop` writes its journal to `out` with these options.
    var recording: (out: String, options: any RecordingSettings)?
    /// The `idempotency` rule (a stub's, docs/stub-format.md) the session's `POST` and `PATCH`
    /// stubs take when they give none of their own.
    var idempotency: IdempotencyRule?
    /// The target and secret of the session's webhooks whose stubs give none (docs/webhooks.md).
    var webhookDefaults: WebhookDefaults?
    /// What the session's stubs that give none of their own do with an early retry (a stub's
    /// `earlyRetries`, docs/stub-format.md).
    var earlyRetries: EarlyRetries?

    /// Decodes a body; the failure is the 400 to send (stub errors exactly as `POST /__admin/stubs`).
    static func decode(_ body: [UInt8]) -> Result<SessionRequest, AdminResponse.Failure> {
        func fail(_ message: String) -> Result<SessionRequest, AdminResponse.Failure> {
            .failure(AdminResponse.Failure(response: AdminResponse.error(400, message)))
        }
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return .success(SessionRequest())
        }
        let node: JSONNode
        do {
            node = try JSONParser.parse(body)
        } catch {
            return fail(
                "body is not JSON (line \(error.position.line), column \(error.position.column)): \(error.message); expected {\"name\": \"...\", \"stubs\": [...]}"
            )
        }
        guard let members = node.members else {
            return fail("body must be a JSON object like {\"name\": \"...\", \"stubs\": [...]}, found \(node.kindName)")
        }
        var request = SessionRequest()
        var seen: Set<String> = []
        for member in members {
            guard keys.contains(member.key) else {
                let hint = EditDistance.closest(to: member.key, among: keys).map { "; did you mean `\($0)`?" } ?? ""
                return fail(
                    "unknown key `\(member.key)`\(hint) "
                        + "(a session body has `name`, `stubs`, `tls`, `maxConcurrentStreams`, `clock`, `recording`, "
                        + "`idempotency`, `webhookDefaults` and `earlyRetries`)"
                )
            }
            guard seen.insert(member.key).inserted else {
                return fail("key `\(member.key)` appears more than once")
            }
            if member.key == "name" {
                switch member.value.value {
                case .string(let text): request.name = text
                case .null: request.name = nil
                default: return fail("`name` must be a string, found \(member.value.kindName)")
                }
            }
            if member.key == "tls" {
                guard case .string(let mode) = member.value.value, tlsModes.contains(mode) else {
                    let found =
                        if case .string(let mode) = member.value.value { "`\(mode)`" } else { member.value.kindName }
                    return fail(
                        "`tls` must be one of \(tlsModes.map { "`\($0)`" }.joined(separator: ", ")), found \(found)")
                }
                request.tls = mode
            }
            if member.key == "clock" {
                switch clockStart(member.value.value) {
                case .success(let start): request.clock = start
                case .failure(let failure): return .failure(failure)
                }
            }
            if member.key == "recording" {
                switch recording(member.value.value) {
                case .success(let plan): request.recording = plan
                case .failure(let failure): return .failure(failure)
                }
            }
            if member.key == "idempotency" {
                var decoder = StubDecoder(file: "<admin>", bodyFiles: nil)
                let rule = decoder.decodeIdempotency(member.value, JSONPath.root.member("idempotency"))
                guard let rule, decoder.errors.isEmpty else {
                    let why = decoder.errors.map { "\($0.jsonPath): \($0.message)" }.joined(separator: "; ")
                    return fail("`idempotency`: \(why)")
                }
                request.idempotency = rule
            }
            if member.key == "earlyRetries" {
                let names = EarlyRetries.allCases.map(\.rawValue)
                guard case .string(let text) = member.value.value, let mode = EarlyRetries(rawValue: text) else {
                    let found =
                        if case .string(let text) = member.value.value { "`\(text)`" } else { member.value.kindName }
                    return fail(
                        "`earlyRetries` must be one of \(names.map { "`\($0)`" }.joined(separator: ", ")), found \(found)"
                    )
                }
                request.earlyRetries = mode
            }
            if member.key == "webhookDefaults" {
                switch WebhookDefaults.decode(member.value.value) {
                case .success(let defaults): request.webhookDefaults = defaults
                case .failure(let problem): return fail(problem.message)
                }
            }
            if member.key == "maxConcurrentStreams" {
                guard case .number(let text) = member.value.value, let count = Int(text),
                    (1...10_000).contains(count)
                else {
                    let found = if case .number(let text) = member.value.value { text } else { member.value.kindName }
                    return fail("`maxConcurrentStreams` must be an integer from 1 to 10000, found \(found)")
                }
                request.maxConcurrentStreams = count
            }
        }
        if seen.contains("stubs") {
            do {
                request.stubs = try StubLoader.parse(
                    bytes: body, file: "<admin>", root: nil,
                    otherKeys: [
                        "name", "tls", "maxConcurrentStreams", "clock", "recording", "idempotency", "webhookDefaults",
                        "earlyRetries",
                    ])
            } catch {
                return .failure(AdminResponse.Failure(response: AdminResponse.loadFailure(error)))
            }
        }
        return .success(request)
    }

    /// `"recording"`: `{"out": DIR, …options}` (the options the recording module reads; see
    /// ``RecordingSupport``).
    static func recording(_ value: JSONValue) -> Result<
        (out: String, options: any RecordingSettings), AdminResponse.Failure
    > {
        func fail(_ message: String) -> Result<(out: String, options: any RecordingSettings), AdminResponse.Failure> {
            .failure(AdminResponse.Failure(response: AdminResponse.error(400, "`recording`: " + message)))
        }
        guard case .object = value else {
            return fail("must be an object like {\"out\": \"DIR\", \"redactHeaders\": [\"Authorization\"]}")
        }
        guard let out = value["out"]?.stringValue, !out.isEmpty else {
            return fail("`out` is required: the directory the recording is written to")
        }
        switch RecordingSupport.options(value, ignoring: ["out"]) {
        case .success(let options): return .success((out, options))
        case .failure(let refusal): return fail(refusal.message)
        }
    }

    /// `"clock"`: `{"frozenAt": INSTANT}`, `{"offset": "PT1H" | milliseconds}` or `{"real": true}`.
    static func clockStart(_ value: JSONValue) -> Result<WorldClock.Start, AdminResponse.Failure> {
        func fail(_ message: String) -> Result<WorldClock.Start, AdminResponse.Failure> {
            .failure(AdminResponse.Failure(response: AdminResponse.error(400, message)))
        }
        let example = #"{"frozenAt": "2030-01-01T00:00:00Z"}, {"offset": "PT1H"} or {"real": true}"#
        guard case .object(let members) = value, members.count == 1, let mode = members.first else {
            return fail("`clock` must be an object with one mode: \(example)")
        }
        switch mode.key {
        case "frozenAt":
            guard let at = ClockAdmin.instant(mode.value) else {
                return fail(
                    "`clock.frozenAt` must be an instant like \"2030-01-01T00:00:00Z\" (UTC, ending in Z); found \(mode.value.jsonText)"
                )
            }
            return .success(.frozen(at: at))
        case "offset":
            let negative = mode.value.stringValue?.hasPrefix("-") == true
            let text = negative ? JSONValue.string(String(mode.value.stringValue!.dropFirst())) : mode.value
            guard let seconds = ClockAdmin.duration(text) ?? (mode.value.doubleValue.map { $0 / 1000 }) else {
                return fail(
                    "`clock.offset` must be an ISO-8601 duration like \"PT1H\" (\"-PT1H\" for the past) or a number of milliseconds; found \(mode.value.jsonText)"
                )
            }
            return .success(.offset(seconds: negative ? -seconds : seconds))
        case "real":
            guard case .bool(true) = mode.value else {
                return fail("`clock.real` must be true; found \(mode.value.jsonText)")
            }
            return .success(.real)
        default:
            let hint = EditDistance.closest(to: mode.key, among: clockModes).map { "; did you mean `\($0)`?" } ?? ""
            return fail("unknown clock mode `\(mode.key)`\(hint); use \(example)")
        }
    }
}
