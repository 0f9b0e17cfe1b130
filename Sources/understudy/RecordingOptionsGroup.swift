import ArgumentParser
import UnderstudyCore
import UnderstudyRecording

/// The options `record` and `import-har` share: how exchanges become stubs (``RecordingOptions``).
struct RecordingOptionsGroup: ParsableArguments {
    @Option(
        name: .customLong("match-header"),
        help: ArgumentHelp(
            "Match requests on this header too (repeatable); by default headers are not matched.", valueName: "name"))
    var matchHeaders: [String] = []

    @Option(
        name: .customLong("match-body"),
        help: ArgumentHelp(
            "Match a JSON request body on this field only (a JSON path, repeatable) instead of the whole body.",
            valueName: "$.path"))
    var matchBody: [String] = []

    @Option(
        name: .customLong("drop-header"),
        help: ArgumentHelp(
            "Leave this response header out (repeatable); Date, Content-Length, Connection, Transfer-Encoding, Server and Keep-Alive always are.",
            valueName: "name"))
    var dropHeaders: [String] = []

    @Option(
        name: .customLong("redact-header"),
        help: ArgumentHelp(
            "A header whose value is a secret (repeatable): replaced by REDACTED everywhere it appears; on replay any value matches.",
            valueName: "name"))
    var redactHeaders: [String] = []

    @Option(
        name: .customLong("redact-query"),
        help: ArgumentHelp("A query parameter whose value is a secret (repeatable).", valueName: "name"))
    var redactQuery: [String] = []

    @Option(
        name: .customLong("redact-json"),
        help: ArgumentHelp(
            "A JSON path, in request and response bodies, whose value is a secret (repeatable).",
            valueName: "$.path"))
    var redactJSON: [String] = []

    @Flag(
        name: .customLong("template-dates"),
        help:
            "Turn dates at the recording time (ISO 8601 with milliseconds, epoch seconds or milliseconds) into {{now…}} templates."
    )
    var templateDates = false

    @Option(
        name: .customLong("date-window"),
        help: ArgumentHelp("How far from the recording time a date may be for --template-dates.", valueName: "seconds"))
    var dateWindow: Double = 60

    @Flag(
        name: .customLong("echo-ids"),
        help:
            "Turn response values that echo a request value (a path segment, a query value, a JSON field, an id-like header value such as X-Request-Id) into templates that echo it."
    )
    var echoIDs = false

    @Option(
        name: .customLong("body-file-threshold"),
        help: ArgumentHelp("Bodies longer than this go to files under __files/.", valueName: "bytes"))
    var bodyFileThreshold: Int = RecordingOptions().bodyFileThreshold

    func validate() throws {
        guard dateWindow >= 0, dateWindow.isFinite else { throw ValidationError("--date-window must be ≥ 0 seconds") }
        guard bodyFileThreshold >= 0 else { throw ValidationError("--body-file-threshold must not be negative") }
        do {
            try options(upstream: nil).validate()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The options as the library takes them.
    func options(upstream: String?) -> RecordingOptions {
        var options = RecordingOptions()
        options.matchHeaders = matchHeaders
        options.matchBody = matchBody
        options.dropHeaders = dropHeaders
        options.redactHeaders = redactHeaders
        options.redactQuery = redactQuery
        options.redactJSON = redactJSON
        options.templateDates = templateDates
        options.dateWindowSeconds = dateWindow
        options.echoIDs = echoIDs
        options.bodyFileThreshold = bodyFileThreshold
        options.upstream = upstream
        return options
    }
}
