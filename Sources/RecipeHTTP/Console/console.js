// The Recipe Ledger web console: browse, edit and audit recipes through the HTTP API (/v1).
// Plain JavaScript, no build step, no libraries. Pages are chosen by the URL's #fragment:
//   #/?q=&tag=&cursor=   the list            #/recipe/ID?version=&guests=   one recipe
//   #/new                start a recipe      #/edit/ID                      its editor (every change a command)
//   #/drafts             open drafts         #/history/ID?from=&to=         its timeline and a diff of versions
//   #/rejections         recent rejections   #/operations                   readiness, positions and lag
// Every request goes to this page's own origin with relative URLs; the bearer token (when given)
// is kept in sessionStorage and sent as a header, never in a URL.
'use strict';

const TOKEN_KEY = 'recipe-ledger.token';
const RETRY_SECONDS = 3;

const state = {
  // The last position this tab wrote, per partition: reads send them as `after=` (read your writes).
  written: new Map(),
  renderCount: 0,
  // Whether the page on screen failed because the service did not answer (the retry re-renders it).
  viewFailed: false,
  retryTimer: null,
  // The cursors of the pages before the one shown, for "Previous page" (per search).
  pages: { key: null, trail: [] },
  lastHash: null,
};

// MARK: - DOM

/// An element: `h('a', {href: '#/'}, 'text', child)`; `on…` attributes are listeners, null children are skipped.
function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (name === 'value') {
      element.value = value;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function tagText(tag) {
  return '@' + tag.name + (tag.payload !== undefined ? '(' + tag.payload + ')' : '');
}

function tagList(tags, link) {
  if (!tags || tags.length === 0) return h('span', { class: 'muted' }, 'no tags');
  return h('ul', { class: 'tags' }, tags.map((tag) =>
    h('li', {}, link ? h('a', { href: '#/?tag=' + encodeURIComponent(tag.name), class: 'tag' }, tagText(tag))
                     : h('span', { class: 'tag' }, tagText(tag)))));
}

function time(text) {
  if (!text) return '';
  const date = new Date(text);
  return isNaN(date) ? text : h('time', { datetime: text, title: text }, date.toLocaleString());
}

/// A table's head; the `numeric` columns are aligned like their numbers.
function headerRow(names, numeric = []) {
  return h('thead', {}, h('tr', {}, names.map((name) => h('th', { scope: 'col', class: numeric.includes(name) ? 'number' : null }, name))));
}

function errorBox(error, what) {
  return h('div', { class: 'error', role: 'alert' }, what ? what + ': ' : '', describe(error));
}

/// Members of an object the console does not know yet (fields later API versions add), shown as they are.
function extraFields(object, known) {
  const rows = Object.entries(object).filter(([name]) => !known.includes(name));
  if (rows.length === 0) return null;
  return h('dl', { class: 'extra' }, rows.map(([name, value]) =>
    [h('dt', {}, name), h('dd', {}, typeof value === 'string' ? value : JSON.stringify(value))]));
}

function notice(text) {
  const element = document.getElementById('notice');
  element.textContent = text || '';
  element.hidden = !text;
}

// MARK: - The API

class APIError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

class ServiceDown extends Error {}

function describe(error) {
  if (error instanceof ServiceDown) return 'the service does not answer; retrying.';
  if (!(error instanceof APIError)) return String(error && error.message ? error.message : error);
  const field = error.field ? ' (' + error.field + ')' : '';
  if (error.status === 401) {
    return '401 Unauthorized: ' + error.message + '. Enter a bearer token at the top of the page.';
  }
  if (error.status === 403) return '403 Forbidden: ' + error.message + field + '. This token may not do that.';
  return error.status + ' ' + error.code + ': ' + error.message + field;
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

function afterPositions() {
  return [...state.written.entries()].map(([partition, offset]) => partition + ':' + offset).join(',');
}

function noteWritten(receipt) {
  if (!receipt || receipt.partition === undefined) return;
  const known = state.written.get(receipt.partition);
  if (known === undefined || receipt.offset > known) state.written.set(receipt.partition, receipt.offset);
}

/// One request; answers `{status, body}` for 2xx, throws APIError for the others and ServiceDown
/// when nothing answers. `read: true` adds `after=` with this tab's writes.
async function api(method, path, options = {}) {
  const url = new URL(path, document.baseURI);
  const query = Object.assign({}, options.query);
  if (options.read && state.written.size > 0) query.after = afterPositions();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { Accept: 'application/json' };
  if (token()) headers.Authorization = 'Bearer ' + token();
  let body;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body, cache: 'no-store' });
  } catch (error) {
    serviceDown(error);
    throw new ServiceDown(String(error));
  }
  serviceUp();
  const type = response.headers.get('content-type') || '';
  const text = await response.text();
  let payload = text;
  if (type.includes('json')) {
    try { payload = JSON.parse(text); } catch (error) { payload = text; }
  }
  if (!response.ok) {
    const detail = payload && payload.error ? payload.error : {};
    throw new APIError(response.status, detail.code || 'http' + response.status,
                       detail.message || response.statusText || text, detail.field);
  }
  return { status: response.status, body: payload };
}

function recipePath(id, rest) {
  return 'v1/recipes/' + encodeURIComponent(id) + (rest || '');
}

