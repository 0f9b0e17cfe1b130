#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl
import UnderstudyCore

/// One request forwarded upstream: its libcurl easy handle (with the header list and error
/// buffer that must live as long as it), the upstream's answer as it arrives, and what to do with
/// it. The head is reported once complete (interim 1xx heads are skipped), the body piece by
/// piece, then the end, exactly once: ``onEnd`` with curl's result, or never when the call is
/// dropped first (its client gone), which frees the handles at once.
///
/// Owned by the ``PendingReply`` it answers; the ``UpstreamClient`` holds it unretained while curl
/// runs it, and curl's callbacks reach it through a ``Slot`` that outlives it, so a callback for a
/// call already gone finds nothing (and stops the transfer) instead of freed memory.
final class UpstreamCall {
    /// What curl's callbacks are given: a weak reference to the call, and the error buffer curl
    /// writes into. Retained by the handles and released when they are freed.
    final class Slot {
        weak var call: UpstreamCall?
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(UNDERSTUDY_CURL_ERROR_SIZE))

        init() {
            errorBuffer.initialize(repeating: 0, count: Int(UNDERSTUDY_CURL_ERROR_SIZE))
        }

        deinit {
            errorBuffer.deallocate()
        }
    }

    /// The C side of a call, freed together by the client (``UpstreamClient/retire(_:)``).
    struct Handles {
        let easy: UnsafeMutableRawPointer
        var headers: UnsafeMutablePointer<curl_slist>?
        let slot: Unmanaged<Slot>

        func free(_ api: understudy_curl) {
            api.easy_cleanup!(easy)
            if let headers { api.slist_free_all!(headers) }
            slot.release()
        }
    }

    private(set) var handles: Handles
    let request: UpstreamRequest
    private let client: UpstreamClient
    /// Whether the handles are still with curl (not yet finished or retired).
    private var live = true
    /// The head being read: the status line's code and the fields after it.
    private(set) var status: Int?
    private(set) var headers = HTTPHeaders()
    private var headComplete = false

    /// The upstream's final head: status and fields, as received.
    var onHead: ((Int, HTTPHeaders) -> Void)?
    /// A piece of the upstream's body, as received (still content-coded: nothing is decoded).
    var onBody: (([UInt8]) -> Void)?
    /// The exchange ended: `CURLE_OK`, or why not (with curl's message).
    var onEnd: ((CURLcode, String) -> Void)?

    /// Prepares `request` on a new easy handle; nil when curl cannot make one.
    init?(_ request: UpstreamRequest, client: UpstreamClient) {
        let api = client.api
        guard let easy = api.easy_init!() else { return nil }
        let slot = Slot()
        handles = Handles(easy: easy, headers: nil, slot: Unmanaged.passRetained(slot))
        self.request = request
        self.client = client
        slot.call = self
        configure(api, slot)
    }

    deinit {
        if live {
            live = false
            client.retire(handles)
        }
    }

    private func configure(_ api: understudy_curl, _ slot: Slot) {
        var api = api
        let easy = handles.easy
        let context = UnsafeRawPointer(handles.slot.toOpaque())
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_URL, request.url)
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_PROTOCOLS_STR, "http,https")
        // The environment's http_proxy and friends are not for a stub server's upstream calls.
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_PROXY, "")
        _ = understudy_curl_set_long(&api, easy, CURLOPT_NOSIGNAL, 1)
        // The client sees the upstream's redirects and its paths exactly as they were sent.
        _ = understudy_curl_set_long(&api, easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = understudy_curl_set_long(&api, easy, CURLOPT_PATH_AS_IS, 1)
        _ = understudy_curl_set_long(&api, easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        _ = understudy_curl_set_long(&api, easy, CURLOPT_TIMEOUT_MS, max(1, Int(request.timeoutMs.rounded(.up))))
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_ERRORBUFFER, slot.errorBuffer)
        if let caFile = client.caFile {
            // Upstream certificates are checked against this CA alone, not the system's.
            _ = understudy_curl_set_pointer(&api, easy, CURLOPT_CAINFO, caFile)
            _ = understudy_curl_set_pointer(&api, easy, CURLOPT_CAPATH, nil)
        }
        _ = understudy_curl_set_data_callback(
            &api, easy, CURLOPT_HEADERFUNCTION,
            { data, size, count, context in
                let length = size * count
                guard let data, let context else { return length }
                guard let call = Unmanaged<Slot>.fromOpaque(context).takeUnretainedValue().call else { return 0 }
                call.headerLine(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: length))
                return length
            })
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_HEADERDATA, context)
        _ = understudy_curl_set_data_callback(
            &api, easy, CURLOPT_WRITEFUNCTION,
            { data, size, count, context in
                let length = size * count
                guard let data, let context else { return length }
                guard let call = Unmanaged<Slot>.fromOpaque(context).takeUnretainedValue().call else { return 0 }
                call.onBody?(Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: length)))
                return length
            })
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_WRITEDATA, context)

        let method = request.method
        let hasBody = !request.body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH"
        if method == "HEAD" {
            _ = understudy_curl_set_long(&api, easy, CURLOPT_NOBODY, 1)
        } else if hasBody {
            _ = understudy_curl_set_offset(&api, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            // Copied by curl, so the body need not outlive this call.
            request.body.withUnsafeBytes { bytes in
                let empty: [UInt8] = [0]
                if let base = bytes.baseAddress {
                    _ = understudy_curl_set_pointer(&api, easy, CURLOPT_COPYPOSTFIELDS, base)
                } else {
                    empty.withUnsafeBytes {
                        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
                    }
                }
            }
        }
        if method != "GET" && method != "HEAD" && method != "POST" || (method == "GET" && hasBody) {
            _ = understudy_curl_set_pointer(&api, easy, CURLOPT_CUSTOMREQUEST, method)
        }
        // The client's fields as forwarded; curl adds none of its own that the client did not send
        // (an empty `Name:` removes curl's default, `Name;` sends an empty value).
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) {
            if let longer = api.slist_append!(list, line) { list = longer }
        }
        for field in request.headers {
            append(field.value.isEmpty ? field.name + ";" : field.name + ": " + field.value)
        }
        if !request.headers.contains("Accept") { append("Accept:") }
        if hasBody && !request.headers.contains("Content-Type") { append("Content-Type:") }
        append("Expect:")
        handlesHeaders = list
        _ = understudy_curl_set_pointer(&api, easy, CURLOPT_HTTPHEADER, list)
    }

    /// The header list, kept with the handles so it is freed with them.
    private var handlesHeaders: UnsafeMutablePointer<curl_slist>? {
        get { handles.headers }
        set { handles.headers = newValue }
    }

    /// Starts the exchange on the client's loop; false when curl refuses it.
    func start() -> Bool {
        client.start(self)
    }

    /// One line of the upstream's head (status line, field, or the blank line that ends it).
    private func headerLine(_ bytes: UnsafeRawBufferPointer) {
        guard !headComplete else { return }  // trailers after a chunked body: not forwarded
        var line = String(decoding: bytes, as: UTF8.self)
        while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            // A new head (after a 1xx, or the first): what came before is dropped.
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) : nil
            headers = HTTPHeaders()
            return
        }
        if line.isEmpty {
            guard let status, status >= 200 || status == 101 else { return }  // interim: the final head follows
            headComplete = true
            onHead?(status, headers)
            return
        }
        if let first = line.first, first == " " || first == "\t", let previous = headers.fields.last {
            // An obsolete folded continuation (RFC 9112 §5.2): joined with a space.
            var fields = headers.fields
            fields[fields.count - 1] = HTTPHeaders.Field(
                name: previous.name, value: previous.value + " " + String(line.drop { $0 == " " || $0 == "\t" }))
            headers = HTTPHeaders(fields)
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        var trimmed = Substring(value)
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        headers.append(name: name, value: String(trimmed))
    }

    /// curl reports the exchange done (called by the client outside curl's callbacks).
    func finished(_ result: CURLcode) {
        guard live else { return }
        live = false
        let message = String(cString: handles.slot.takeUnretainedValue().errorBuffer)
        client.retire(handles)
        let reason = message.isEmpty ? client.describe(result) : message
        onEnd?(result, reason)
    }

    /// The client is closing with the server: the handles are freed, nothing more is reported.
    func cutOff() {
        guard live else { return }
        live = false
        client.retire(handles)
        onHead = nil
        onBody = nil
        onEnd = nil
    }
}
