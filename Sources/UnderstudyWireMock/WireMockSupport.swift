import UnderstudyCore
import UnderstudyJSON

/// WireMock for the daemon: its mapping files and roots for the loader, its admin API beside the
/// native one. Core names none of this; a program that wants WireMock installs it at start-up,
/// before any stub is loaded (the `understudy` CLI's `main`, a test's `setUp`), as it installs
/// ``XMLSupport``.
public enum WireMockSupport {
    /// Installs the WireMock format adapter (``StubFormatAdapters``) and admin adapter
    /// (``AdminRoutes``). Installing again replaces them.
    public static func install() {
        StubFormatAdapters.install(WireMockFormat())
        AdminRoutes.install(WireMockAdmin.adapter)
    }
}

/// WireMock's mapping files as a ``StubFormatAdapter``: a document with `request` and `response`
/// (or `{"mappings": [...]}`), a root with `mappings/` and `__files/`.
struct WireMockFormat: StubFormatAdapter {
    var name: String { "wiremock" }

    func claims(_ document: JSONNode) -> Bool {
        StubDecoder.isWireMockDocument(document)
    }

    func rootFiles(_ directory: String, jsonFiles: [String]) -> [String]? {
        StubLoader.wireMockRoot(directory, jsonFiles: jsonFiles)
    }

    func rootStubs(_ directory: String) -> [Stub] {
        StubLoader.wireMockStaticFiles(root: directory)
    }

    func decode(_ document: JSONNode, file: String, root: String?, options: StubLoadOptions, skippingInvalid: Bool)
        -> StubLoader.DocumentResult
    {
        StubLoader.decodeWireMock(document, file: file, root: root, options: options, skippingMappings: skippingInvalid)
    }

    func settle(_ decoded: inout [DecodedStub]) -> [StubFileError] {
        StubLoader.renameDuplicateWireMockIDs(&decoded)
    }

    func claimsRequestPattern(_ node: JSONNode) -> Bool {
        Self.isWireMockPattern(node)
    }

    func requestPattern(_ node: JSONNode, _ path: String, decoder: inout StubDecoder) -> RequestPattern? {
        decoder.decodeWireMockRequest(node, JSONPath(text: path))
    }

    /// Whether a request pattern is WireMock's shape rather than Understudy's: it uses a key only
    /// WireMock has (at the top or in a matcher), or WireMock's `"method": "ANY"`.
    static func isWireMockPattern(_ node: JSONNode) -> Bool {
        let wireMockKeys: Set<String> = [
            "urlPath", "urlPattern", "urlPathPattern", "queryParameters", "bodyPatterns",
            "basicAuthCredentials", "equalTo", "equalToJson", "matchesJsonPath", "binaryEqualTo",
            "caseInsensitive", "and", "or",
        ]
        guard let members = node.members else { return false }
        if members.contains(where: { $0.key == "method" && $0.value.stringValue == "ANY" }) { return true }
        func scan(_ node: JSONNode, depth: Int) -> Bool {
            guard depth < 4, let members = node.members else { return false }
            return members.contains { wireMockKeys.contains($0.key) || scan($0.value, depth: depth + 1) }
        }
        return scan(node, depth: 0)
    }
}
