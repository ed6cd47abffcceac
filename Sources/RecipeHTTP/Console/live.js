// Live updates: the console follows the service's event streams (GET /v1/events, GET
// /v1/recipes/{id}/events; docs/console.md "Live updates") so that the list, a recipe's page, its
// history and the editor show what other clients change without a reload. A stream is read with
// `fetch` and a streaming reader, not EventSource, so that the bearer token goes as a header.
// Loaded before console.js, which says which stream a page follows and what a change does to it.
'use strict';

/// The longest wait between two reconnections, however many failed in a row.
const LIVE_MAX_RETRY_MS = 30000;

/// One followed stream. It reconnects after a drop, resuming after the last event id it got
/// (`Last-Event-ID`), or after the position its `caught-up` named when no event came yet; it waits
/// the server's `retry:` before reconnecting, doubled at each failure in a row (at most 30 s, with
/// some jitter so that many tabs do not come back at once). Handlers:
/// - `decision(data)`: a decision to show: a live one, or one missed while disconnected (replayed
///   before `caught-up` on a resumed connection). The history sent on a first connection is not
///   handed over: the page was drawn after that connection caught up (`ready`).
/// - `resync()`: the stream could not resume (`reset`) and started again: the page is to be redrawn.
/// - `status(kind, text)`: 'live', 'lost' (reconnecting) or 'off' (refused: the stream stops).
class EventFollower {
  constructor(path, headers, handlers) {
    this.path = path;
    this.headers = headers;
    this.handlers = handlers;
    this.resumeAfter = null;
    this.retryMilliseconds = 2000;
    this.failures = 0;
    this.stopped = false;
    this.controller = null;
    this.timer = null;
    // True once a connection caught up; a later connection's history is what was missed.
    this.caughtUpOnce = false;
    this.freshStart = false;
    // A page was drawn before the first catch-up (`ready` gave up): it may miss a change.
    this.gaveUp = false;
    this.readyWaiters = [];
    this.connect();
  }

  /// Resolves once the first connection caught up, failed, or `milliseconds` passed.
  ready(milliseconds) {
    if (this.caughtUpOnce || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.readyWaiters.push(resolve);
      setTimeout(() => { if (!this.caughtUpOnce) this.gaveUp = true; resolve(); }, milliseconds);
    });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.controller) this.controller.abort();
    this.wake();
  }

  /// Lets the pages waiting for `ready` draw; drawn before a first catch-up, they are redrawn at it.
  wake() {
    if (!this.caughtUpOnce && this.readyWaiters.length) this.gaveUp = true;
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async connect() {
    if (this.stopped) return;
    this.controller = new AbortController();
    const headers = Object.assign({ Accept: 'text/event-stream' }, this.headers);
    if (this.resumeAfter) headers['Last-Event-ID'] = this.resumeAfter;
    let response;
    try {
      response = await fetch(new URL(this.path, document.baseURI), { headers, cache: 'no-store', signal: this.controller.signal });
    } catch (error) {
      this.dropped();
      return;
    }
    if (!response.ok) {
      // The stream is refused (no such recipe for this caller, a token that may not read, a server
      // without streams): following again would be refused again. Overload and restarts are retried.
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
        this.stopped = true;
        this.handlers.status('off', 'live updates off (' + response.status + ')');
        this.wake();
        return;
      }
      this.dropped();
      return;
    }
    await this.read(response.body.getReader());
    this.dropped();
  }

  async read(reader) {
    const decoder = new TextDecoder();
    const parser = { buffer: '', data: null, event: '', id: null };
    this.caughtUp = false;
    this.missed = [];
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.stopped) break;
        this.feed(parser, decoder.decode(value, { stream: true }));
      }
    } catch (error) {
      // A drop or an abort: `dropped` reconnects, or not once stopped.
    }
  }

  /// The text/event-stream lines of a chunk; a CR at its end may be the first half of CR LF.
  feed(parser, chunk) {
    let text = parser.buffer + chunk;
    let held = '';
    if (text.endsWith('\r')) { held = '\r'; text = text.slice(0, -1); }
    const lines = text.split(/\r\n|\r|\n/);
    parser.buffer = lines.pop() + held;
    for (const line of lines) {
      if (line === '') { this.dispatch(parser); continue; }
      if (line.startsWith(':')) continue;   // a comment: `: ping`
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (name === 'data') parser.data = parser.data === null ? value : parser.data + '\n' + value;
      else if (name === 'event') parser.event = value;
      else if (name === 'id' && !value.includes('\u0000')) parser.id = value;
      else if (name === 'retry' && /^[0-9]+$/.test(value)) this.retryMilliseconds = Number(value);
    }
  }

  dispatch(parser) {
    const { data: text, event } = parser;
    parser.data = null;
    parser.event = '';
    // Only durable positions carry an id: the last one is where a reconnection resumes.
    if (parser.id) this.resumeAfter = parser.id;
    if (text === null) return;
    let data = {};
    try { data = JSON.parse(text); } catch (error) { data = {}; }
    if (event === 'caught-up') {
      this.caughtUp = true;
      if (!this.resumeAfter && data.after) this.resumeAfter = data.after;
      this.failures = 0;
      this.handlers.status('live');
      const first = !this.caughtUpOnce;
      this.caughtUpOnce = true;
      this.wake();
      if (this.freshStart || (first && this.gaveUp)) {
        this.freshStart = false;
        this.gaveUp = false;
        this.handlers.resync();
      } else if (!first) {
        for (const missed of this.missed) this.handlers.decision(missed);
      }
      this.missed = [];
    } else if (event === 'accepted' || event === 'rejected') {
      if (this.caughtUp) this.handlers.decision(data);
      else if (this.caughtUpOnce) this.missed.push(data);
      // A recipe's stream ends with its deletion: there is nothing more to follow.
      if (event === 'accepted' && data.type === 'RecipeDeleted' && /^v1\/recipes\//.test(this.path)) this.stopped = true;
    } else if (event === 'reset') {
      // The position is older than the log keeps: start again from now, and redraw what is shown.
      this.resumeAfter = null;
      this.freshStart = true;
    }
    // `overflow`: the server closes the stream; the reconnection resumes after the last id.
  }

  dropped() {
    this.controller = null;
    this.wake();
    if (this.stopped) return;
    this.failures += 1;
    this.handlers.status('lost');
    const backoff = Math.min(LIVE_MAX_RETRY_MS, this.retryMilliseconds * 2 ** Math.max(0, this.failures - 1));
    this.timer = setTimeout(() => this.connect(), backoff * (0.8 + 0.4 * Math.random()));
  }
}

