extension AdminPage {
    static let style = #"""
    :root {
      color-scheme: light dark;
      --bg: #fbfbfa; --fg: #1d2327; --muted: #5f6b73; --line: #d9dee2; --panel: #ffffff;
      --accent: #1f6f8b; --select: #dcebf2; --ok: #1a7f37; --warn: #9a6700; --bad: #c4262e; --info: #5a32a3;
      font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #16191c; --fg: #e3e6e8; --muted: #9aa5ad; --line: #30363b; --panel: #1d2125;
              --accent: #5fb3d3; --select: #23404d; --ok: #4ac26b; --warn: #d29922; --bad: #ff6b6b; --info: #b392f0; }
    }
    * { box-sizing: border-box; }
    html, body { height: 100%; margin: 0; }
    body { display: grid; grid-template-rows: auto 1fr auto; background: var(--bg); color: var(--fg); }
    header { display: flex; align-items: center; gap: .75rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
    header h1 { font-size: 1.1rem; margin: 0; color: var(--accent); }
    .spacer { flex: 1; }
    #origin, #count, .hint, footer { color: var(--muted); }
    #status { font-weight: 600; }
    #status.live { color: var(--ok); } #status.problem { color: var(--bad); } #status.paused { color: var(--warn); }
    main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(24rem, 2fr); min-height: 0; }
    #journal { display: flex; flex-direction: column; min-height: 0; border-right: 1px solid var(--line); }
    #filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; padding: .5rem 1rem; }
    #filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
    input, select, button { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: .2rem .45rem; }
    button { cursor: pointer; }
    button[aria-pressed="true"] { background: var(--select); }
    :focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    #count { margin: 0; padding: 0 1rem .35rem; font-size: .85rem; }
    .scroll { overflow: auto; min-height: 0; flex: 1; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    thead th { position: sticky; top: 0; background: var(--panel); font-size: .8rem; color: var(--muted); z-index: 1; }
    #rows tr { cursor: pointer; }
    #rows tr:hover { background: color-mix(in srgb, var(--select) 50%, transparent); }
    #rows tr[aria-selected="true"] { background: var(--select); }
    #rows tr.fresh { animation: fresh 1.2s ease-out; }
    @keyframes fresh { from { background: color-mix(in srgb, var(--accent) 25%, transparent); } }
    td.path { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
    td.num, td.time { font-variant-numeric: tabular-nums; white-space: nowrap; color: var(--muted); }
    .s2 { color: var(--ok); } .s3 { color: var(--info); } .s4 { color: var(--warn); } .s5, .snone { color: var(--bad); }
    .badge { display: inline-block; font-size: .75rem; padding: 0 .35rem; border-radius: 3px; border: 1px solid currentColor; margin-right: .25rem; white-space: nowrap; }
    .badge.unmatched, .badge.fault { color: var(--bad); } .badge.limited { color: var(--warn); } .badge.delay, .badge.move { color: var(--info); }
    aside { display: flex; flex-direction: column; min-height: 0; }
    [role="tablist"] { display: flex; gap: .25rem; padding: .5rem .75rem 0; border-bottom: 1px solid var(--line); }
    [role="tab"] { border-bottom: none; border-radius: 4px 4px 0 0; }
    [role="tab"][aria-selected="true"] { background: var(--select); font-weight: 600; }
    [role="tabpanel"] { overflow: auto; padding: .75rem 1rem 2rem; flex: 1; min-height: 0; }
    h2 { font-size: 1rem; margin: 1rem 0 .35rem; }
    h2:first-child { margin-top: 0; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem; margin: 0; }
    dt { color: var(--muted); } dd { margin: 0; word-break: break-all; }
    pre { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: .5rem; margin: .25rem 0; overflow: auto; max-height: 20rem; white-space: pre-wrap; word-break: break-all; font-size: .85rem; }
    pre.near-miss { border-color: var(--bad); }
    table.kv td:first-child { color: var(--muted); white-space: nowrap; }
    table.grid td { overflow-wrap: anywhere; }
    table.grid td:nth-child(2), table.grid td:nth-child(3) { white-space: nowrap; }
    table.grid .badge { margin-bottom: .15rem; }
    table.kv td { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; word-break: break-all; }
    .current { font-weight: 700; color: var(--accent); }
    .error { color: var(--bad); }
    footer { padding: .3rem 1rem; border-top: 1px solid var(--line); font-size: .8rem; }
    kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 .25rem; font-size: .75rem; }
    dialog { border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); max-width: 28rem; }
    dialog::backdrop { background: rgb(0 0 0 / .35); }
    dialog label { display: flex; flex-direction: column; gap: .25rem; }
    .buttons { margin-top: .75rem; display: flex; gap: .5rem; }
    @media (max-width: 900px) { main { grid-template-columns: 1fr; } #journal { border-right: none; max-height: 55vh; } }
    """#
}
