import UnderstudyCore

/// `GET /__admin/requests.har`: the journal (with the usual filters) as HAR 1.2.
extension RecordingsAdmin {
    static func har(_ call: AdminCall) -> HTTPResponse {
        let request = call.request
        let entries: [JournalEntry]
        switch call.adminEngine.journalEntries(filteredBy: request.query) {
        case .success(let found): entries = found
        case .failure(let refusal): return AdminResponse.error(400, refusal.message)
        }
        let values = entries.compactMap { JSONValue.parse(Array($0.json)) }
        let document = HARExport.document(entries: values, defaultHost: request.headers["Host"] ?? "127.0.0.1")
        var response = AdminResponse.json(200, document.jsonBytes)
        response.headers.append(name: "Content-Disposition", value: #"attachment; filename="understudy.har""#)
        return response
    }
}