/// Sends one command with ?wait=true and shows what became of it in `where` (an element beside the
/// control). Answers the outcome: `accepted`, `duplicate`, `rejected` or `unknown` (202: sent, outcome
/// not known in time). Throws what `api` throws (shown in `where` too).
async function sendCommand(recipeID, type, data, where) {
  if (where) { where.className = 'outcome'; where.textContent = 'Sending ' + type + '…'; }
  const command = data === undefined ? { type } : { type, data };
  let answer;
  try {
    answer = await api('POST', recipePath(recipeID, '/commands'), { query: { wait: 'true' }, body: command });
  } catch (error) {
    if (where) { where.className = 'outcome error'; where.textContent = describe(error); }
    throw error;
  }
  noteWritten(answer.body);
  const outcome = answer.status === 200 ? answer.body.outcome : 'unknown';
  if (where) {
    if (outcome === 'rejected') {
      const reason = answer.body.reason || {};
      where.className = 'outcome error';
      where.setAttribute('role', 'alert');
      where.textContent = 'Rejected (' + reason.code + '): ' + reason.message;
    } else if (outcome === 'unknown') {
      where.className = 'outcome';
      where.textContent = type + ' sent at ' + answer.body.position + '; its outcome is not known yet.';
    } else {
      where.className = 'outcome ok';
      where.textContent = type + ' ' + outcome + '.';
    }
  }
  return { outcome, receipt: answer.body };
}

// MARK: - The service going away

function serviceDown(error) {
  const banner = document.getElementById('service-down');
  banner.hidden = false;
  banner.textContent = 'The service at ' + location.origin + ' does not answer (' + (error && error.message || error) +
    '). Retrying every ' + RETRY_SECONDS + ' s…';
  if (state.retryTimer) return;
  state.retryTimer = setTimeout(async () => {
    state.retryTimer = null;
    try {
      await api('GET', 'healthz');
    } catch (error) {
      if (error instanceof APIError) serviceUp(); else return;   // it answers, even if unhealthy
    }
    if (state.viewFailed) route();
  }, RETRY_SECONDS * 1000);
}

function serviceUp() {
  document.getElementById('service-down').hidden = true;
}

// MARK: - Routing

function parseHash() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query] = hash.split('?', 2);
  const parts = path.split('/').filter((part) => part !== '').map(decodeURIComponent);
  return { parts, params: new URLSearchParams(query || '') };
}

/// Shows another page; `message` is announced once it is there.
function go(hash, message) {
  state.noticeFor = message ? { hash, message } : null;
  if (location.hash === hash) { notice(message || ''); refresh(); } else location.hash = hash;
}

function hashWith(path, params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return '#' + path + (text ? '?' + text : '');
}

const pages = {
  '': listPage,
  drafts: draftsPage,
  new: newPage,
  recipe: detailPage,
  edit: editorPage,
  history: historyPage,
  rejections: rejectionsPage,
  operations: operationsPage,
};

async function route() {
  const { parts, params } = parseHash();
  const name = parts[0] || '';
  const page = pages[name];
  const main = document.getElementById('main');
  const count = ++state.renderCount;
  const navigated = state.lastHash !== location.hash;
  state.lastHash = location.hash;
  for (const link of document.querySelectorAll('nav a[data-page]')) {
    const current = (link.dataset.page === 'list' ? '' : link.dataset.page) === name;
    if (current) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  let view;
  state.viewFailed = false;
  try {
    if (!page) throw new Error('There is no page ' + location.hash + ' in the console.');
    view = await page(parts.slice(1), params, count);
  } catch (error) {
    state.viewFailed = error instanceof ServiceDown;
    view = h('section', {}, h('h1', { tabindex: '-1' }, 'Recipe Ledger'), errorBox(error));
  }
  if (count !== state.renderCount) return;   // a later navigation won
  const focused = document.activeElement && document.activeElement.id;
  main.replaceChildren(view);
  const heading = main.querySelector('h1');
  if (heading) document.title = heading.textContent + ' · Recipe Ledger';
  if (navigated) {
    if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
  } else if (focused && document.getElementById(focused)) {
    document.getElementById(focused).focus();
  }
}

/// Renders the current page again in place (after a change), keeping the focus on the same control.
function refresh() {
  state.lastHash = location.hash;
  return route();
}

// MARK: - The list

async function listPage(_, params) {
  const q = params.get('q') || '';
  const tag = params.get('tag') || '';
  const cursor = params.get('cursor') || '';
  const key = q + '\u0000' + tag;
  if (state.pages.key !== key) state.pages = { key, trail: [] };
  if (!cursor) state.pages.trail = [];
  const { body } = await api('GET', 'v1/recipes', { read: true, query: { q, tag, cursor, limit: 20 } });

  const search = h('input', { id: 'list-q', name: 'q', type: 'search', value: q, placeholder: 'title contains…' });
  const tagInput = h('input', { id: 'list-tag', name: 'tag', type: 'text', value: tag, placeholder: 'e.g. vegan',
                                autocapitalize: 'none', spellcheck: 'false' });
  const filter = h('form', { class: 'filter', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    go(hashWith('/', { q: search.value.trim(), tag: tagInput.value.trim().replace(/^@/, '') }));
  } },
    h('label', { for: 'list-q' }, 'Search titles'), search,
    h('label', { for: 'list-tag' }, 'Tag'), tagInput,
    h('button', { type: 'submit' }, 'Search'),
    (q || tag) ? h('a', { href: '#/', class: 'button secondary' }, 'Clear') : null);

  const rows = body.items.map((recipe) => h('tr', { 'data-recipe-id': recipe.id },
    h('td', {}, h('a', { href: '#/recipe/' + encodeURIComponent(recipe.id) }, recipe.title || '(untitled)')),
    h('td', { class: 'number', 'data-label': 'Version' }, recipe.version),
    h('td', { class: 'number', 'data-label': 'Servings' }, recipe.servings ?? '—'),
    h('td', { 'data-label': 'Tags' }, tagList(recipe.tags, true)),
    h('td', { class: 'number', 'data-label': 'Ingredients' }, recipe.ingredientCount)));
  const table = body.items.length === 0
    ? h('p', { class: 'empty' }, (q || tag) ? 'No recipe matches.' : 'No recipes yet. ', h('a', { href: '#/new' }, 'Start one.'))
    : h('div', { class: 'table-wrap' }, h('table', { class: 'recipes' },
        h('caption', { class: 'visually-hidden' }, 'Recipes'),
        headerRow(['Title', 'Version', 'Servings', 'Tags', 'Ingredients'], ['Version', 'Servings', 'Ingredients']),
        h('tbody', {}, rows)));

  const trail = state.pages.trail;
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of the list' },
    trail.length > 0 ? h('button', { type: 'button', onclick: () => {
      const previous = trail.pop();
      go(hashWith('/', { q, tag, cursor: previous }));
    } }, 'Previous page') : null,
    body.nextCursor ? h('button', { type: 'button', onclick: () => {
      trail.push(cursor);
      go(hashWith('/', { q, tag, cursor: body.nextCursor }));
    } }, 'Next page') : null);

  return h('section', {},
    h('h1', {}, 'Recipes'),
    filter,
    (q || tag) ? h('p', { class: 'muted' }, 'Showing recipes', q ? ' whose title contains “' + q + '”' : '',
                   tag ? ' tagged @' + tag : '', '.') : null,
    table, pager,
    h('p', {}, h('a', { href: '#/new', class: 'button' }, 'New recipe')));
}

