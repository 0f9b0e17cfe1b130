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

        /// The key as written: `name`.
        public var description: String { name }

        /// The `stubs` key.
        public static let stubs = Key("stubs")
        /// The `$schema` key.
        public static let schema = Key("$schema")
        /// The `id` key.
        public static let id = Key("id")
        /// The `description` key.
        public static let description = Key("description")
        /// The `request` key.
        public static let request = Key("request")
        /// The `responses` key.
        public static let responses = Key("responses")
        /// The `afterLast` key.
        public static let afterLast = Key("afterLast")
        /// The `scenario` key.
        public static let scenario = Key("scenario")
        /// The `whenState` key.
        public static let whenState = Key("whenState")
        /// The `setState` key.
        public static let setState = Key("setState")
        /// The `rateLimit` key.
        public static let rateLimit = Key("rateLimit")
        /// The `priority` key.
        public static let priority = Key("priority")
        /// The `openapi` key.
        public static let openapi = Key("openapi")
        /// The `tokenExpiresIn` key.
        public static let tokenExpiresIn = Key("tokenExpiresIn")
        /// The `idempotency` key.
        public static let idempotency = Key("idempotency")
        /// The `earlyRetries` key.
        public static let earlyRetries = Key("earlyRetries")
        /// The `method` key.
        public static let method = Key("method")
        /// The `path` key.
        public static let path = Key("path")
        /// The `pathPattern` key.
        public static let pathPattern = Key("pathPattern")
        /// The `url` key.
        public static let url = Key("url")
        /// The `urlPattern` key.
        public static let urlPattern = Key("urlPattern")
        /// The `query` key.
        public static let query = Key("query")
        /// The `headers` key.
        public static let headers = Key("headers")
        /// The `cookies` key.
        public static let cookies = Key("cookies")
        /// The `body` key.
        public static let body = Key("body")
        /// The `equals` key.
        public static let equals = Key("equals")
        /// The `contains` key.
        public static let contains = Key("contains")
        /// The `matches` key.
        public static let matches = Key("matches")
        /// The `present` key.
        public static let present = Key("present")
        /// The `absent` key.
        public static let absent = Key("absent")
        /// The `equalsIgnoringCase` key.
        public static let equalsIgnoringCase = Key("equalsIgnoringCase")
        /// The `doesNotContain` key.
        public static let doesNotContain = Key("doesNotContain")
        /// The `doesNotMatch` key.
        public static let doesNotMatch = Key("doesNotMatch")
        /// The `allOf` key.
        public static let allOf = Key("allOf")
        /// The `anyOf` key.
        public static let anyOf = Key("anyOf")
        /// The `not` key.
        public static let not = Key("not")
        /// The `json` key.
        public static let json = Key("json")
        /// The `jsonSubset` key.
        public static let jsonSubset = Key("jsonSubset")
        /// The `jsonEquals` key.
        public static let jsonEquals = Key("jsonEquals")
        /// The `jsonPath` key.
        public static let jsonPath = Key("jsonPath")
        /// The `xmlEquals` key.
        public static let xmlEquals = Key("xmlEquals")
        /// The `xPath` key.
        public static let xPath = Key("xPath")
        /// The `binary` key.
        public static let binary = Key("binary")
        /// The `value` key.
        public static let value = Key("value")
        /// The `ignoreArrayOrder` key.
        public static let ignoreArrayOrder = Key("ignoreArrayOrder")
        /// The `ignoreExtraElements` key.
        public static let ignoreExtraElements = Key("ignoreExtraElements")
        /// The `placeholders` key.
        public static let placeholders = Key("placeholders")
        /// The `expression` key.
        public static let expression = Key("expression")
        /// The `matcher` key.
        public static let matcher = Key("matcher")
        /// The `placeholderOpening` key.
        public static let placeholderOpening = Key("placeholderOpening")
        /// The `placeholderClosing` key.
        public static let placeholderClosing = Key("placeholderClosing")
        /// The `exemptedComparisons` key.
        public static let exemptedComparisons = Key("exemptedComparisons")
        /// The `namespaces` key.
        public static let namespaces = Key("namespaces")
        /// The `limit` key.
        public static let limit = Key("limit")
        /// The `window` key.
        public static let window = Key("window")
        /// The `retryAfter` key.
        public static let retryAfter = Key("retryAfter")
        /// The `algorithm` key.
        public static let algorithm = Key("algorithm")
        /// The `status` key.
        public static let status = Key("status")
        /// The `name` key.
        public static let name = Key("name")
        /// The `base64` key.
        public static let base64 = Key("base64")
        /// The `bodyFile` key.
        public static let bodyFile = Key("bodyFile")
        /// The `times` key.
        public static let times = Key("times")
        /// The `delayMs` key.
        public static let delayMs = Key("delayMs")
        /// The `fault` key.
        public static let fault = Key("fault")
        /// The `compress` key.
        public static let compress = Key("compress")
        /// The `compressWhen` key.
        public static let compressWhen = Key("compressWhen")
        /// The `compressMistake` key.
        public static let compressMistake = Key("compressMistake")
        /// The `statusMessage` key.
        public static let statusMessage = Key("statusMessage")
        /// The `template` key.
        public static let template = Key("template")
        /// The `dribble` key.
        public static let dribble = Key("dribble")
        /// The `bytesPerSecond` key.
        public static let bytesPerSecond = Key("bytesPerSecond")
        /// The `events` key.
        public static let events = Key("events")
        /// The `proxy` key.
        public static let proxy = Key("proxy")
        /// The `webhooks` key.
        public static let webhooks = Key("webhooks")
        /// The `signing` key.
        public static let signing = Key("signing")
        /// The `format` key.
        public static let format = Key("format")
        /// The `secret` key.
        public static let secret = Key("secret")
        /// The `secretEnv` key.
        public static let secretEnv = Key("secretEnv")
        /// The `mistake` key.
        public static let mistake = Key("mistake")
        /// The `header` key.
        public static let header = Key("header")
        /// The `signed` key.
        public static let signed = Key("signed")
        /// The `encoding` key.
        public static let encoding = Key("encoding")
        /// The `prefix` key.
        public static let prefix = Key("prefix")
        /// The `timestampHeader` key.
        public static let timestampHeader = Key("timestampHeader")
        /// The `initialMs` key.
        public static let initialMs = Key("initialMs")
        /// The `factor` key.
        public static let factor = Key("factor")
        /// The `maxMs` key.
        public static let maxMs = Key("maxMs")
        /// The `attempts` key.
        public static let attempts = Key("attempts")
        /// The `httpDateIn` key.
        public static let httpDateIn = Key("httpDateIn")
        /// The `uniform` key.
        public static let uniform = Key("uniform")
        /// The `lognormal` key.
        public static let lognormal = Key("lognormal")
        /// The `median` key.
        public static let median = Key("median")
        /// The `sigma` key.
        public static let sigma = Key("sigma")
        /// The `max` key.
        public static let max = Key("max")
        /// The `chunks` key.
        public static let chunks = Key("chunks")
        /// The `overMs` key.
        public static let overMs = Key("overMs")
        /// The `event` key.
        public static let event = Key("event")
        /// The `data` key.
        public static let data = Key("data")
        /// The `retry` key.
        public static let retry = Key("retry")
        /// The `comment` key.
        public static let comment = Key("comment")
        /// The `rstStream` key.
        public static let rstStream = Key("rstStream")
        /// The `goaway` key.
        public static let goaway = Key("goaway")
        /// The `errorCode` key.
        public static let errorCode = Key("errorCode")
        /// The `afterHeaders` key.
        public static let afterHeaders = Key("afterHeaders")
        /// The `lastStreamId` key.
        public static let lastStreamId = Key("lastStreamId")
        /// The `inFlight` key.
        public static let inFlight = Key("inFlight")
        /// The `to` key.
        public static let to = Key("to")
        /// The `stripPrefix` key.
        public static let stripPrefix = Key("stripPrefix")
        /// The `timeoutMs` key.
        public static let timeoutMs = Key("timeoutMs")
        /// The `setHeaders` key.
        public static let setHeaders = Key("setHeaders")
        /// The `removeHeaders` key.
        public static let removeHeaders = Key("removeHeaders")
        /// The `addResponseHeaders` key.
        public static let addResponseHeaders = Key("addResponseHeaders")

        /// The `required` key.
        public static let required = Key("required")
        /// The `ttl` key.
        public static let ttl = Key("ttl")
        /// The `mismatchStatus` key.
        public static let mismatchStatus = Key("mismatchStatus")

        /// The `form` key.
        public static let form = Key("form")

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
            idempotency,
            earlyRetries,
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
            compress,
            compressWhen,
            compressMistake,
            statusMessage,
            template,
            dribble,
            bytesPerSecond,
            events,
            proxy,
            webhooks,
            signing,
            format,
            secret,
            secretEnv,
            mistake,
            header,
            signed,
            encoding,
            prefix,
            timestampHeader,
            initialMs,
            factor,
            maxMs,
            attempts,
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
            required,
            ttl,
            mismatchStatus,
            form,
        ]
    }
}

extension JSONMember {
    /// A member named by one of the format's keys.
    public init(_ key: StubFormat.Key, _ value: JSONValue) {
        self.init(key.name, value)
    }
}
