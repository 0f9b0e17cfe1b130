'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const MAX_ENTRIES = 5000, MAX_ROWS = 500;
  const state = {
    entries: [], bySeq: new Map(), lastSeq: 0, firstTime: null, selected: null,
    stubs: [], token: sessionStorage.getItem('understudy-token') || '', mode: 'wait',
    paused: false, needToken: false, fresh: new Set(), explained: new Map(), view: 'list',
  };

  // ---- helpers -------------------------------------------------------------------------
  function fill(node, props, children) {
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : value);  // `class` too: SVG's className is read-only
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const el = (tag, props, ...children) => fill(document.createElement(tag), props, children);
  const svg = (tag, props, ...children) => fill(document.createElementNS('http://www.w3.org/2000/svg', tag), props, children);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const statusClass = (s) => s === null || s === undefined ? 'snone' : 's' + String(s)[0];
  const timeOf = (entry) => (entry.time || '').slice(11, 23);

  class Unauthorized extends Error {}
  async function api(path, options = {}) {
    const headers = Object.assign({}, options.headers || {});
    if (state.token) headers['Authorization'] = 'Bearer ' + state.token;
    const response = await fetch(path, Object.assign({ cache: 'no-store' }, options, { headers }));
    if (response.status === 401) { askForToken(state.token ? 'That token was refused.' : null); throw new Unauthorized(); }
    return response;
  }
  async function apiJSON(path) {
    const response = await api(path);
    if (!response.ok) { const error = new Error(path + ': ' + response.status); error.status = response.status; throw error; }
    return response.json();
  }
  function setStatus(text, kind) {
    const node = $('status');
    node.textContent = text;
    node.className = kind || '';
  }

  // ---- token ---------------------------------------------------------------------------
  function askForToken(message) {
    state.needToken = true;
    setStatus('admin token needed', 'problem');
    const error = $('token-error');
    error.hidden = !message;
    error.textContent = message || '';
    const dialog = $('token-dialog');
    if (!dialog.open) { dialog.showModal(); $('token-input').focus(); }
  }
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state.token = $('token-input').value.trim();
    sessionStorage.setItem('understudy-token', state.token);
    state.needToken = false;
    $('token-dialog').close();
    refreshPanels();
  });
  $('token-cancel').addEventListener('click', () => $('token-dialog').close());
  $('token-button').addEventListener('click', () => askForToken(null));
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('token')) {
    state.token = fragment.get('token');
    sessionStorage.setItem('understudy-token', state.token);
    history.replaceState(null, '', location.pathname + location.search);
  }

  // ---- journal -------------------------------------------------------------------------
  function forget() {
    state.entries = []; state.bySeq.clear(); state.lastSeq = 0; state.firstTime = null;
    state.selected = null; state.explained.clear();
  }
  function add(requests, markFresh) {
    let added = 0;
    for (const entry of requests) {
      if (state.bySeq.has(entry.seq)) continue;
      state.entries.push(entry);
      state.bySeq.set(entry.seq, entry);
      if (markFresh) state.fresh.add(entry.seq);
      if (entry.seq > state.lastSeq) state.lastSeq = entry.seq;
      if (state.firstTime === null || entry.seq === 1) state.firstTime = state.entries[0].time;
      added++;
    }
    if (state.entries.length > MAX_ENTRIES) {
      for (const old of state.entries.splice(0, state.entries.length - MAX_ENTRIES)) state.bySeq.delete(old.seq);
    }
    return added;
  }

  async function follow() {
    let first = true;
    for (;;) {
      if (state.paused || state.needToken) { await sleep(250); continue; }
      try {
        let data;
        if (state.mode === 'wait' && !first) {
          const response = await api('/__admin/requests/wait?count=1&timeoutMs=15000&since=' + state.lastSeq);
          if (response.status === 404 || response.status === 400 || response.status === 405) { state.mode = 'poll'; continue; }
          if (!response.ok) throw new Error('wait: ' + response.status);
          data = await response.json();
          if (!data.requests.length && !data.timedOut) await sleep(250);
        } else {
          data = await apiJSON('/__admin/requests?since=' + state.lastSeq);
        }
        const added = add(data.requests, !first);
        setStatus(state.mode === 'wait' ? 'live (long poll)' : 'live (polling)', 'live');
        if (added || first) { render(); refreshPanels(); }
        first = false;
        if (state.mode === 'poll') await sleep(300);
      } catch (error) {
        if (!(error instanceof Unauthorized)) { setStatus('cannot reach the server; retrying', 'problem'); await sleep(1000); }
      }
    }
  }

  // A reset starts seq at 1 again and a DELETE empties the journal: notice both and start over.
  async function watchForResets() {
    for (;;) {
      await sleep(2000);
      if (state.paused || state.needToken || !state.entries.length) continue;
      try {
        const data = await apiJSON('/__admin/requests?limit=1');
        const head = data.requests[0];
        const known = head && state.bySeq.get(head.seq);
        const restarted = head ? (known ? known.time !== head.time : head.seq < state.entries[0].seq) : data.total === 0;
        if (restarted) { forget(); render(); }
      } catch (error) { /* the follower reports connection problems */ }
    }
  }

  // ---- filters & list ------------------------------------------------------------------
  const filterInputs = ['f-path', 'f-method', 'f-stub', 'f-matched', 'f-status'];
  function filters() {
    return {
      path: $('f-path').value.trim(), method: $('f-method').value.trim().toUpperCase(),
      stub: $('f-stub').value.trim(), matched: $('f-matched').value, status: $('f-status').value.trim().toLowerCase(),
    };
  }
  function statusMatches(wanted, status) {
    if (!wanted) return true;
    if (wanted === 'none') return status === null || status === undefined;
    if (status === null || status === undefined) return false;
    if (/^[1-5]xx$/.test(wanted)) return String(status)[0] === wanted[0];
    return String(status) === wanted;
  }
  function passes(entry, f) {
    if (f.path && !((entry.path || '') + (entry.query ? '?' + entry.query : '')).includes(f.path)) return false;
    if (f.method && entry.method.toUpperCase() !== f.method) return false;
    if (f.stub && entry.stub !== f.stub) return false;
    if (f.matched && String(entry.matched) !== f.matched) return false;
    return statusMatches(f.status, entry.status);
  }
  function visible() {
    const f = filters();
    const list = [];
    for (let i = state.entries.length - 1; i >= 0; i--) if (passes(state.entries[i], f)) list.push(state.entries[i]);
    return list;
  }

  function notes(entry) {
    const badges = [];
    if (!entry.matched) badges.push(el('span', { class: 'badge unmatched', text: 'unmatched' }));
    if (entry.rateLimited) badges.push(el('span', { class: 'badge limited', text: 'rate limited' }));
    if (entry.fault) badges.push(el('span', { class: 'badge fault', text: entry.fault }));
    if (entry.outcome && entry.outcome !== 'answered' && !entry.fault) badges.push(el('span', { class: 'badge fault', text: entry.outcome }));
    if (entry.delayMs) badges.push(el('span', { class: 'badge delay', text: entry.delayMs + ' ms' }));
    if (entry.scenario) badges.push(el('span', { class: 'badge move', text: entry.scenario.name + ' → ' + entry.scenario.to }));
    if (entry.session) badges.push(el('span', { class: 'badge', text: 'session ' + entry.session }));
    // An early retry is what a retry storm is made of: marked in the list, not only in the detail.
    if (entry.retry && entry.retry.verdict !== 'on-time') {
      badges.push(el('span', { class: 'badge limited', text: (entry.retry.verdict === 'refused' ? 'early, refused: ' : 'early by ') + entry.retry.earlyByMs + ' ms' }));
    }
    if (entry.idempotency) badges.push(el('span', { class: 'badge', text: 'key ' + entry.idempotency.outcome }));
    return badges;
  }

  function render() {
    const list = visible();
    const rows = $('rows');
    const hadFocus = rows.contains(document.activeElement);
    rows.replaceChildren(...list.slice(0, MAX_ROWS).map((entry) => {
      const selected = entry.seq === state.selected;
      const row = el('tr', {
        'data-seq': entry.seq, 'aria-selected': selected ? 'true' : 'false', tabindex: selected ? '0' : '-1',
        class: state.fresh.has(entry.seq) ? 'fresh' : null,
        onclick: () => select(entry.seq, true),
      },
      el('td', { class: 'num', text: entry.seq }),
      el('td', { class: 'time', text: timeOf(entry) }),
      el('td', { text: entry.method }),
      el('td', { class: 'path', text: entry.path + (entry.query !== null && entry.query !== undefined ? '?' + entry.query : '') }),
      el('td', { class: statusClass(entry.status), text: entry.status === null || entry.status === undefined ? '—' : entry.status }),
      el('td', { text: entry.stub || '' }),
      el('td', {}, notes(entry)));
      return row;
    }));
    state.fresh.clear();
    if (!rows.querySelector('tr[tabindex="0"]') && rows.firstElementChild) rows.firstElementChild.tabIndex = 0;
    if (hadFocus) { const row = rows.querySelector('tr[tabindex="0"]'); if (row) row.focus(); }
    const total = state.entries.length;
    const more = list.length > MAX_ROWS ? ' (newest ' + MAX_ROWS + ' shown)' : '';
    $('count').textContent = list.length === total
      ? total + ' request' + (total === 1 ? '' : 's') + more
      : list.length + ' of ' + total + ' requests match' + more;
    if (state.view === 'retries') renderTimeline(list);
  }
  for (const id of filterInputs) $(id).addEventListener('input', render);
  $('filters').addEventListener('reset', () => setTimeout(render));
  $('filters').addEventListener('submit', (event) => event.preventDefault());

  function select(seq, focusRow) {
    state.selected = seq;
    for (const row of $('rows').children) {
      const on = Number(row.dataset.seq) === seq;
      row.setAttribute('aria-selected', on ? 'true' : 'false');
      row.tabIndex = on ? 0 : -1;
      if (on && focusRow) { row.focus(); row.scrollIntoView({ block: 'nearest' }); }
    }
    showTab('detail');
    showDetail(state.bySeq.get(seq));
  }
  $('rows').addEventListener('keydown', (event) => {
    const row = event.target.closest('tr');
    if (!row) return;
    let next = null;
    if (event.key === 'ArrowDown' || event.key === 'j') next = row.nextElementSibling;
    else if (event.key === 'ArrowUp' || event.key === 'k') next = row.previousElementSibling;
    else if (event.key === 'Home') next = row.parentElement.firstElementChild;
    else if (event.key === 'End') next = row.parentElement.lastElementChild;
    else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(Number(row.dataset.seq), false);
      $('panel-detail').focus();
      return;
    } else return;
    event.preventDefault();
    if (next) select(Number(next.dataset.seq), true);
  });

  // ---- retries timeline ----------------------------------------------------------------
  // A retry storm is easier to see than to read: one row per client and stub, grouped exactly as
  // the engine judges retries (Engine/RetryWatch.swift): a client is its first User-Agent (all
  // requests without one are one client), within one world and one stub. Each attempt is a mark on
  // one time axis shared by every row (the journal's `time`, the world's clock), each wait an answer
  // asked for a band after it, early and refused attempts marked apart.
  const timeMs = (entry) => Date.parse(entry.time);
  const clientOf = (entry) => ((entry.headers || {})['user-agent'] || [''])[0];
  const verdictOf = (entry) => (entry.retry ? entry.retry.verdict : null);
  function duration(ms) {
    if (Math.abs(ms) < 1000) return Math.round(ms) + ' ms';
    if (Math.abs(ms) < 120000) return Number((ms / 1000).toFixed(3)) + ' s';
    if (Math.abs(ms) < 7200000) return Number((ms / 60000).toFixed(2)) + ' min';
    return Number((ms / 3600000).toFixed(2)) + ' h';
  }

  // The wait `entry`'s answer asked for, read from the response as the engine reads it
  // (RetryWatch.askedWait): only for the last attempt of a row, which no verdict describes yet.
  function askedByResponse(entry) {
    const headers = entry.response && entry.response.headers;
    if (!headers || entry.fault) return null;
    const first = (name) => (headers[name] || [])[0];
    const retryAfter = first('retry-after');
    if (retryAfter !== undefined) {
      const text = retryAfter.trim();
      if (text !== '' && !Number.isNaN(Number(text))) return Math.max(0, Number(text) * 1000);
      const date = Date.parse(text);
      return Number.isNaN(date) ? null : Math.max(0, date - timeMs(entry));
    }
    const reset = first('x-ratelimit-reset');
    if ((entry.status === 429 || first('x-ratelimit-remaining') === '0') && reset !== undefined && !Number.isNaN(Number(reset))) {
      const number = Number(reset);
      return Math.max(0, number > 1e9 ? number * 1000 - timeMs(entry) : number * 1000);
    }
    return null;
  }

  // The waits a row's answers asked for, as the engine measured them: a judged attempt came
  // `waitedMs` after an answer that asked `askedMs`, so that wait began at its time minus
  // `waitedMs`. A refused attempt is judged against the same answer as the attempt after it, so
  // the two name one wait.
  function waitsOf(attempts) {
    const waits = new Map();
    for (const attempt of attempts) {
      if (!attempt.retry) continue;
      const start = timeMs(attempt) - attempt.retry.waitedMs;
      const key = Math.round(start) + ' ' + attempt.retry.askedMs;
      if (waits.has(key)) continue;
      const answer = attempts.filter((a) => a.seq < attempt.seq && verdictOf(a) !== 'refused' && timeMs(a) <= start + 1).pop();
      waits.set(key, { start, askedMs: attempt.retry.askedMs, answer, pending: false });
    }
    const last = attempts[attempts.length - 1];
    const asked = verdictOf(last) === 'refused' ? null : askedByResponse(last);
    if (asked !== null) waits.set('last', { start: timeMs(last) + (last.delayMs || 0), askedMs: asked, answer: last, pending: true });
    return [...waits.values()];
  }

  function retryRows(list) {
    const groups = new Map();
    for (const entry of list) {
      if (!entry.stub || entry.outbound || Number.isNaN(timeMs(entry))) continue;
      const client = clientOf(entry);
      const key = JSON.stringify([entry.session || '', entry.stub, client]);
      if (!groups.has(key)) groups.set(key, { stub: entry.stub, client, session: entry.session, attempts: [] });
      groups.get(key).attempts.push(entry);
    }
    const rows = [];
    for (const row of groups.values()) {
      if (row.attempts.length < 2) continue;
      row.attempts.sort((a, b) => a.seq - b.seq);
      row.waits = waitsOf(row.attempts);
      if (row.waits.length) rows.push(row);  // a stub that never asked for a wait has no retries to show
    }
    return rows.sort((a, b) => timeMs(a.attempts[0]) - timeMs(b.attempts[0]));
  }

  // An attempt's mark: a dot on time, a triangle when early, a crossed square when refused again.
  function mark(verdict, cx, cy) {
    if (verdict === 'early') return svg('path', { class: 'shape', d: `M${cx} ${cy - 8}L${cx + 8} ${cy + 6}L${cx - 8} ${cy + 6}Z` });
    if (verdict === 'refused') {
      return svg('g', { class: 'shape' }, svg('rect', { x: cx - 6, y: cy - 6, width: 12, height: 12 }),
        svg('path', { d: `M${cx - 6} ${cy - 6}L${cx + 6} ${cy + 6}M${cx + 6} ${cy - 6}L${cx - 6} ${cy + 6}` }));
    }
    return svg('circle', { class: 'shape', cx, cy, r: 6 });
  }
  function attemptTitle(entry) {
    const lines = ['#' + entry.seq + ' ' + entry.method + ' ' + entry.path + ' → '
      + (entry.status === null || entry.status === undefined ? 'no status' : entry.status) + ' at ' + timeOf(entry)];
    const retry = entry.retry;
    if (retry) {
      lines.push((retry.verdict === 'on-time' ? 'on time' : retry.verdict === 'early' ? 'early by ' + duration(retry.earlyByMs) : 'early by ' + duration(retry.earlyByMs) + ', refused again')
        + ': waited ' + duration(retry.waitedMs) + ' of the ' + duration(retry.askedMs) + ' asked');
    }
    if (entry.idempotency) lines.push('key ' + (entry.idempotency.key === null ? '(missing)' : entry.idempotency.key) + ': ' + entry.idempotency.outcome);
    return lines.join('\n');
  }
  function keysSummary(attempts) {
    const keys = new Set(attempts.filter((a) => a.idempotency).map((a) => a.idempotency.key));
    if (!keys.size) return null;
    if (keys.size > 1) return el('span', { class: 'badge limited', text: keys.size + ' different keys' });
    const [key] = keys;
    return el('span', { class: 'badge', text: key === null ? 'no key' : 'key ' + key + (attempts.every((a) => a.idempotency) ? ' on every attempt' : '') });
  }

  const ROW_HEIGHT = 64, MID = 30;
  function timelineRow(row, x, width, showWorld) {
    const early = row.attempts.filter((a) => verdictOf(a) === 'early').length;
    const refused = row.attempts.filter((a) => verdictOf(a) === 'refused').length;
    const chart = svg('svg', { class: 'tl', width, height: ROW_HEIGHT, viewBox: `0 0 ${width} ${ROW_HEIGHT}`, role: 'group' });
    const times = row.attempts.map(timeMs);
    const end = Math.max(...times, ...row.waits.map((w) => w.start + w.askedMs));
    chart.append(svg('line', { class: 'track', x1: x(times[0]), x2: x(end), y1: MID, y2: MID }));
    // Waits that overlap (a retry that came early was asked to wait again) go in lanes, one above the other.
    const laneEnds = [];
    const lanes = row.waits.map((wait) => {
      let lane = laneEnds.findIndex((end) => end <= wait.start);
      if (lane < 0) lane = laneEnds.length;
      laneEnds[lane] = wait.start + wait.askedMs;
      return lane;
    });
    const laneHeight = 18 / laneEnds.length;
    row.waits.forEach((wait, index) => {
      const left = x(wait.start), right = Math.max(left + 2, x(wait.start + wait.askedMs));
      const top = MID - 9 + lanes[index] * laneHeight;
      const by = wait.answer ? 'the answer to #' + wait.answer.seq : 'an answer';
      chart.append(svg('g', { class: 'wait' + (wait.pending ? ' pending' : ''), 'data-asked-ms': wait.askedMs, 'data-after-seq': wait.answer ? wait.answer.seq : null },
        svg('title', { text: by + ' asked for ' + duration(wait.askedMs) + (wait.pending ? ' (not retried yet)' : '') }),
        svg('rect', { x: left, y: top, width: right - left, height: laneHeight, rx: 2 }),
        svg('line', { class: 'due', x1: right, x2: right, y1: top - 2, y2: top + laneHeight + 2 }),
        right - left > (laneEnds.length > 1 ? 100 : 72) ? svg('text', { class: laneEnds.length > 1 ? 'lane' : null, x: right - 10, y: top + laneHeight / 2 + (laneEnds.length > 1 ? 3 : 4),
          'text-anchor': 'end', text: 'wait ' + duration(wait.askedMs) }) : null));
    });
    for (const entry of row.attempts) {
      const verdict = verdictOf(entry) || 'none';
      const cx = x(timeMs(entry));
      const label = verdict === 'early' ? 'early ' + duration(entry.retry.earlyByMs) : verdict === 'refused' ? 'refused' : null;
      chart.append(svg('g', {
        class: 'attempt ' + verdict + ' ' + statusClass(entry.status), 'data-seq': entry.seq, 'data-verdict': verdict,
        tabindex: '0', role: 'button', 'aria-label': attemptTitle(entry).replace(/\n/g, '; '),
        onclick: () => select(entry.seq, false),
        onkeydown: (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); select(entry.seq, false); } },
      },
      svg('title', { text: attemptTitle(entry) }),
      svg('text', { class: 'status', x: cx, y: MID - 15, 'text-anchor': 'middle', text: entry.status === null || entry.status === undefined ? '—' : entry.status }),
      mark(verdict, cx, MID),
      label ? svg('text', { class: 'verdict', x: cx, y: MID + 24, 'text-anchor': 'middle', text: label }) : null));
    }
    return el('section', { class: 'tl-row', 'data-stub': row.stub, 'data-client': row.client },
      el('h3', {}, el('strong', { text: row.stub }), ' · ', el('code', { text: row.client || 'no User-Agent' }),
        showWorld && row.session ? ' · session ' + row.session : null),
      el('p', { class: 'tl-summary' },
        row.attempts.length + ' attempts',
        early ? el('span', { class: 'badge limited', text: early + ' early' }) : null,
        refused ? el('span', { class: 'badge unmatched', text: refused + ' refused' }) : null,
        keysSummary(row.attempts)),
      chart);
  }

  function ticks(from, to, x) {
    const span = to - from;
    // 1, 2, 5… ms up to seconds, then steps a clock reads well: 10 s, 15 s, 30 s, 1 min… 1 h, then hours.
    const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000,
      600000, 900000, 1800000, 3600000];
    const step = steps.find((candidate) => span / candidate <= 8) || 3600000 * Math.ceil(span / 8 / 3600000);
    const marks = [];
    for (let t = 0; t <= span + 1e-9; t += step) {
      marks.push(svg('line', { x1: x(from + t), x2: x(from + t), y1: 18, y2: 24 }),
        svg('text', { x: x(from + t), y: 14, 'text-anchor': 'middle', text: t === 0 ? '0' : '+' + duration(t) }));
    }
    return marks;
  }
  function legend() {
    const item = (verdict, text) => el('span', { class: 'legend-item' },
      svg('svg', { class: 'tl', width: 18, height: 18, viewBox: '0 0 18 18', 'aria-hidden': 'true' },
        verdict === 'wait' ? svg('g', { class: 'wait' }, svg('rect', { x: 1, y: 4, width: 16, height: 10, rx: 2 }))
          : svg('g', { class: 'attempt ' + verdict }, mark(verdict, 9, 10))), text);
    return el('p', { class: 'legend' }, item('on-time', 'attempt (on time, or first)'), item('early', 'early retry'),
      item('refused', 'early, refused again'), item('wait', 'wait the answer asked for (Retry-After)'));
  }
  function renderTimeline(list) {
    const holder = $('timeline');
    const rows = retryRows(list);
    if (!rows.length) {
      holder.replaceChildren(el('p', { class: 'hint', id: 'timeline-empty', text: 'No retries to draw: a row appears for each client (User-Agent) '
        + 'and stub with more than one attempt after an answer that asked for a wait (Retry-After, or a 429\'s X-RateLimit-Reset).' }));
      return;
    }
    let from = Infinity, to = -Infinity;
    for (const row of rows) {
      for (const entry of row.attempts) { from = Math.min(from, timeMs(entry)); to = Math.max(to, timeMs(entry)); }
      for (const wait of row.waits) { from = Math.min(from, wait.start); to = Math.max(to, wait.start + wait.askedMs); }
    }
    if (to - from < 1) to = from + 1000;
    const width = Math.max(360, holder.clientWidth - 32), pad = 44;
    const x = (t) => Math.round((pad + (t - from) / (to - from) * (width - 2 * pad)) * 10) / 10;
    const start = new Date(from).toISOString();
    holder.replaceChildren(
      el('p', { class: 'hint', id: 'timeline-caption' }, rows.length + (rows.length === 1 ? ' client and stub' : ' clients and stubs')
        + ' with retries; time from ' + start.slice(11, 23) + ' (' + start.slice(0, 10) + ', the world\'s clock) over ' + duration(to - from) + '.'),
      legend(),
      svg('svg', { class: 'tl axis', width, height: 26, viewBox: `0 0 ${width} 26`, 'aria-hidden': 'true' },
        svg('line', { x1: x(from), x2: x(to), y1: 24, y2: 24 }), ticks(from, to, x)),
      ...rows.map((row) => timelineRow(row, x, width, new Set(rows.map((r) => r.session || '')).size > 1)));
  }
  function showView(view) {
    state.view = view;
    $('view-list').setAttribute('aria-pressed', String(view === 'list'));
    $('view-retries').setAttribute('aria-pressed', String(view === 'retries'));
    $('list-view').hidden = view !== 'list';
    $('timeline').hidden = view !== 'retries';
    render();
  }
  $('view-list').addEventListener('click', () => showView('list'));
  $('view-retries').addEventListener('click', () => showView('retries'));
  window.addEventListener('resize', () => { if (state.view === 'retries') render(); });

  // ---- detail --------------------------------------------------------------------------
  function headerTable(headers) {
    const rows = [];
    for (const [name, values] of Object.entries(headers || {})) {
      for (const value of Array.isArray(values) ? values : [values]) rows.push(el('tr', {}, el('td', { text: name }), el('td', { text: value })));
    }
    return rows.length ? el('table', { class: 'kv' }, el('tbody', {}, rows)) : el('p', { class: 'hint', text: 'no headers' });
  }
  function bodyBlock(text, base64, label) {
    if (base64) return [el('p', { class: 'hint', text: label + ' (not UTF-8; base64)' }), el('pre', { text: base64 })];
    if (!text) return [el('p', { class: 'hint', text: label + ': empty' })];
    let shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (error) { /* not JSON: as sent */ }
    return [el('pre', { text: shown })];
  }
  function stubPlace(entry) {
    const stub = state.stubs.find((s) => s.id === entry.stub);
    if (entry.rateLimited) return 'refused by its rate limit (no response used)';
    if (entry.responseIndex === null || entry.responseIndex === undefined) return '';
    const of = stub ? ' of ' + stub.responses : '';
    return 'response ' + (entry.responseIndex + 1) + of + (stub ? ' · afterLast ' + stub.afterLast : '');
  }
  function showDetail(entry) {
    const panel = $('panel-detail');
    if (!entry) { panel.replaceChildren(el('p', { class: 'hint', text: 'That entry is no longer in the journal.' })); return; }
    const target = entry.path + (entry.query !== null && entry.query !== undefined ? '?' + entry.query : '');
    const parts = [
      el('h2', { text: '#' + entry.seq + ' ' + entry.method + ' ' + target }),
      el('dl', {},
        el('dt', { text: 'Time' }), el('dd', { text: entry.time + ' (' + entry.elapsedMs + ' ms after start)' }),
        el('dt', { text: 'Status' }), el('dd', { class: statusClass(entry.status), text: entry.status === null || entry.status === undefined ? 'no status line sent' : entry.status }),
        el('dt', { text: 'Stub' }), el('dd', { text: entry.stub ? entry.stub : 'none: unmatched' }),
        entry.stub ? [el('dt', { text: 'Sequence' }), el('dd', { text: stubPlace(entry) })] : null,
        el('dt', { text: 'Scenario' }), el('dd', { text: entry.scenario ? entry.scenario.name + ': ' + entry.scenario.from + ' → ' + entry.scenario.to : 'no move' }),
        entry.rateLimited ? [el('dt', { text: 'Rate limit' }), el('dd', { text: 'refused (' + (entry.status === null || entry.status === undefined ? 'no status' : entry.status) + ')' })] : null,
        entry.fault ? [el('dt', { text: 'Fault' }), el('dd', { text: entry.fault })] : null,
        entry.delayMs !== undefined && entry.delayMs !== null ? [el('dt', { text: 'Delay' }), el('dd', { text: entry.delayMs + ' ms' })] : null,
        entry.outcome ? [el('dt', { text: 'Outcome' }), el('dd', { text: entry.outcome
          + (typeof entry.outcomeMs === 'number' ? ' after ' + (entry.outcomeMs - entry.elapsedMs).toFixed(3) + ' ms' : '') })] : null,
        entry.session ? [el('dt', { text: 'Session' }), el('dd', { text: entry.session })] : null,
        entry.retry ? [el('dt', { text: 'Retry' }), el('dd', { text: 'came ' + entry.retry.waitedMs + ' ms after an answer that asked for ' + entry.retry.askedMs + ' ms: '
          + (entry.retry.verdict === 'on-time' ? 'on time' : 'early by ' + entry.retry.earlyByMs + ' ms' + (entry.retry.verdict === 'refused' ? ', refused again' : '')) })] : null,
        entry.idempotency ? [el('dt', { text: 'Idempotency key' }), el('dd', { text: (entry.idempotency.key === null ? 'missing' : entry.idempotency.key) + ': ' + entry.idempotency.outcome })] : null),
    ];
    if (!entry.matched) {
      parts.push(el('h2', { text: 'Why no stub matched' }));
      const holder = el('div', { id: 'near-miss-holder' }, el('p', { class: 'hint', text: 'explaining…' }));
      parts.push(holder);
      explain(entry.seq, holder);
    }
    parts.push(el('h2', { text: 'Request' }), headerTable(entry.headers), ...bodyBlock(entry.body, entry.bodyBase64, 'Body'));
    parts.push(el('h2', { text: 'Response' }));
    const response = entry.response;
    if (response) {
      parts.push(el('p', {}, 'Status ' + response.status + ' · ' + response.bodySize + ' bytes' + (response.truncated ? ' (journal copy truncated)' : '')));
      parts.push(headerTable(response.headers));
      if (response.body !== undefined || response.bodyBase64 !== undefined) parts.push(...bodyBlock(response.body, response.bodyBase64, 'Body'));
      else parts.push(el('p', { class: 'hint', text: 'body not journaled' }));
    } else {
      parts.push(el('p', { class: 'hint', text: 'This journal does not record responses.' }));
    }
    panel.replaceChildren(...parts);
  }
  async function explain(seq, holder) {
    try {
      let data = state.explained.get(seq);
      if (!data) {
        const response = await api('/__admin/requests/' + seq + '/near-misses');
        if (!response.ok) throw new Error('status ' + response.status);
        data = await response.json();
        state.explained.set(seq, data);
      }
      holder.replaceChildren(
        el('pre', { class: 'near-miss', id: 'near-miss', text: data.text }),
        el('p', { class: 'hint', text: 'Explained against the stubs and scenario states as they are now.' }));
    } catch (error) {
      holder.replaceChildren(el('p', { class: 'error', text: 'Could not explain it: ' + error.message }));
    }
  }

  // ---- side panels ---------------------------------------------------------------------
  function grid(headings, rows, empty) {
    if (!rows.length) return el('p', { class: 'hint', text: empty });
    return el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, headings.map((h) => el('th', { text: h })))), el('tbody', {}, rows));
  }
  async function refreshPanels() {
    if (state.needToken) return;
    try {
      const [stubs, scenarios, limits] = await Promise.all([
        apiJSON('/__admin/stubs'), apiJSON('/__admin/scenarios'),
        apiJSON('/__admin/rate-limits').catch(() => ({ rateLimits: [] })),
      ]);
      state.stubs = stubs.stubs;
      $('stub-ids').replaceChildren(...state.stubs.map((s) => el('option', { value: s.id })));
      $('panel-stubs').replaceChildren(grid(['Stub', 'Next', 'Served', 'State'], state.stubs.map((s) => el('tr', {},
        el('td', {}, el('strong', { text: s.id }), el('br'), el('span', { class: 'hint', text: s.file })),
        el('td', { text: s.exhausted ? '—' : (s.nextResponseIndex + 1) + ' of ' + s.responses }),
        el('td', { text: s.timesServed }),
        el('td', {},
          s.exhausted ? el('span', { class: 'badge unmatched', text: 'exhausted' }) : el('span', { class: 'badge', text: s.afterLast }),
          s.scenario ? el('span', { class: 'badge move', text: s.scenario + (s.whenState ? ' @' + s.whenState : '') + (s.setState ? ' → ' + s.setState : '') }) : null,
          s.rateLimit ? el('span', { class: 'badge limited', text: s.rateLimit.limit + '/' + s.rateLimit.window + ' s' }) : null))),
        'No stubs are loaded.'));
      $('panel-scenarios').replaceChildren(grid(['Scenario', 'State', 'States'], scenarios.scenarios.map((s) => el('tr', {},
        el('td', { text: s.name }), el('td', { class: 'current', text: s.state }),
        el('td', {}, s.states.map((name, i) => el('span', { class: name === s.state ? 'current' : null, text: (i ? ' · ' : '') + name }))))),
        'No scenarios.'));
      $('panel-limits').replaceChildren(grid(['Stub', 'Limit', 'Left now', 'Full again in'], limits.rateLimits.map((r) => el('tr', {},
        el('td', { text: r.stub }), el('td', { text: r.limit + ' per ' + r.window + ' s (' + r.algorithm + ')' }),
        el('td', { text: r.remaining }), el('td', { text: r.resetSeconds + ' s' }))),
        'No stub has a rate limit.'));
      refreshSessions();
    } catch (error) { /* the follower reports connection problems */ }
  }
  async function refreshSessions() {
    const panel = $('panel-sessions');
    try {
      const response = await api('/__admin/sessions');
      if (!response.ok) { panel.replaceChildren(el('p', { class: 'hint', text: 'This server has no sessions API (or this page is a session\'s own).' })); return; }
      const data = await response.json();
      panel.replaceChildren(grid(['Session', 'URL', 'Requests', 'Idle'], data.sessions.map((s) => el('tr', {},
        el('td', { text: s.name ? s.name + ' (' + s.id + ')' : s.id }),
        el('td', {}, el('a', { href: s.url + '/__admin/ui', text: s.url })),
        el('td', { text: s.requests }), el('td', { text: Math.round(s.idleMs / 1000) + ' s' }))),
        'No sessions.'));
    } catch (error) { /* as above */ }
  }
  setInterval(() => { if (!state.paused) refreshPanels(); }, 3000);

  // ---- tabs, keys, buttons -------------------------------------------------------------
  const tabs = ['detail', 'stubs', 'scenarios', 'limits', 'sessions'];
  function showTab(name) {
    for (const tab of tabs) {
      const on = tab === name;
      $('tab-' + tab).setAttribute('aria-selected', on ? 'true' : 'false');
      $('tab-' + tab).tabIndex = on ? 0 : -1;
      $('panel-' + tab).hidden = !on;
    }
  }
  tabs.forEach((name, index) => {
    const tab = $('tab-' + name);
    tab.addEventListener('click', () => showTab(name));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const next = tabs[(index + step + tabs.length) % tabs.length];
      showTab(next);
      $('tab-' + next).focus();
    });
  });
  document.addEventListener('keydown', (event) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName);
    if (event.key === 'Escape' && !$('token-dialog').open) {
      const row = $('rows').querySelector('tr[tabindex="0"]');
      if (row) row.focus();
      return;
    }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '/') { event.preventDefault(); $('f-path').focus(); }
    else if (event.key === 'p') $('pause').click();
    else if (event.key === 'r') showView(state.view === 'list' ? 'retries' : 'list');
    else if (/^[1-5]$/.test(event.key)) { showTab(tabs[Number(event.key) - 1]); $('tab-' + tabs[Number(event.key) - 1]).focus(); }
    else if ((event.key === 'j' || event.key === 'ArrowDown') && !$('rows').contains(event.target) && event.target.getAttribute('role') !== 'tab') {
      const row = $('rows').firstElementChild;
      if (row) { event.preventDefault(); select(Number(row.dataset.seq), true); }
    }
  });
  $('pause').addEventListener('click', () => {
    state.paused = !state.paused;
    $('pause').setAttribute('aria-pressed', String(state.paused));
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    setStatus(state.paused ? 'paused' : 'resuming…', state.paused ? 'paused' : '');
  });
  $('har').addEventListener('click', async () => {
    const f = filters();
    const query = new URLSearchParams();
    if (f.method) query.set('method', f.method);
    if (f.stub) query.set('stub', f.stub);
    if (f.matched) query.set('matched', f.matched);
    if (f.status && f.status !== 'none') query.set('status', f.status);
    try {
      const response = await api('/__admin/requests.har?' + query);
      if (!response.ok) throw new Error('status ' + response.status);
      const url = URL.createObjectURL(await response.blob());
      const link = el('a', { href: url, download: 'understudy.har' });
      document.body.append(link); link.click(); link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (error) { if (!(error instanceof Unauthorized)) setStatus('HAR export failed: ' + error.message, 'problem'); }
  });

  $('origin').textContent = location.host;
  follow();
  watchForResets();
})();