// MARK: - One recipe

function ingredientItems(ingredients) {
  return ingredients.map((ingredient) => h('li', { 'data-ingredient-id': ingredient.id },
    h('span', { class: 'amount' }, ingredient.display), ' ', h('span', { class: 'name' }, ingredient.name),
    extraFields(ingredient, ['id', 'name', 'amount', 'metric', 'display'])));
}

async function detailPage([id], params) {
  const version = params.get('version') || '';
  const guestsParam = params.get('guests') || '';
  const latest = (await api('GET', recipePath(id), { read: true })).body;
  const recipe = version || guestsParam
    ? (await api('GET', recipePath(id), { read: true, query: { version, guests: guestsParam } })).body
    : latest;

  const list = h('ul', { class: 'ingredients', id: 'ingredients' }, ingredientItems(recipe.ingredients));
  const guestsMessage = h('p', { id: 'guests-message', class: 'outcome', 'aria-live': 'polite' },
                          recipe.guests ? 'Amounts for ' + recipe.guests + ' guests.' : '');
  const guests = h('input', { id: 'guests', type: 'number', min: 1, max: 1000, step: 1, inputmode: 'numeric',
                              value: recipe.guests || recipe.servings || '', 'aria-describedby': 'guests-message' });
  let latestRequest = 0;
  guests.addEventListener('input', async () => {
    const value = guests.value.trim();
    if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
      guestsMessage.className = 'outcome error';
      guestsMessage.textContent = 'Guests must be a whole number from 1 to 1000.';
      return;
    }
    const request = ++latestRequest;
    try {
      const scaled = (await api('GET', recipePath(id), { read: true, query: { version, guests: value } })).body;
      if (request !== latestRequest) return;
      list.replaceChildren(...ingredientItems(scaled.ingredients));
      guestsMessage.className = 'outcome';
      guestsMessage.textContent = 'Amounts for ' + scaled.guests + ' guests.';
      history.replaceState(null, '', hashWith('/recipe/' + encodeURIComponent(id), { version, guests: value }));
      state.lastHash = location.hash;
    } catch (error) {
      if (request !== latestRequest) return;
      guestsMessage.className = 'outcome error';
      guestsMessage.textContent = describe(error);
    }
  });

  const picker = h('select', { id: 'version-picker', onchange: () =>
    go(hashWith('/recipe/' + encodeURIComponent(id), { version: picker.value == latest.version ? '' : picker.value,
                                                       guests: guestsParam })) },
    Array.from({ length: latest.version }, (_, index) => latest.version - index).map((number) =>
      h('option', { value: number, selected: number === recipe.version },
        'version ' + number + (number === latest.version ? ' (latest)' : ''))));

  const deleteOutcome = h('p', { class: 'outcome', 'aria-live': 'polite' });
  return h('article', { class: 'recipe' },
    h('h1', {}, recipe.title || '(untitled)'),
    h('p', { class: 'badges' },
      h('span', { class: 'badge', id: 'recipe-version' }, 'version ' + recipe.version + ' of ' + latest.version),
      latest.hasDraft ? h('a', { class: 'badge draft', id: 'has-draft', href: '#/edit/' + encodeURIComponent(id) }, 'has draft') : null),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Servings'), h('dd', { id: 'servings' }, recipe.servings ?? '—'),
      h('dt', {}, 'Saved by'), h('dd', {}, recipe.savedBy),
      h('dt', {}, 'Saved'), h('dd', {}, time(recipe.updatedAt)),
      recipe.image ? [h('dt', {}, 'Picture'), h('dd', {}, h('a', { href: recipe.image, rel: 'noreferrer' }, recipe.image))] : null),
    h('form', { class: 'controls', onsubmit: (event) => event.preventDefault() },
      h('div', {}, h('label', { for: 'guests' }, 'Guests'), guests),
      h('div', {}, h('label', { for: 'version-picker' }, 'Version'), picker)),
    guestsMessage,
    h('h2', {}, 'Ingredients'),
    recipe.ingredients.length ? list : h('p', { class: 'muted' }, 'No ingredients.'),
    h('h2', {}, 'Method'),
    recipe.instructions.length
      ? h('ol', { class: 'method' }, recipe.instructions.map((step) => h('li', {}, step.description,
          extraFields(step, ['id', 'order', 'description']))))
      : h('p', { class: 'muted' }, 'No steps.'),
    h('h2', {}, 'Tags'), tagList(recipe.tags, true),
    extraFields(recipe, ['id', 'version', 'title', 'servings', 'image', 'guests', 'ingredients', 'instructions', 'tags',
                         'updatedAt', 'savedBy', 'hasDraft']),
    h('p', { class: 'actions' },
      h('a', { class: 'button', href: '#/edit/' + encodeURIComponent(id) }, latest.hasDraft ? 'Edit the draft' : 'Edit'),
      h('a', { class: 'button secondary', href: '#/history/' + encodeURIComponent(id) }, 'History and diff'),
      h('button', { type: 'button', class: 'danger', onclick: async () => {
        if (!confirm('Delete “' + latest.title + '”? It leaves the list; its history stays.')) return;
        const { outcome } = await sendCommand(id, 'RecipeDeleted', undefined, deleteOutcome).catch(() => ({}));
        if (outcome === 'accepted') go('#/', 'Deleted “' + latest.title + '”.');
      } }, 'Delete')),
    deleteOutcome);
}

