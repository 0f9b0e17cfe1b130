/// The format's keys as values, one per name any object of the format uses (``StubFormat/Object/keys``
/// lists which object takes which). Every component that writes stub JSON (the builders here,
/// UnderstudyWireMock's converter, UnderstudyRecording's recorder, UnderstudyOpenAPI's generator
/// and Core's admin stub listing) names keys through these, never as string literals:
/// `scripts/check-layers` refuses `JSONMember("<key>", …)` in those files, and
/// `StubFormatKeyTests` holds this list to ``StubFormat/Object/keys`` both ways.
extension StubFormat {
    /// One key of the format.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        /// The key as written in a stub file.
        public let name: String

        init(_ name: String) {
            self.name = name
        }

        public var description: String { name }

        public static let stubs = Key("stubs")
        public static let schema = Key("$schema")
        public static let id = Key("id")
        public static let description = Key("description")
        public static let request = Key("request")
        public static let responses = Key("responses")
        public static let afterLast = Key("afterLast")
        public static let scenario = Key("scenario")
        public static let whenState = Key("whenState")
        public static let setState = Key("setState")
        public static let rateLimit = Key("rateLimit")
        public static let priority = Key("priority")
        public static let openapi = Key("openapi")
        public static let tokenExpiresIn = Key("tokenExpiresIn")
        public static let method = Key("method")
        public static let path = Key("path")
        public static let pathPattern = Key("pathPattern")
        public static let url = Key("url")
        public static let urlPattern = Key("urlPattern")
        public static let query = Key("query")
        public static let headers = Key("headers")
        public static let cookies = Key("cookies")
        public static let body = Key("body")
        public static let equals = Key("equals")
        public static let contains = Key("contains")
        public static let matches = Key("matches")
        public static let present = Key("present")
        public static let absent = Key("absent")
        public static let equalsIgnoringCase = Key("equalsIgnoringCase")
        public static let doesNotContain = Key("doesNotContain")
        public static let doesNotMatch = Key("doesNotMatch")
        public static let allOf = Key("allOf")
        public static let anyOf = Key("anyOf")
        public static let not = Key("not")
        public static let json = Key("json")
        public static let jsonSubset = Key("jsonSubset")
        public static let jsonEquals = Key("jsonEquals")
        public static let jsonPath = Key("jsonPath")
        public static let xmlEquals = Key("xmlEquals")
        public static let xPath = Key("xPath")
        public static let binary = Key("binary")
        public static let value = Key("value")
        public static let ignoreArrayOrder = Key("ignoreArrayOrder")
        public static let ignoreExtraElements = Key("ignoreExtraElements")
        public static let placeholders = Key("placeholders")
        public static let expression = Key("expression")
        public static let matcher = Key("matcher")
        public static let placeholderOpening = Key("placeholderOpening")
        public static let placeholderClosing = Key("placeholderClosing")
        public static let exemptedComparisons = Key("exemptedComparisons")
        public static let namespaces = Key("namespaces")
        public static let limit = Key("limit")
        public static let window = Key("window")
        public static let retryAfter = Key("retryAfter")
        public static let algorithm = Key("algorithm")
        public static let status = Key("status")
        public static let name = Key("name")
        public static let base64 = Key("base64")
        public static let bodyFile = Key("bodyFile")
        public static let times = Key("times")
        public static let delayMs = Key("delayMs")
        public static let fault = Key("fault")
        public static let statusMessage = Key("statusMessage")
        public static let template = Key("template")
        public static let dribble = Key("dribble")
        public static let bytesPerSecond = Key("bytesPerSecond")
        public static let events = Key("events")
        public static let proxy = Key("proxy")
        public static let httpDateIn = Key("httpDateIn")
        public static let uniform = Key("uniform")
        public static let lognormal = Key("lognormal")
        public static let median = Key("median")
        public static let sigma = Key("sigma")
        public static let max = Key("max")
        public static let chunks = Key("chunks")
        public static let overMs = Key("overMs")
        public static let event = Key("event")
        public static let data = Key("data")
        public static let retry = Key("retry")
        public static let comment = Key("comment")
        public static let rstStream = Key("rstStream")
        public static let goaway = Key("goaway")
        public static let errorCode = Key("errorCode")
        public static let afterHeaders = Key("afterHeaders")
        public static let lastStreamId = Key("lastStreamId")
        public static let inFlight = Key("inFlight")
        public static let to = Key("to")
        public static let stripPrefix = Key("stripPrefix")
        public static let timeoutMs = Key("timeoutMs")
        public static let setHeaders = Key("setHeaders")
        public static let removeHeaders = Key("removeHeaders")
        public static let addResponseHeaders = Key("addResponseHeaders")

        /// Every key, in the order the objects first list them.
        public static let all: [Key] = [
            stubs,
            schema,
            id,
            description,
            request,
            responses,
            afterLast,
            scenario,
            whenState,
            setState,
            rateLimit,
            priority,
            openapi,
            tokenExpiresIn,
            method,
            path,
            pathPattern,
            url,
            urlPattern,
            query,
            headers,
            cookies,
            body,
            equals,
            contains,
            matches,
            present,
            absent,
            equalsIgnoringCase,
            doesNotContain,
            doesNotMatch,
            allOf,
            anyOf,
            not,
            json,
            jsonSubset,
            jsonEquals,
            jsonPath,
            xmlEquals,
            xPath,
            binary,
            value,
            ignoreArrayOrder,
            ignoreExtraElements,
            placeholders,
            expression,
            matcher,
            placeholderOpening,
            placeholderClosing,
            exemptedComparisons,
            namespaces,
            limit,
            window,
            retryAfter,
            algorithm,
            status,
            name,
            base64,
            bodyFile,
            times,
            delayMs,
            fault,
            statusMessage,
            template,
            dribble,
            bytesPerSecond,
            events,
            proxy,
            httpDateIn,
            uniform,
            lognormal,
            median,
            sigma,
            max,
            chunks,
            overMs,
            event,
            data,
            retry,
            comment,
            rstStream,
            goaway,
            errorCode,
            afterHeaders,
            lastStreamId,
            inFlight,
            to,
            stripPrefix,
            timeoutMs,
            setHeaders,
            removeHeaders,
            addResponseHeaders,
        ]
    }
}

extension JSONMember {
    /// A member named by one of the format's keys.
    public init(_ key: StubFormat.Key, _ value: JSONValue) {
        self.init(key.name, value)
    }
}
