import UnderstudyHTTP

/// `/__admin/ui`: the journal, live, in a browser. One static page, written as the files beside
/// this one (`index.html`, `app.js`, `app.css`, `icon.svg`) and embedded in the binary at build
/// time by the `EmbedAdminPage` plugin (``AdminPage/html`` and friends): no CDN, nothing fetched
/// from outside the server that serves it, and no file read at run time.
///
/// The page holds no data, so it is served without the admin token; everything it shows comes from
/// admin API calls made with the token the user types in (they get 401 without it, like any caller).
/// Its own calls are admin calls, so they never reach the journal.
enum AdminPage {
    static let root = "/__admin/ui"

    /// Content-Security-Policy: the browser itself refuses any resource not from this server.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page or one of its assets for a `GET`/`HEAD` under `/__admin/ui`; nil for anything else.
    static func response(for request: HTTPRequest) -> HTTPResponse? {
        guard request.path == root || request.path.hasPrefix(root + "/") else { return nil }
        let method = request.method.uppercased()
        guard method == "GET" || method == "HEAD" else { return nil }
        let asset: (type: String, text: String)
        switch request.path {
        case root, root + "/", root + "/index.html": asset = ("text/html; charset=utf-8", html)
        case root + "/app.js": asset = ("text/javascript; charset=utf-8", script)
        case root + "/app.css": asset = ("text/css; charset=utf-8", style)
        case root + "/icon.svg": asset = ("image/svg+xml", icon)
        default: return nil
        }
        return HTTPResponse(
            status: 200,
            headers: [
                "Content-Type": asset.type,
                "Content-Security-Policy": contentSecurityPolicy,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-cache",
            ], body: Array(asset.text.utf8))
    }
}
