import UnderstudyCore
import UnderstudyHTTP
import UnderstudyJSON

/// `POST /__admin/recordings/snapshot` (stubs from what this world's journal holds) and
/// `POST /__admin/recordings/stop` (`understudy record`'s stop: write the recording now).
///
/// Both go through ``StubRecorder``, the one recording writer. A bad call (a body that is not
/// JSON, an unknown option, a journal entry whose body was cut, a directory that cannot be
/// written) is a 400 that says why, and no file is written.
enum RecordingsAdmin {
    /// The routes and nothing else: recording adds no fields to native answers.
    static let adapter = AdminAdapter(name: "recording", routes: routes)

    /// Body: `{"out": DIR, "since": SEQ?, …options}` (the options of ``RecordingOptions/init(json:ignoring:)``)
    /// → `{"out","files","stubs","exchanges","warnings"}`. The journal's answered, matched entries
    /// after `since` become stubs in `DIR/recorded.json` (relative paths are the daemon's).
    static func snapshot(_ call: AdminCall) -> HTTPResponse {
        let body = call.request.body
        let json: JSONValue
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            json = .object([])
        } else if let parsed = JSONValue.parse(body) {
            json = parsed
        } else {
            return AdminResponse.error(400, "the body is not JSON: send {\"out\": \"DIR\", …options}")
        }
        let options: RecordingOptions
        do {
            options = try RecordingOptions(json: json, ignoring: ["out", "since"])
        } catch {
            return AdminResponse.error(400, error.message)
        }
        guard let out = json["out"]?.stringValue, !out.isEmpty else {
            return AdminResponse.error(400, "`out` is required: the directory to write the stubs to")
        }
        var since = 0
        if let value = json["since"] {
            guard let seq = value.intValue, seq >= 0 else {
                return AdminResponse.error(400, "`since` must be a journal seq (a whole number ≥ 0)")
            }
            since = seq
        }
        return write(call.adminEngine, out: out, options: options, since: since)
    }

    /// Writes the recording `understudy record` was started with (``EngineConfiguration/recording``),
    /// then lets the command stop.
    static func stop(_ call: AdminCall) -> HTTPResponse {
        guard let plan = call.adminEngine.recording, let options = plan.options as? RecordingOptions else {
            return AdminResponse.error(
                400,
                "this daemon is not recording: start one with `understudy record --to URL --out DIR`, or snapshot "
                    + "what a journal holds with POST /__admin/recordings/snapshot")
        }
        let response = write(call.adminEngine, out: plan.out, options: options, since: 0)
        if response.status == 200 {
            plan.written = true
            plan.stopped()
        }
        return response
    }

    static func write(_ engine: AdminEngine, out: String, options: RecordingOptions, since: Int) -> HTTPResponse {
        let recorded: RecordedStubs
        do {
            recorded = try StubRecorder.record(journal: engine.journalEntries, options: options, since: since)
        } catch {
            return AdminResponse.error(400, error.message)
        }
        guard recorded.exchangeCount > 0 else {
            return AdminResponse.error(
                400,
                "nothing to record: the journal holds no request a stub answered"
                    + (since > 0 ? " after seq \(since)" : ""))
        }
        let files: [String]
        do {
            files = try recorded.write(to: out)
        } catch {
            return AdminResponse.error(400, error.message)
        }
        return AdminResponse.value(
            .object([
                JSONMember("out", .string(out)),
                JSONMember("files", .array(files.map(JSONValue.string))),
                JSONMember("stubs", .int(recorded.stubs.count)),
                JSONMember("exchanges", .int(recorded.exchangeCount)),
                JSONMember("warnings", .array(recorded.warnings.map(JSONValue.string))),
            ]))
    }
}
