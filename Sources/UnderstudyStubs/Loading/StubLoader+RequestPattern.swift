/// Request matchers posted on their own (`POST /__admin/requests/count` and `find`), in the native
/// format or an installed adapter's.
extension StubLoader {
    /// A request matcher, bare or wrapped as `{"request": {...}}`: Understudy's shape, or
    /// an installed adapter's (WireMock's request pattern, which the adapter tells apart by its keys).
    package static func requestPattern(_ node: JSONNode) -> Result<RequestPattern, StubLoadFailure> {
        var target = node
        var path = ""
        if let members = node.members, members.count == 1, members[0].key == "request" {
            target = members[0].value
            path = "request"
        }
        var decoder = StubDecoder(file: "<admin>", bodyFiles: nil)
        let pattern =
            if let adapter = StubFormatAdapters.installed.first(where: { $0.claimsRequestPattern(target) }) {
                adapter.requestPattern(target, path, decoder: &decoder)
            } else {
                decoder.decodeRequest(target, path)
            }
        guard let pattern, decoder.errors.isEmpty else {
            return .failure(StubLoadFailure(errors: decoder.errors))
        }
        return .success(pattern)
    }
}