// MARK: - What the pages do with it

/// How long a page waits for its stream to catch up before it is drawn (drawn after it, it misses nothing).
const LIVE_READY_MS = 1500;
/// The decisions that change the list (edits change a recipe's draft, not the list, until a save).
const LIST_CHANGING = ['RecipeSaved', 'RecipeDeleted', 'DraftDiscarded'];

const live = {
  follower: null,
  scope: null,
  // Decisions that came while this tab was writing: its own are known once the write answers.
  queue: [],
  // Positions of this tab's own commands (its receipts): their decisions are drawn by the page itself.
  own: new Set(),
  writing: 0,
  redrawing: false,
  redrawAgain: null,
};

/// The stream a page follows and which of its decisions change what the page shows; null: none.
function liveScope(name, parts, params) {
  const accepted = (data) => data.outcome === 'accepted';
  if (name === '') {
    const query = new URLSearchParams();
    for (const key of ['tag', 'q']) if (params.get(key)) query.set(key, params.get(key));
    const text = query.toString();
    return { path: 'v1/events' + (text ? '?' + text : ''), shows: (data) => accepted(data) && LIST_CHANGING.includes(data.type) };
  }
  if (name === 'drafts') return { path: 'v1/events', shows: accepted };
  if (['recipe', 'edit', 'history'].includes(name) && parts[0]) {
    // The history lists rejections too.
    return { path: recipePath(parts[0], '/events'), shows: name === 'history' ? () => true : accepted, recipe: true };
  }
  return null;
}

/// Follows the page's stream: the one already open when it is the same, else a new one.
function followLive(scope) {
  live.scope = scope;
  const path = scope ? scope.path : null;
  if (live.follower && live.follower.path === path) return live.follower;
  stopLive();
  if (!path) return null;
  // The token as every request sends it: a header, never in the stream's URL.
  const headers = {};
  if (token()) headers.Authorization = 'Bearer ' + token();
  const follower = new EventFollower(path, headers, {
    decision: (data) => { if (live.follower === follower) { live.queue.push(data); liveFlush(); } },
    resync: () => { if (live.follower === follower) liveRedraw([]); },
    status: (kind, text) => { if (live.follower === follower) liveStatus(kind, text); },
  });
  live.follower = follower;
  return follower;
}

/// Stops following (another token: the next page follows with it).
function stopLive() {
  if (live.follower) live.follower.stop();
  live.follower = null;
  live.queue = [];
  liveStatus('live');
}

/// The quiet indicator at the top: nothing while the stream is live.
function liveStatus(kind, text) {
  const element = document.getElementById('live-state');
  if (!element) return;
  element.dataset.state = kind;
  element.hidden = kind === 'live';
  element.textContent = kind === 'lost' ? 'Live updates: reconnecting…' : kind === 'off' ? 'Live updates off' : '';
  element.title = kind === 'lost' ? 'The event stream dropped; changes made elsewhere show once it is back.'
    : kind === 'off' ? 'The service refused the event stream (' + (text || '') + '): reload the page to see changes made elsewhere.' : '';
}