// MARK: - Drafts and new recipes

async function draftsPage() {
  const { body } = await api('GET', 'v1/drafts', { read: true, query: { limit: 100 } });
  return h('section', {},
    h('h1', {}, 'Open drafts'),
    body.items.length === 0 ? h('p', { class: 'empty' }, 'No open drafts.') :
      h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ['Title', 'Based on', 'Revision', 'A save needs', 'Edited'].map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, body.items.map((draft) => h('tr', {},
          h('td', {}, h('a', { href: '#/edit/' + encodeURIComponent(draft.id) }, draft.title || '(untitled)')),
          h('td', { 'data-label': 'Based on' }, draft.baseVersion ? 'version ' + draft.baseVersion : 'new recipe'),
          h('td', { class: 'number', 'data-label': 'Revision' }, draft.revision),
          h('td', { 'data-label': 'A save needs' }, draft.missing.length ? draft.missing.join(', ') : 'nothing'),
          h('td', { 'data-label': 'Edited' }, time(draft.updatedAt))))))),
    h('p', {}, h('a', { href: '#/new', class: 'button' }, 'New recipe')));
}

async function newPage() {
  const outcome = h('p', { class: 'outcome', 'aria-live': 'polite' });
  const start = h('button', { type: 'button', id: 'start-draft', onclick: async () => {
    start.disabled = true;
    outcome.textContent = 'Starting a draft…';
    try {
      const answer = await api('POST', 'v1/drafts', { query: { wait: 'true' } });
      noteWritten(answer.body);
      go('#/edit/' + encodeURIComponent(answer.body.recipeId), 'A new draft is started.');
    } catch (error) {
      outcome.className = 'outcome error';
      outcome.textContent = describe(error);
      start.disabled = false;
    }
  } }, 'Start a new recipe');
  return h('section', {},
    h('h1', {}, 'New recipe'),
    h('p', {}, 'A new recipe starts as a draft (', h('code', {}, 'POST /v1/drafts'), '). Every change in the editor is a ',
      'command appended to the log; the recipe joins the list when it is saved.'),
    start, outcome);
}

// MARK: - The editor

/// A small form whose submit sends one command: Enter in any of its fields submits it.
/// `command()` answers [type, data], or a string to show instead of sending.
function commandForm(recipeID, { id, label, fields, buttons, command, className }) {
  const outcome = h('p', { class: 'outcome', id: id + '-outcome', 'aria-live': 'polite' });
  const form = h('form', { class: 'command ' + (className || ''), id, 'aria-label': label },
    fields, h('div', { class: 'buttons' }, buttons), outcome);
  // Ids keep the focus on the same button when the editor is drawn again after a change.
  for (const button of form.querySelectorAll('button')) if (!button.id) button.id = id + '-' + (button.value || 'submit');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submitter = event.submitter;
    const made = command(submitter && submitter.value);
    if (made === null) return;
    if (typeof made === 'string') { outcome.className = 'outcome error'; outcome.textContent = made; return; }
    const [type, data] = made;
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    let result;
    try {
      result = await sendCommand(recipeID, type, data, outcome);
    } catch (error) {
      result = { outcome: 'failed' };
    }
    for (const button of form.querySelectorAll('button')) button.disabled = false;
    if (result.outcome === 'accepted' || result.outcome === 'duplicate' || result.outcome === 'unknown') {
      notice(type + ' ' + (result.outcome === 'unknown' ? 'sent' : result.outcome) + '.');
      await refresh();
    }
  });
  return form;
}

function field(id, label, input) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), input);
}

function amountValue(text) {
  const amount = Number(String(text).trim().replace(',', '.'));
  return String(text).trim() === '' || !Number.isFinite(amount) ? null : amount;
}

