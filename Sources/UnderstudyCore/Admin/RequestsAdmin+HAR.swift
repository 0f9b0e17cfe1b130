/// `GET /__admin/requests.har`: the journal (with the usual filters) as HAR 1.2.
extension RequestsAdmin {
    package static func har(_ call: AdminCall) -> HTTPResponse {
        let request = call.request
        let filter: JournalFilter
        switch JournalFilter.parse(request.query) {
        case .success(let parsed): filter = parsed
        case .failure(let invalid): return AdminResponse.error(400, invalid.message)
        }
        var entries: [JSONValue] = []
        call.engine.journal.forEach { entry in
            guard entries.count < filter.limit, filter.matches(entry), let value = JSONValue.parse(Array(entry.json))
            else { return }
            entries.append(value)
        }
        let document = HARExport.document(entries: entries, defaultHost: request.headers["Host"] ?? "127.0.0.1")
        var response = AdminResponse.json(200, document.jsonBytes)
        response.headers.append(name: "Content-Disposition", value: #"attachment; filename="understudy.har""#)
        return response
    }
}
