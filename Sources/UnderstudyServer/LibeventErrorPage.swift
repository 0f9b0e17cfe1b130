import UnderstudyCore

/// The error page libevent sends on its own (`evhttp_send_error`), for journaling requests it
/// refuses without asking us (a body over `--max-body`): `Content-Type: text/html`,
/// `Connection: close`, then the `Date` and `Content-Length` evhttp adds, and a small HTML body.
enum LibeventErrorPage {
    static func delivery(status: Int) -> Delivery {
        let reason = ReasonPhrase.libevent(status)
        let body = Array("<HTML><HEAD>\n<TITLE>\(status) \(reason)</TITLE>\n</HEAD><BODY>\n<H1>\(reason)</H1>\n</BODY></HTML>\n".utf8)
        var headers = HTTPHeaders()
        headers.append(name: "Content-Type", value: "text/html")
        headers.append(name: "Connection", value: "close")
        var date = DateHeader()
        date.withCurrentValue { headers.append(name: "Date", value: String(cString: $0)) }
        headers.append(name: "Content-Length", value: String(body.count))
        return .answered(status: status, headers: headers, body: body)
    }

    /// libevent's phrase for `status` when it is not the standard one (400 and 413 differ), for
    /// the journal's `response.reason`.
    static func nonstandardReason(_ status: Int) -> String? {
        let reason = ReasonPhrase.libevent(status)
        return reason == ReasonPhrase.of(status) ? nil : reason
    }
}