async function editorPage([id]) {
  // The open draft; without one, the committed recipe (the first change opens a draft of it).
  let draft = null;
  let committed = null;
  try {
    draft = (await api('GET', recipePath(id, '/draft'), { read: true })).body;
  } catch (error) {
    if (!(error instanceof APIError && error.code === 'noDraft')) throw error;
    committed = (await api('GET', recipePath(id), { read: true })).body;
  }
  const recipe = draft || committed;
  const savedVersion = draft ? draft.baseVersion : committed.version;

  const title = h('input', { id: 'edit-title', type: 'text', value: recipe.title, maxlength: 200, required: true });
  const servings = h('input', { id: 'edit-servings', type: 'number', min: 1, max: 100, step: 1, value: recipe.servings ?? '' });
  const image = h('input', { id: 'edit-image', type: 'url', value: recipe.image || '', placeholder: 'https://…' });

  const basics = [
    commandForm(id, { id: 'form-title', label: 'Title', fields: field('edit-title', 'Title', title),
      buttons: h('button', { type: 'submit' }, 'Set title'),
      command: () => ['TitleChanged', { title: title.value }] }),
    commandForm(id, { id: 'form-servings', label: 'Servings', fields: field('edit-servings', 'Servings', servings),
      buttons: h('button', { type: 'submit' }, 'Set servings'),
      command: () => /^[0-9]+$/.test(servings.value.trim()) ? ['ServingsChanged', { servings: Number(servings.value) }]
                                                             : 'Servings must be a whole number from 1 to 100.' }),
    commandForm(id, { id: 'form-image', label: 'Picture', fields: field('edit-image', 'Picture URL', image),
      buttons: [h('button', { type: 'submit', value: 'set' }, 'Set picture'),
                recipe.image ? h('button', { type: 'submit', value: 'remove', class: 'secondary' }, 'Remove picture') : null],
      command: (which) => which === 'remove' ? ['ImageChanged', { url: null }] : ['ImageChanged', { url: image.value.trim() }] }),
  ];

  const ingredients = recipe.ingredients.map((ingredient, index) => {
    const key = 'ing-' + index;
    const name = h('input', { id: key + '-name', type: 'text', value: ingredient.name, maxlength: 200 });
    const amount = h('input', { id: key + '-amount', type: 'text', inputmode: 'decimal', value: ingredient.amount });
    const unit = h('input', { id: key + '-unit', type: 'text', value: ingredient.metric, maxlength: 200 });
    return h('li', { 'data-ingredient-id': ingredient.id }, commandForm(id, {
      id: key, label: 'Ingredient ' + (index + 1), className: 'row',
      fields: [field(key + '-name', 'Name', name), field(key + '-amount', 'Amount', amount), field(key + '-unit', 'Unit', unit),
               extraFields(ingredient, ['id', 'name', 'amount', 'metric', 'display'])],
      buttons: [h('button', { type: 'submit', value: 'update' }, 'Update'),
                h('button', { type: 'submit', value: 'remove', class: 'secondary', 'aria-label': 'Remove ' + ingredient.name }, 'Remove')],
      command: (which) => {
        if (which === 'remove') return ['IngredientRemoved', { ingredientId: ingredient.id }];
        const data = { ingredientId: ingredient.id };
        if (name.value !== ingredient.name) data.name = name.value;
        if (unit.value !== ingredient.metric) data.metric = unit.value;
        const value = amountValue(amount.value);
        if (value === null) return 'The amount must be a number, e.g. 250 or 0.5.';
        if (value !== ingredient.amount) data.amount = value;
        return Object.keys(data).length > 1 ? ['IngredientUpdated', data] : 'Nothing to update: change a field first.';
      } }));
  });
  const newName = h('input', { id: 'new-ingredient-name', type: 'text', maxlength: 200, placeholder: 'Flour' });
  const newAmount = h('input', { id: 'new-ingredient-amount', type: 'text', inputmode: 'decimal', placeholder: '250' });
  const newUnit = h('input', { id: 'new-ingredient-unit', type: 'text', maxlength: 200, placeholder: 'g' });
  const addIngredient = commandForm(id, { id: 'form-new-ingredient', label: 'New ingredient', className: 'row new',
    fields: [field('new-ingredient-name', 'Name', newName), field('new-ingredient-amount', 'Amount', newAmount),
             field('new-ingredient-unit', 'Unit', newUnit)],
    buttons: h('button', { type: 'submit' }, 'Add ingredient'),
    command: () => {
      const value = amountValue(newAmount.value);
      if (value === null) return 'The amount must be a number, e.g. 250 or 0.5.';
      return ['IngredientAdded', { name: newName.value, amount: value, metric: newUnit.value }];
    } });

  const steps = recipe.instructions.map((step, index) => {
    const key = 'step-' + index;
    const text = h('textarea', { id: key + '-text', rows: 2, maxlength: 5000 });
    text.value = step.description;
    const count = recipe.instructions.length;
    return h('li', { 'data-instruction-id': step.id }, commandForm(id, {
      id: key, label: 'Step ' + step.order, className: 'row step',
      fields: [field(key + '-text', 'Step ' + step.order, text), extraFields(step, ['id', 'order', 'description'])],
      buttons: [h('button', { type: 'submit', value: 'update' }, 'Update'),
                index > 0 ? h('button', { type: 'submit', value: 'up', class: 'secondary', 'aria-label': 'Move step ' + step.order + ' up' }, 'Move up') : null,
                index < count - 1 ? h('button', { type: 'submit', value: 'down', class: 'secondary', 'aria-label': 'Move step ' + step.order + ' down' }, 'Move down') : null,
                h('button', { type: 'submit', value: 'remove', class: 'secondary', 'aria-label': 'Remove step ' + step.order }, 'Remove')],
      command: (which) => {
        if (which === 'remove') return ['InstructionRemoved', { instructionId: step.id }];
        if (which === 'up') return ['InstructionMoved', { instructionId: step.id, position: step.order - 1 }];
        if (which === 'down') return ['InstructionMoved', { instructionId: step.id, position: step.order + 1 }];
        return text.value === step.description ? 'Nothing to update: change the text first.'
                                               : ['InstructionUpdated', { instructionId: step.id, description: text.value }];
      } }));
  });
  const newStep = h('textarea', { id: 'new-step-text', rows: 2, maxlength: 5000, placeholder: 'What to do next' });
  const addStep = commandForm(id, { id: 'form-new-step', label: 'New step', className: 'row step new',
    fields: field('new-step-text', 'New step', newStep),
    buttons: h('button', { type: 'submit' }, 'Add step'),
    command: () => ['InstructionAdded', { description: newStep.value }] });

  const tags = recipe.tags.map((tag, index) => {
    const key = 'tag-' + index;
    const text = h('input', { id: key + '-text', type: 'text', value: tagText(tag), maxlength: 2048, spellcheck: 'false' });
    return h('li', {}, commandForm(id, { id: key, label: 'Tag ' + tagText(tag), className: 'row',
      fields: field(key + '-text', 'Tag', text),
      buttons: [h('button', { type: 'submit', value: 'change' }, 'Change'),
                h('button', { type: 'submit', value: 'remove', class: 'secondary', 'aria-label': 'Remove ' + tagText(tag) }, 'Remove')],
      command: (which) => {
        if (which === 'remove') return ['TagRemoved', { name: tag.name }];
        return text.value === tagText(tag) ? 'Nothing to change: edit the tag first.'
                                           : ['TagChanged', { name: tag.name, text: text.value }];
      } }));
  });
  const newTag = h('input', { id: 'new-tag-text', type: 'text', maxlength: 2048, spellcheck: 'false',
                              placeholder: '@vegan or @source(grandma)', 'aria-describedby': 'tag-help' });
  const addTag = commandForm(id, { id: 'form-new-tag', label: 'New tag', className: 'row new',
    fields: [field('new-tag-text', 'New tag', newTag),
             h('p', { id: 'tag-help', class: 'help' }, 'One tag: @name or @name(payload). A rejected change keeps the old tag.')],
    buttons: h('button', { type: 'submit' }, 'Add tag'),
    command: () => ['TagAdded', { text: newTag.value.trim() }] });

  const lifecycleOutcome = h('p', { class: 'outcome', id: 'lifecycle-outcome', 'aria-live': 'polite' });
  const busy = (flag) => { for (const button of actions.querySelectorAll('button')) button.disabled = flag; };
  const actions = h('div', { class: 'actions', id: 'editor-actions' },
    h('button', { type: 'button', id: 'save-recipe', onclick: async () => {
      busy(true);
      const result = await sendCommand(id, 'RecipeSaved', undefined, lifecycleOutcome).catch(() => ({}));
      busy(false);
      if (result.outcome !== 'accepted' && result.outcome !== 'unknown') return;
      // The list and the recipe answer once the read model has applied the save (after=).
      const saved = (await api('GET', recipePath(id), { read: true })).body;
      go('#/recipe/' + encodeURIComponent(id), 'Saved “' + saved.title + '” as version ' + saved.version + '.');
    } }, 'Save'),
    draft ? h('button', { type: 'button', class: 'secondary', id: 'discard-draft', onclick: async () => {
      if (!confirm('Discard this draft? Its changes are lost' + (savedVersion ? '; version ' + savedVersion + ' stays.' : '.'))) return;
      busy(true);
      const result = await sendCommand(id, 'DraftDiscarded', undefined, lifecycleOutcome).catch(() => ({}));
      busy(false);
      if (result.outcome === 'accepted') {
        go(savedVersion ? '#/recipe/' + encodeURIComponent(id) : '#/drafts', 'Draft discarded.');
      }
    } }, 'Discard draft') : null,
    savedVersion ? h('button', { type: 'button', class: 'danger', id: 'delete-recipe', onclick: async () => {
      if (!confirm('Delete “' + recipe.title + '”? It leaves the list; its history stays.')) return;
      busy(true);
      const result = await sendCommand(id, 'RecipeDeleted', undefined, lifecycleOutcome).catch(() => ({}));
      busy(false);
      if (result.outcome === 'accepted') go('#/', 'Deleted “' + recipe.title + '”.');
    } }, 'Delete recipe') : null);

  const rejection = draft && draft.lastRejection;
  return h('section', { class: 'editor' },
    h('h1', {}, (draft && !draft.baseVersion ? 'New recipe: ' : 'Edit: ') + (recipe.title || '(untitled)')),
    h('p', { class: 'badges' },
      draft ? h('span', { class: 'badge draft' }, 'draft, revision ' + draft.revision) : h('span', { class: 'badge' }, 'no draft yet'),
      h('span', { class: 'badge' }, savedVersion ? 'based on version ' + savedVersion : 'never saved')),
    committed ? h('p', { class: 'muted' }, 'This is version ' + committed.version + '. The first change opens a draft of it; ',
                  'the list keeps showing version ' + committed.version + ' until you save.') : null,
    draft && draft.missing.length ? h('p', { class: 'warning', id: 'draft-missing' }, 'A save still needs: ' + draft.missing.join(', ') + '.') : null,
    rejection ? h('p', { class: 'muted', id: 'last-rejection' }, 'Last rejection: ', h('strong', {}, rejection.type),
                  ' (' + rejection.code + '): ' + rejection.message) : null,
    h('h2', {}, 'Basics'), basics,
    h('h2', {}, 'Ingredients'),
    h('ul', { class: 'edit-list', id: 'edit-ingredients' }, ingredients), addIngredient,
    h('h2', {}, 'Method'),
    h('ol', { class: 'edit-list', id: 'edit-steps' }, steps), addStep,
    h('h2', {}, 'Tags'),
    h('ul', { class: 'edit-list', id: 'edit-tags' }, tags), addTag,
    extraFields(recipe, ['id', 'version', 'title', 'servings', 'image', 'guests', 'ingredients', 'instructions', 'tags', 'updatedAt',
                         'savedBy', 'hasDraft', 'revision', 'baseVersion', 'missing', 'lastRejection']),
    h('h2', {}, 'Save'),
    actions, lifecycleOutcome,
    h('p', {}, savedVersion ? h('a', { href: '#/recipe/' + encodeURIComponent(id) }, 'View the saved recipe') : null,
      savedVersion ? ' · ' : '', h('a', { href: '#/history/' + encodeURIComponent(id) }, 'History')));
}

