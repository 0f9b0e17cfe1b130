/// `/__admin/ui`: the journal, live, in a browser. One static page (HTML, CSS, JS) compiled into the
/// binary: no CDN, no build step, nothing fetched from outside the server that serves it.
///
/// The page holds no data, so it is served without the admin token; everything it shows comes from
/// admin API calls made with the token the user types in (they get 401 without it, like any caller).
/// Its own calls are admin calls, so they never reach the journal.
enum AdminPage {
    static let root = "/__admin/ui"

    /// Content-Security-Policy: the browser itself refuses any resource not from this server.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
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
        return HTTPResponse(status: 200, headers: [
            "Content-Type": asset.type,
            "Content-Security-Policy": contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-cache",
        ], body: Array(asset.text.utf8))
    }

    static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6f8b"/><path d="M4 3v6.5a4 4 0 0 0 8 0V3h-2v6.5a2 2 0 0 1-4 0V3z" fill="#fff"/></svg>
    """#

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Understudy</title>
    <link rel="icon" href="/__admin/ui/icon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/__admin/ui/app.css">
    <script src="/__admin/ui/app.js" defer></script>
    </head>
    <body>
    <header>
      <h1>Understudy</h1>
      <span id="origin"></span>
      <span id="status" role="status" aria-live="polite">connecting…</span>
      <span class="spacer"></span>
      <button id="pause" type="button" aria-pressed="false" title="Stop following the journal (p)">Pause</button>
      <button id="har" type="button" title="The journal as HAR 1.2, with the current filters">Download HAR</button>
      <button id="token-button" type="button">Admin token</button>
    </header>
    <main>
      <section id="journal" aria-label="Journal">
        <form id="filters" role="search" aria-label="Filters">
          <label>Path <input id="f-path" type="search" placeholder="/posts" autocomplete="off" title="Part of the path or query (/ to focus)"></label>
          <label>Method <input id="f-method" list="methods" size="7" autocomplete="off"></label>
          <label>Stub <input id="f-stub" list="stub-ids" size="14" autocomplete="off"></label>
          <label>Result <select id="f-matched">
            <option value="">any</option><option value="true">matched</option><option value="false">unmatched</option>
          </select></label>
          <label>Status <input id="f-status" placeholder="4xx" size="5" autocomplete="off" title="404, 4xx or none"></label>
          <button type="reset">Clear filters</button>
          <datalist id="methods"><option value="GET"><option value="POST"><option value="PUT"><option value="PATCH"><option value="DELETE"><option value="HEAD"><option value="OPTIONS"></datalist>
          <datalist id="stub-ids"></datalist>
        </form>
        <p id="count" aria-live="polite"></p>
        <div class="scroll">
          <table id="entries">
            <thead><tr><th>#</th><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th>Stub</th><th>Notes</th></tr></thead>
            <tbody id="rows"></tbody>
          </table>
        </div>
      </section>
      <aside aria-label="Details">
        <div role="tablist" id="tabs" aria-label="Panels">
          <button role="tab" id="tab-detail" aria-controls="panel-detail" aria-selected="true">Request</button>
          <button role="tab" id="tab-stubs" aria-controls="panel-stubs" aria-selected="false" tabindex="-1">Stubs</button>
          <button role="tab" id="tab-scenarios" aria-controls="panel-scenarios" aria-selected="false" tabindex="-1">Scenarios</button>
          <button role="tab" id="tab-limits" aria-controls="panel-limits" aria-selected="false" tabindex="-1">Rate limits</button>
          <button role="tab" id="tab-sessions" aria-controls="panel-sessions" aria-selected="false" tabindex="-1">Sessions</button>
        </div>
        <section role="tabpanel" id="panel-detail" aria-labelledby="tab-detail" tabindex="0">
          <p class="hint">Select a request: ↑/↓ or j/k move, Enter opens it here, / filters by path.</p>
        </section>
        <section role="tabpanel" id="panel-stubs" aria-labelledby="tab-stubs" tabindex="0" hidden></section>
        <section role="tabpanel" id="panel-scenarios" aria-labelledby="tab-scenarios" tabindex="0" hidden></section>
        <section role="tabpanel" id="panel-limits" aria-labelledby="tab-limits" tabindex="0" hidden></section>
        <section role="tabpanel" id="panel-sessions" aria-labelledby="tab-sessions" tabindex="0" hidden></section>
      </aside>
    </main>
    <footer>Keys: <kbd>↑</kbd>/<kbd>↓</kbd> or <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>/</kbd> filter · <kbd>1</kbd>–<kbd>5</kbd> panels · <kbd>p</kbd> pause · <kbd>Esc</kbd> back to the list</footer>
    <dialog id="token-dialog" aria-labelledby="token-title">
      <form id="token-form">
        <h2 id="token-title">Admin token</h2>
        <p>This server was started with <code>--admin-token</code>. Its admin API answers only with the token; it is kept in this tab only.</p>
        <p id="token-error" class="error" hidden></p>
        <label>Token <input id="token-input" type="password" autocomplete="off" required></label>
        <div class="buttons"><button type="submit">Use token</button> <button type="button" id="token-cancel">Cancel</button></div>
      </form>
    </dialog>
    </body>
    </html>
    """#
}