/// A write of this tab is answered: its positions are its own.
function liveNoteOwn(receipt) {
  if (!receipt || typeof receipt !== 'object') return;
  const positions = [receipt.position, receipt.savedPosition];
  if (receipt.partition !== undefined && receipt.offset !== undefined) positions.push(receipt.partition + ':' + receipt.offset);
  for (const position of positions) if (position) live.own.add(position);
  while (live.own.size > 1000) live.own.delete(live.own.values().next().value);
}

/// Draws the decisions waiting, other clients' that change what the page shows; none while this tab writes.
function liveFlush() {
  if (live.writing > 0 || live.queue.length === 0) return;
  const decisions = live.queue.filter((data) => !live.own.has(data.position) && live.scope && live.scope.shows(data));
  live.queue = [];
  if (decisions.length) liveRedraw(decisions);
}

/// Redraws the page, one redraw at a time (decisions that come meanwhile: one more after it).
async function liveRedraw(decisions) {
  if (live.redrawing) { live.redrawAgain = (live.redrawAgain || []).concat(decisions); return; }
  live.redrawing = true;
  try {
    await redrawKeepingTyping(changeText(decisions));
  } catch (error) {
    // The stream stays; the next change or the page's own retry draws it.
  } finally {
    live.redrawing = false;
    const again = live.redrawAgain;
    live.redrawAgain = null;
    if (again) liveRedraw(again);
  }
}

/// What the notice says of other clients' changes (on a recipe's pages; the list redraws quietly).
function changeText(decisions) {
  if (!live.scope || !live.scope.recipe || decisions.length === 0) return '';
  const last = decisions[decisions.length - 1];
  const who = last.actor ? ' by ' + last.actor : '';
  if (last.type === 'RecipeDeleted' && last.outcome === 'accepted') return 'Deleted elsewhere' + who + '.';
  return 'Changed elsewhere' + who + ' (' + decisions.map((data) => data.type).join(', ') + ').';
}

function editableFields(root) {
  return [...root.querySelectorAll('input, textarea, select')]
    .filter((field) => !['checkbox', 'radio', 'file', 'submit', 'button', 'hidden'].includes(field.type));
}

/// Marks what each field shows as drawn: a field whose value differs holds the user's unsent typing.
function markShown(root) {
  for (const field of editableFields(root)) field.dataset.shown = field.value;
}

/// A field by what it edits, not by its place: an ingredient's or step's line by its id (a line added
/// or removed elsewhere moves the others), a tag by its text, the others by their id.
function fieldKey(field) {
  const line = field.closest('[data-ingredient-id], [data-instruction-id]');
  if (line) {
    const what = line.dataset.ingredientId ? 'ingredient:' + line.dataset.ingredientId : 'step:' + line.dataset.instructionId;
    return what + ':' + field.id.replace(/^(ing|step)-[0-9]+-/, '');
  }
  if (/^tag-[0-9]+-text$/.test(field.id)) return 'tag:' + field.dataset.shown;
  return field.id;
}

/// Draws the page again from the service, keeping what the user typed and has not sent: each such
/// field keeps its text (and the focus and caret stay in it); a field that was also changed elsewhere
/// says so beside it, with the new value, and keeps the user's text until it is sent or cleared.
async function redrawKeepingTyping(message) {
  const main = document.getElementById('main');
  const typed = new Map();
  for (const field of editableFields(main)) {
    if (field.dataset.shown !== undefined && field.value !== field.dataset.shown) {
      typed.set(fieldKey(field), { value: field.value, was: field.dataset.shown });
    }
  }
  const active = document.activeElement;
  const focus = active && main.contains(active) && editableFields(main).includes(active)
    ? { key: fieldKey(active), start: active.selectionStart, end: active.selectionEnd } : null;
  if (!(await refresh())) return;
  const fields = new Map(editableFields(main).map((field) => [fieldKey(field), field]));
  let lost = 0;
  for (const [key, { value, was }] of typed) {
    const field = fields.get(key);
    if (!field) { lost += 1; continue; }
    if (field.dataset.shown !== was) {
      const shown = field.dataset.shown;
      field.parentElement.append(h('p', { class: 'changed-elsewhere', id: field.id + '-elsewhere' },
        'Changed elsewhere to “' + shown + '”; your text is kept until you send it.'));
    }
    field.value = value;
  }
  const focused = focus && fields.get(focus.key);
  if (focused) {
    focused.focus();
    try { focused.setSelectionRange(focus.start, focus.end); } catch (error) { /* a field without a caret */ }
  }
  if (message) {
    notice(message + (typed.size ? ' Your unsent typing is kept' + (lost ? ', but for ' + lost +
      (lost === 1 ? ' field whose line is' : ' fields whose lines are') + ' gone' : '') + '.' : ''));
  }
}