// MARK: - Audit: history, diff, rejections

async function historyPage([id], params) {
  const history = (await api('GET', recipePath(id, '/history'), { read: true })).body;
  let latest = null;
  let why = null;
  try {
    latest = (await api('GET', recipePath(id), { read: true })).body;
  } catch (error) {
    if (!(error instanceof APIError) || ![404, 410].includes(error.status)) throw error;
    why = error.code === 'deleted' ? 'The recipe was deleted; its history stays.' : 'The recipe has no saved version yet.';
  }

  const timeline = h('div', { class: 'table-wrap' }, h('table', { class: 'timeline', id: 'timeline' },
    h('thead', {}, h('tr', {}, ['Position', 'Time', 'Actor', 'Command', 'Outcome', 'Reason'].map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, history.items.map((item) => h('tr', { class: 'outcome-' + item.outcome },
      h('td', { 'data-label': 'Position' }, h('code', {}, item.position)),
      h('td', { 'data-label': 'Time' }, time(item.time)),
      h('td', { 'data-label': 'Actor' }, item.actor || ''),
      h('td', { 'data-label': 'Command' }, item.type || ''),
      h('td', { 'data-label': 'Outcome' }, h('span', { class: 'badge ' + item.outcome }, item.outcome)),
      h('td', { 'data-label': 'Reason' }, item.reason ? item.reason.code + ': ' + item.reason.message : ''))))));

  let compare = h('p', { class: 'muted' }, why || 'Only one version: nothing to compare yet.');
  if (latest && latest.version > 1) {
    const to = clampVersion(params.get('to'), latest.version, latest.version);
    const from = clampVersion(params.get('from'), latest.version, Math.max(1, to - 1));
    const versions = Array.from({ length: latest.version }, (_, index) => index + 1);
    const picker = (pickerID, selected) => h('select', { id: pickerID },
      versions.map((number) => h('option', { value: number, selected: number === selected }, 'version ' + number)));
    const fromPicker = picker('diff-from', from);
    const toPicker = picker('diff-to', to);
    const onchange = () => go(hashWith('/history/' + encodeURIComponent(id), { from: fromPicker.value, to: toPicker.value }));
    fromPicker.addEventListener('change', onchange);
    toPicker.addEventListener('change', onchange);
    const [older, newer] = await Promise.all([from, to].map(async (number) =>
      (await api('GET', recipePath(id), { read: true, query: { version: number } })).body));
    const changes = diffVersions(older, newer);
    compare = h('div', {},
      h('form', { class: 'controls', onsubmit: (event) => event.preventDefault() },
        h('div', {}, h('label', { for: 'diff-from' }, 'From'), fromPicker),
        h('div', {}, h('label', { for: 'diff-to' }, 'To'), toPicker)),
      changes.length === 0 ? h('p', { class: 'muted', id: 'diff' }, 'No differences.') :
        h('ul', { class: 'diff', id: 'diff', 'aria-label': 'Changes from version ' + from + ' to version ' + to },
          changes.map((change) => h('li', { class: 'diff-' + change.kind },
            h('span', { class: 'diff-sign', 'aria-hidden': 'true' }, { added: '+', removed: '−', changed: '~' }[change.kind]),
            h('span', { class: 'visually-hidden' }, change.kind + ': '), change.text))));
  }

  const title = latest ? latest.title : id;
  return h('section', {},
    h('h1', {}, 'History: ' + title),
    h('p', {}, latest ? h('a', { href: '#/recipe/' + encodeURIComponent(id) }, 'View the recipe') : null, latest ? ' · ' : '',
      h('a', { href: '#/edit/' + encodeURIComponent(id) }, 'Edit')),
    h('h2', {}, 'Compare versions'), compare,
    h('h2', {}, 'Every command, in log order'),
    history.items.length ? timeline : h('p', { class: 'empty' }, 'No commands.'));
}

function clampVersion(text, latest, fallback) {
  const number = Number(text);
  return Number.isInteger(number) && number >= 1 && number <= latest ? number : fallback;
}

/// What changed from one version to another, as lines a person reads: computed here from two
/// `?version=` details. Members the console does not know are compared as JSON.
function diffVersions(older, newer) {
  const changes = [];
  const add = (kind, text) => changes.push({ kind, text });
  const quoted = (text) => '“' + text + '”';
  if (older.title !== newer.title) add('changed', 'Title: ' + quoted(older.title) + ' → ' + quoted(newer.title));
  if (older.servings !== newer.servings) add('changed', 'Servings: ' + (older.servings ?? '—') + ' → ' + (newer.servings ?? '—'));
  if (older.image !== newer.image) add('changed', 'Picture: ' + (older.image || 'none') + ' → ' + (newer.image || 'none'));

  const byID = (items) => new Map(items.map((item) => [item.id, item]));
  const oldIngredients = byID(older.ingredients);
  const newIngredients = byID(newer.ingredients);
  const ingredientText = (ingredient) => ingredient.display + ' ' + ingredient.name;
  for (const [ingredientID, before] of oldIngredients) {
    const after = newIngredients.get(ingredientID);
    if (!after) { add('removed', 'Ingredient: ' + ingredientText(before)); continue; }
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      add('changed', 'Ingredient: ' + ingredientText(before) + ' → ' + ingredientText(after));
    }
  }
  for (const [ingredientID, after] of newIngredients) {
    if (!oldIngredients.has(ingredientID)) add('added', 'Ingredient: ' + ingredientText(after));
  }

  const oldSteps = byID(older.instructions);
  const newSteps = byID(newer.instructions);
  for (const [stepID, before] of oldSteps) {
    const after = newSteps.get(stepID);
    if (!after) { add('removed', 'Step ' + before.order + ': ' + before.description); continue; }
    if (before.description !== after.description) {
      add('changed', 'Step ' + after.order + ': ' + quoted(before.description) + ' → ' + quoted(after.description));
    }
    if (before.order !== after.order) add('changed', 'Step moved from ' + before.order + ' to ' + after.order + ': ' + after.description);
  }
  for (const [stepID, after] of newSteps) {
    if (!oldSteps.has(stepID)) add('added', 'Step ' + after.order + ': ' + after.description);
  }

  const byName = (tags) => new Map(tags.map((tag) => [tag.name.toLowerCase(), tag]));
  const oldTags = byName(older.tags);
  const newTags = byName(newer.tags);
  for (const [name, before] of oldTags) {
    const after = newTags.get(name);
    if (!after) add('removed', 'Tag ' + tagText(before));
    else if (tagText(before) !== tagText(after)) add('changed', 'Tag ' + tagText(before) + ' → ' + tagText(after));
  }
  for (const [name, after] of newTags) if (!oldTags.has(name)) add('added', 'Tag ' + tagText(after));

  const known = ['id', 'version', 'title', 'servings', 'image', 'guests', 'ingredients', 'instructions', 'tags', 'updatedAt', 'savedBy', 'hasDraft'];
  const names = new Set([...Object.keys(older), ...Object.keys(newer)].filter((name) => !known.includes(name)));
  for (const name of names) {
    const before = JSON.stringify(older[name]);
    const after = JSON.stringify(newer[name]);
    if (before !== after) add('changed', name + ': ' + (before ?? 'none') + ' → ' + (after ?? 'none'));
  }
  return changes;
}

