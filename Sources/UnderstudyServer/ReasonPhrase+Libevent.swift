import UnderstudyCore

/// The transport's uses of ``ReasonPhrase``: libevent's own phrases and C strings for evhttp.
extension ReasonPhrase {
    /// The phrase libevent 2.1's own table gives `status`, for the error pages it sends itself.
    static func libevent(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 413: return "Request Entity Too Large"
        case 431: return "Client Error"
        default: return of(status)
        }
    }

    /// Calls `body` with `reason` (a stub's own phrase) or the standard phrase for `status`, as a C string.
    static func withCString<Result>(_ status: Int, reason: String?, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        if let reason { return reason.withCString(body) }
        let phrase = staticPhrase(status)
        return phrase.utf8Start.withMemoryRebound(to: CChar.self, capacity: phrase.utf8CodeUnitCount + 1, body)
    }
}
