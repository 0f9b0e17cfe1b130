#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UnderstudyHTTP

/// Browsers ask every origin for `/favicon.ico` — when someone opens `/__admin/ui`, or views an admin
/// JSON endpoint. That request is the browser's, not the client under test's, so it must not land
/// in the journal as unmatched and fail `assertNoUnmatchedRequests`. Looking must not change what is
/// looked at.
///
/// Only asked on the unmatched path, so matched requests pay nothing. A user's stub still wins: if
/// any stub's request pattern matches (even one that is exhausted or waiting for another scenario
/// state), the request is the user's business and is journaled as usual.
extension StubEngine {
    static let browserIconPath = "/favicon.ico"

    /// The built-in icon for a `GET`/`HEAD /favicon.ico` no stub is about; nil for anything else.
    func browserIcon(for context: MatchContext) -> HTTPResponse? {
        let request = context.request
        guard request.path == Self.browserIconPath else { return nil }
        let method = request.method.uppercased()
        guard method == "GET" || method == "HEAD" else { return nil }
        if stubs.contains(where: { $0.request.matches(context) }) { return nil }
        return HTTPResponse(
            status: 200, headers: ["Content-Type": "image/x-icon", "Cache-Control": "max-age=86400"],
            body: Self.browserIconBytes)
    }

    /// A 16×16 PNG in an ICO container: a white "U" on a teal rounded square.
    static let browserIconBytes: [UInt8] = Array(
        Data(
            base64Encoded:
                "AAABAAEAEBAAAAEAIABiAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAAClJREFUeNpjYKAGkM/v/k8Opo0BMICuGJv4qAHD3wBcgPYGDExeoAQAAADu9TAb4V9KAAAAAElFTkSuQmCC"
        ) ?? Data())
}