async function rejectionsPage() {
  const { body } = await api('GET', 'v1/rejections', { read: true, query: { limit: 100 } });
  return h('section', {},
    h('h1', {}, 'Rejections'),
    h('p', { class: 'muted' }, 'The most recent rejected and undecodable records, newest first.'),
    body.items.length === 0 ? h('p', { class: 'empty' }, 'No rejections.') :
      h('div', { class: 'table-wrap' }, h('table', { id: 'rejections' },
        h('thead', {}, h('tr', {}, ['Position', 'Recipe', 'Command', 'Reason', 'Message'].map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, body.items.map((item) => h('tr', {},
          h('td', { 'data-label': 'Position' }, h('code', {}, item.position)),
          h('td', { 'data-label': 'Recipe' }, item.key ? h('a', { href: '#/history/' + encodeURIComponent(item.key) }, item.key) : '—'),
          h('td', { 'data-label': 'Command' }, item.type, item.commandId ? h('div', { class: 'muted small' }, item.commandId) : null),
          h('td', { 'data-label': 'Reason' }, h('code', {}, item.reason.code)),
          h('td', { 'data-label': 'Message' }, item.reason.message)))))));
}

// MARK: - Operations

/// The samples of one metric from Prometheus text: `[{labels: {partition: '0'}, value: 12}]`.
function metricSamples(text, name) {
  const samples = [];
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)$/);
    if (!match || match[1] !== name) continue;
    const labels = {};
    for (const pair of (match[3] || '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ labels, value: Number(match[4]) });
  }
  return samples;
}

async function operationsPage(_, __, count) {
  const probe = async (path) => {
    try {
      const { body } = await api('GET', path);
      return { ok: true, text: body.status || 'ok' };
    } catch (error) {
      if (error instanceof ServiceDown) throw error;
      return { ok: false, text: describe(error) };
    }
  };
  const [ready, health] = [await probe('readyz'), await probe('healthz')];
  const metrics = (await api('GET', 'metrics')).body;
  const positions = metricSamples(metrics, 'recipes_projector_position');
  const lags = new Map(metricSamples(metrics, 'recipes_projector_lag_records').map((sample) => [sample.labels.partition, sample.value]));
  const partitions = [...new Set([...positions.map((sample) => sample.labels.partition), ...lags.keys()])]
    .sort((a, b) => Number(a) - Number(b));
  const positionOf = new Map(positions.map((sample) => [sample.labels.partition, sample.value]));
  const commands = new Map(metricSamples(metrics, 'recipes_projector_commands_total').map((sample) => [sample.labels.outcome, sample.value]));
  const failing = metricSamples(metrics, 'recipes_projector_failing')[0];
  const failures = metricSamples(metrics, 'recipes_projector_failures_total')[0];

  // Kept current while it is on screen: a newer render of any page stops this one.
  setTimeout(() => { if (count === state.renderCount && parseHash().parts[0] === 'operations') refresh(); }, 5000);
  return h('section', {},
    h('h1', {}, 'Operations'),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Readiness'), h('dd', { id: 'readiness', class: ready.ok ? 'ok' : 'error' }, ready.text),
      h('dt', {}, 'Health'), h('dd', { id: 'health', class: health.ok ? 'ok' : 'error' }, health.text),
      h('dt', {}, 'Commands applied since start'),
      h('dd', {}, (commands.get('accepted') ?? 0) + ' accepted, ' + (commands.get('rejected') ?? 0) + ' rejected, ' +
                  (commands.get('duplicate') ?? 0) + ' duplicates'),
      h('dt', {}, 'Projector'),
      h('dd', {}, (failing && failing.value ? 'failing and retrying' : 'running') + ', ' + (failures ? failures.value : 0) + ' failures since start')),
    h('h2', {}, 'Partitions'),
    partitions.length === 0 ? h('p', { class: 'muted' }, 'No positions yet.') :
      h('div', { class: 'table-wrap' }, h('table', { id: 'partitions' },
        headerRow(['Partition', 'Next offset (store)', 'Lag (records)'], ['Partition', 'Next offset (store)', 'Lag (records)']),
        h('tbody', {}, partitions.map((partition) => h('tr', {},
          h('td', { class: 'number', 'data-label': 'Partition' }, partition),
          h('td', { class: 'number', 'data-label': 'Next offset' }, positionOf.get(partition) ?? '—'),
          h('td', { class: 'number', 'data-label': 'Lag' }, lags.get(partition) ?? '—')))))),
    h('p', { class: 'muted' }, 'Refreshed every 5 s from ', h('code', {}, '/metrics'), ' and ', h('code', {}, '/readyz'), '.'),
    h('p', {}, h('a', { href: 'metrics' }, 'Metrics (Prometheus text)'), ' · ', h('a', { href: 'openapi.yaml' }, 'API contract (openapi.yaml)'),
      ' · ', h('a', { href: 'readyz' }, '/readyz'), ' · ', h('a', { href: 'healthz' }, '/healthz')));
}

// MARK: - The token

function showTokenState() {
  document.getElementById('token-state').textContent = token()
    ? 'a token is set, for this browser tab only' : 'no token: kept for this browser tab only';
}

function setUpToken() {
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (value) sessionStorage.setItem(TOKEN_KEY, value); else sessionStorage.removeItem(TOKEN_KEY);
    input.value = '';
    showTokenState();
    notice(value ? 'The token is set for this tab.' : 'No token.');
    refresh();
  });
  document.getElementById('token-forget').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    input.value = '';
    showTokenState();
    notice('The token is forgotten.');
    refresh();
  });
  showTokenState();
}

window.addEventListener('hashchange', () => {
  const pending = state.noticeFor;
  state.noticeFor = null;
  notice(pending && pending.hash === location.hash ? pending.message : '');
  route();
});
window.addEventListener('DOMContentLoaded', () => { setUpToken(); route(); });
