// The Recipe Ledger web console: browse, edit and audit recipes through the HTTP API (/v1).
// Plain JavaScript, no build step, no libraries. Pages are chosen by the URL's #fragment:
//   #/?q=&tag=&cursor=   the list            #/recipe/ID?version=&guests=   one recipe
//   #/new                start a recipe      #/edit/ID                      its editor (every change a command)
//   #/drafts             open drafts         #/history/ID?from=&to=         its timeline and a diff of versions
//   #/rejections         recent rejections   #/operations                   readiness, positions and lag
//   #/import             a schema.org recipe (JSON-LD or HTML) in, as a new recipe
// Nutrition's block and form are in nutrition.js (loaded first).
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

/// The same for a position written `partition:offset` (the import's receipt).
function notePosition(position) {
  const match = /^([0-9]+):([0-9]+)$/.exec(position || '');
  if (match) noteWritten({ partition: Number(match[1]), offset: Number(match[2]) });
}

/// One request; answers `{status, body}` for 2xx, throws APIError for the others and ServiceDown
/// when nothing answers. `read: true` adds `after=` with this tab's writes. While a write is on its
/// way, live updates wait (live.js): the decisions of this tab's own writes are known by their receipts.
async function api(method, path, options = {}) {
  if (method === 'GET') return request(method, path, options);
  live.writing += 1;
  try {
    const answer = await request(method, path, options);
    liveNoteOwn(answer.body);
    return answer;
  } finally {
    live.writing -= 1;
    setTimeout(liveFlush, 0);
  }
}

async function request(method, path, options) {
  const url = new URL(path, document.baseURI);
  const query = Object.assign({}, options.query);
  if (options.read && state.written.size > 0) query.after = afterPositions();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { Accept: 'application/json' };
  if (token()) headers.Authorization = 'Bearer ' + token();
  let body;
  if (options.raw !== undefined) {
    // A document sent as it is (an import): its own media type.
    headers['Content-Type'] = options.raw.type;
    body = options.raw.text;
  } else if (options.body !== undefined) {
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
async function sendCommand(recipeID, type, data, where, expectedRevision) {
  if (where) { where.className = 'outcome'; where.textContent = 'Sending ' + type + '…'; }
  const command = data === undefined ? { type } : { type, data };
  if (expectedRevision !== undefined) command.expectedRevision = expectedRevision;
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
      where.removeAttribute('role');
      where.className = 'outcome';
      where.textContent = type + ' sent at ' + answer.body.position + '; its outcome is not known yet.';
    } else {
      where.removeAttribute('role');
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
  import: importPage,
};

/// Draws the page of the address; false when a later navigation drew another one instead.
async function route() {
  const { parts, params } = parseHash();
  const name = parts[0] || '';
  const page = pages[name];
  const main = document.getElementById('main');
  const count = ++state.renderCount;
  // Subscribed and caught up before the page reads what it shows: a change after that read comes live.
  const follower = followLive(page ? liveScope(name, parts.slice(1), params) : null);
  if (follower) await follower.ready(LIVE_READY_MS);
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
  if (count !== state.renderCount) return false;   // a later navigation won
  const focused = document.activeElement && document.activeElement.id;
  main.replaceChildren(view);
  markShown(main);
  const heading = main.querySelector('h1');
  if (heading) document.title = heading.textContent + ' · Recipe Ledger';
  if (navigated) {
    if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
  } else if (focused && document.getElementById(focused)) {
    document.getElementById(focused).focus();
  }
  return true;
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

// MARK: - Content version 2: amounts, times, sections

/// The members of a recipe (draft or version), an ingredient and a step the console shows and edits;
/// others (fields later API versions add) are shown as they come (`extraFields`).
const RECIPE_FIELDS = ['id', 'version', 'title', 'servings', 'image', 'description', 'yield', 'prepTime', 'cookTime', 'totalTime',
                       'sourceUrl', 'guests', 'units', 'ingredients', 'instructions', 'tags', 'updatedAt', 'savedBy', 'hasDraft',
                       'nutrition'];
const DRAFT_FIELDS = RECIPE_FIELDS.concat(['revision', 'baseVersion', 'missing', 'lastRejection']);
const INGREDIENT_FIELDS = ['id', 'name', 'amount', 'amountMax', 'unit', 'metric', 'note', 'section', 'text', 'display'];
const STEP_FIELDS = ['id', 'order', 'description', 'section'];
/// The recipe's own optional fields, as `DraftContentSet` names them.
const OPTIONAL_FIELDS = ['servings', 'image', 'description', 'yield', 'prepTime', 'cookTime', 'totalTime', 'sourceUrl'];
const TIMES = [['prepTime', 'Preparation'], ['cookTime', 'Cooking'], ['totalTime', 'Total']];

const VULGAR_FRACTIONS = { '½': 1 / 2, '⅓': 1 / 3, '⅔': 2 / 3, '¼': 1 / 4, '¾': 3 / 4, '⅕': 1 / 5, '⅖': 2 / 5, '⅗': 3 / 5,
                           '⅘': 4 / 5, '⅙': 1 / 6, '⅚': 5 / 6, '⅛': 1 / 8, '⅜': 3 / 8, '⅝': 5 / 8, '⅞': 7 / 8 };

/// One number as a cook types it: 250, 0.5, 0,5, 1/2, 1 1/2, ½, 1½; null when it is none.
function numberValue(text) {
  const value = text.trim();
  let match;
  if ((match = /^([0-9]+)?\s*([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])$/.exec(value))) {
    return (match[1] ? Number(match[1]) : 0) + VULGAR_FRACTIONS[match[2]];
  }
  if ((match = /^(?:([0-9]+)\s+)?([0-9]+)\s*[/⁄]\s*([0-9]+)$/.exec(value))) {
    return Number(match[3]) === 0 ? null : (match[1] ? Number(match[1]) : 0) + Number(match[2]) / Number(match[3]);
  }
  if (/^([0-9]+([.,][0-9]*)?|[.,][0-9]+)$/.test(value)) return Number(value.replace(',', '.'));
  return null;
}

/// An amount field: `{}` when empty (no quantity), `{amount}` for one number, `{amount, amountMax}`
/// for a range (2-3, 2–3, 2 to 3); null when it cannot be read. Whether the range goes up, and the
/// limits, are the fold's to judge (its rejection says why).
function amountValue(text) {
  const value = String(text ?? '').trim();
  if (value === '') return {};
  const ends = value.split(/\s*(?:[-–—]|\bto\b)\s*/);
  if (ends.length > 2 || ends.some((end) => end === '')) return null;
  const numbers = ends.map(numberValue);
  if (numbers.some((number) => number === null || !Number.isFinite(number))) return null;
  return numbers.length === 2 && numbers[1] !== numbers[0] ? { amount: numbers[0], amountMax: numbers[1] } : { amount: numbers[0] };
}

/// An ingredient's amount as its field shows it: `2`, `2–3`, or empty.
function amountText(ingredient) {
  if (ingredient.amount === undefined) return '';
  return String(ingredient.amount) + (ingredient.amountMax !== undefined ? '–' + ingredient.amountMax : '');
}

const DURATION_WORDS = [['W', 'wk', /^(w|wk|wks|week|weeks)$/i], ['D', 'd', /^(d|day|days)$/i], ['H', 'h', /^(h|hr|hrs|hour|hours)$/i],
                        ['M', 'min', /^(m|min|mins|minute|minutes)$/i], ['S', 's', /^(s|sec|secs|second|seconds)$/i]];

/// A stored ISO 8601 duration as people read it, part by part as written: PT1H30M → "1 h 30 min",
/// PT90M → "90 min" (so that the field reads back as the same text). Another text is shown as it is.
function durationText(iso) {
  const match = /^P(?:([0-9]+)W)?(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?$/.exec(iso || '');
  if (!match || match.slice(1).every((part) => part === undefined)) return iso || '';
  return match.slice(1).map((part, index) => part === undefined ? null : part + ' ' + DURATION_WORDS[index][1])
    .filter(Boolean).join(' ');
}

/// A time field as the ISO 8601 text the API stores: `PT1H30M` as it is, `1 h 30 min`, `90 min`,
/// `2 hours`, or a bare number of minutes. Text it cannot read is sent as typed: the fold says why not.
function durationValue(text) {
  const value = text.trim();
  if (value === '' || /^p/i.test(value)) return value.toUpperCase();
  if (/^[0-9]+$/.test(value)) return 'PT' + value + 'M';
  const parts = {};
  const words = /([0-9]+)\s*([a-z]+)\.?\s*/giy;
  let match;
  let read = 0;
  while ((match = words.exec(value))) {
    const unit = DURATION_WORDS.find(([, , pattern]) => pattern.test(match[2]));
    if (!unit || parts[unit[0]] !== undefined) return value;
    parts[unit[0]] = match[1];
    read = words.lastIndex;
  }
  if (read !== value.length || Object.keys(parts).length === 0) return value;
  const part = (letter) => parts[letter] !== undefined ? parts[letter] + letter : '';
  const clock = part('H') + part('M') + part('S');
  return 'P' + part('W') + part('D') + (clock ? 'T' + clock : '');
}

/// Items in runs of the same `section`: [{section, items: [{item, index}]}], in order.
function sectionRuns(items) {
  const runs = [];
  items.forEach((item, index) => {
    const last = runs[runs.length - 1];
    if (last && last.section === item.section) last.items.push({ item, index });
    else runs.push({ section: item.section, items: [{ item, index }] });
  });
  return runs;
}

/// Every section heading the recipe uses, for the section fields' suggestions.
function sectionNames(recipe) {
  return [...new Set([...recipe.ingredients, ...recipe.instructions].map((item) => item.section).filter(Boolean))];
}

/// The content of a `DraftContentSet` that keeps everything the recipe has, with its ingredients
/// in `ingredients`' order (their ids kept). Throws when the recipe has members the console does not
/// know: a whole-content command would drop them.
function contentWith(recipe, ingredients) {
  const unknown = [
    ...Object.keys(recipe).filter((name) => !DRAFT_FIELDS.includes(name)),
    ...recipe.ingredients.flatMap((item) => Object.keys(item).filter((name) => !INGREDIENT_FIELDS.includes(name))),
    ...recipe.instructions.flatMap((step) => Object.keys(step).filter((name) => !STEP_FIELDS.includes(name))),
  ];
  if (unknown.length) {
    return 'This recipe has fields the console does not know (' + [...new Set(unknown)].join(', ') +
      '); moving an ingredient rewrites the whole content and would lose them.';
  }
  const data = {
    title: recipe.title || '',
    ingredients: ingredients.map((item) => ({ ingredientId: item.id, name: item.name, amount: item.amount, amountMax: item.amountMax,
                                              unit: item.unit, note: item.note, section: item.section, text: item.text })),
    instructions: recipe.instructions.map((step) => ({ instructionId: step.id, description: step.description, section: step.section })),
    tags: recipe.tags.map(tagText),
  };
  for (const name of OPTIONAL_FIELDS) if (recipe[name] !== undefined) data[name] = recipe[name];
  return data;
}

// MARK: - One recipe

function ingredientItem(ingredient) {
  return h('li', { 'data-ingredient-id': ingredient.id },
    h('span', { class: 'amount' }, ingredient.display), ingredient.display ? ' ' : '',
    h('span', { class: 'name' }, ingredient.name),
    ingredient.note ? [', ', h('span', { class: 'note' }, ingredient.note)] : null,
    extraFields(ingredient, INGREDIENT_FIELDS));
}

/// The ingredients under their section headings (a run of lines without one has no heading).
function ingredientGroups(ingredients) {
  return sectionRuns(ingredients).map((run) => [
    run.section ? h('h3', { class: 'section' }, run.section) : null,
    h('ul', { class: 'ingredients' }, run.items.map(({ item }) => ingredientItem(item)))]);
}

function methodGroups(instructions) {
  return sectionRuns(instructions).map((run) => [
    run.section ? h('h3', { class: 'section' }, run.section) : null,
    h('ol', { class: 'method', start: run.items[0].item.order },
      run.items.map(({ item }) => h('li', { 'data-instruction-id': item.id }, item.description, extraFields(item, STEP_FIELDS))))]);
}

async function detailPage([id], params) {
  const version = params.get('version') || '';
  const guestsParam = params.get('guests') || '';
  const latest = (await api('GET', recipePath(id), { read: true })).body;
  const recipe = version || guestsParam
    ? (await api('GET', recipePath(id), { read: true, query: { version, guests: guestsParam } })).body
    : latest;

  const list = h('div', { class: 'ingredient-groups', id: 'ingredients' }, ingredientGroups(recipe.ingredients));
  const nutrition = h('section', { class: 'nutrition-block', id: 'nutrition-block' }, nutritionParts(recipe.nutrition, recipe.guests));
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
      list.replaceChildren(...ingredientGroups(scaled.ingredients).flat().filter(Boolean));
      nutrition.replaceChildren(...nutritionParts(scaled.nutrition, scaled.guests));
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

  const fact = (name, label, value) => value === undefined || value === null || value === '' ? null
    : [h('dt', {}, label), h('dd', { id: name }, value)];
  const deleteOutcome = h('p', { class: 'outcome', 'aria-live': 'polite' });
  return h('article', { class: 'recipe' },
    h('h1', {}, recipe.title || '(untitled)'),
    h('p', { class: 'badges' },
      h('span', { class: 'badge', id: 'recipe-version' }, 'version ' + recipe.version + ' of ' + latest.version),
      latest.hasDraft ? h('a', { class: 'badge draft', id: 'has-draft', href: '#/edit/' + encodeURIComponent(id) }, 'has draft') : null),
    recipe.description ? h('p', { class: 'description', id: 'description' }, recipe.description) : null,
    h('dl', { class: 'facts' },
      h('dt', {}, 'Servings'), h('dd', { id: 'servings' }, recipe.servings ?? '—'),
      fact('yield', 'Makes', recipe.yield),
      TIMES.map(([name, label]) => fact(name, label + ' time', recipe[name] && h('time', { datetime: recipe[name] }, durationText(recipe[name])))),
      fact('source', 'Source', recipe.sourceUrl && h('a', { href: recipe.sourceUrl, rel: 'noreferrer' }, recipe.sourceUrl)),
      h('dt', {}, 'Saved by'), h('dd', {}, recipe.savedBy),
      h('dt', {}, 'Saved'), h('dd', {}, time(recipe.updatedAt)),
      fact('picture', 'Picture', recipe.image && h('a', { href: recipe.image, rel: 'noreferrer' }, recipe.image))),
    h('form', { class: 'controls', onsubmit: (event) => event.preventDefault() },
      h('div', {}, h('label', { for: 'guests' }, 'Guests'), guests),
      h('div', {}, h('label', { for: 'version-picker' }, 'Version'), picker)),
    guestsMessage,
    h('h2', {}, 'Ingredients'),
    recipe.ingredients.length ? list : h('p', { class: 'muted' }, 'No ingredients.'),
    h('h2', {}, 'Method'),
    recipe.instructions.length ? h('div', { id: 'method' }, methodGroups(recipe.instructions)) : h('p', { class: 'muted' }, 'No steps.'),
    nutrition,
    h('h2', {}, 'Tags'), tagList(recipe.tags, true),
    extraFields(recipe, RECIPE_FIELDS),
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
  const outcome = h('p', { class: 'outcome', id: 'start-outcome', 'aria-live': 'polite' });
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
    start, outcome,
    h('p', {}, 'Or ', h('a', { href: '#/import' }, 'import one'), ' from a web page (schema.org JSON-LD or HTML).'));
}

// MARK: - Import

function counted(number, noun) {
  return number + ' ' + noun + (number === 1 ? '' : 's');
}

/// The media type of a document to import: HTML when it starts with "<", else JSON-LD.
function documentType(text) {
  return /^\uFEFF?\s*</.test(text) ? 'text/html' : 'application/ld+json';
}

async function importPage() {
  const text = h('textarea', { id: 'import-text', rows: 12, spellcheck: 'false', 'aria-describedby': 'import-help',
                               placeholder: '{"@context": "https://schema.org", "@type": "Recipe", "name": …}' });
  const file = h('input', { id: 'import-file', type: 'file', accept: '.json,.jsonld,.html,.htm,application/ld+json,application/json,text/html' });
  const save = h('input', { id: 'import-save', type: 'checkbox' });
  const outcome = h('div', { id: 'import-result', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', id: 'import-submit' }, 'Import');
  const show = (...children) => outcome.replaceChildren(...children.flat().filter(Boolean));
  // A chosen file is read into the field: what is sent is what the page shows.
  file.addEventListener('change', async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    try {
      text.value = await chosen.text();
      show(h('p', { class: 'outcome', id: 'import-file-read' }, 'Read ' + chosen.name + ' (' + text.value.length + ' characters), sent as ' +
             documentType(text.value) + '.'));
    } catch (error) {
      show(errorBox(error, 'Cannot read ' + chosen.name));
    }
  });

  const form = h('form', { class: 'import', id: 'import-form', 'aria-label': 'Import a recipe', onsubmit: async (event) => {
    event.preventDefault();
    const body = text.value;
    if (body.trim() === '') { show(h('p', { class: 'error', role: 'alert' }, 'Paste a document or choose a file first.')); return; }
    const type = documentType(body);
    submit.disabled = true;
    show(h('p', { class: 'outcome' }, 'Importing (' + type + ')…'));
    let receipt;
    try {
      receipt = (await api('POST', 'v1/import', { query: { save: save.checked ? 'true' : undefined }, raw: { type, text: body } })).body;
    } catch (error) {
      show(h('div', { class: 'error', role: 'alert', id: 'import-error' }, 'Not imported. ', describe(error)));
      submit.disabled = false;
      return;
    }
    notePosition(receipt.position);
    notePosition(receipt.savedPosition);
    try {
      show(await importResult(receipt));
    } catch (error) {
      show(h('div', { class: 'error', role: 'alert', id: 'import-error' }, 'Appended as recipe ' + receipt.recipeId +
             ' at ' + receipt.position + ', but it cannot be shown: ', describe(error)));
    }
    submit.disabled = false;
  } },
    field('import-text', 'A schema.org Recipe: JSON-LD, or the HTML of a page holding one', text, 'full'),
    field('import-file', 'Or a file (.json, .jsonld, .html)', file),
    h('div', { class: 'check' }, save, h('label', { for: 'import-save' }, 'Save it at once (a new version 1), not only as a draft')),
    h('p', { id: 'import-help', class: 'help' }, 'The import is one DraftContentSet command of a new recipe (',
      h('code', {}, 'POST /v1/import'), '); the rules are in docs/schema-org.md. What the recipe cannot hold is listed after.'),
    h('div', { class: 'buttons' }, submit));
  return h('section', {},
    h('h1', {}, 'Import a recipe'),
    h('p', {}, 'Paste a recipe as a web page publishes it (schema.org JSON-LD, or the whole HTML page), or choose a saved file.'),
    form, outcome);
}

/// What became of an import: the saved recipe, or its draft (and why it was not saved). With
/// "Save it at once" the receipt already says the save's outcome (the server waited for it);
/// the recipe or draft is then read (after=) to show it.
async function importResult(receipt) {
  const id = receipt.recipeId;
  const sources = receipt.sources || {};
  const guessed = [['title', sources.title], ['ingredients', sources.ingredients], ['steps', sources.instructions]]
    .filter(([, source]) => source === 'markup').map(([part]) => part);
  const check = guessed.length
    ? [h('p', { class: 'warning', id: 'import-guessed' }, 'Read from the page’s own markup, not its structured data: check the ' +
        guessed.join(', ') + ' before relying on them.')]
    : [];
  const omissions = check.concat(receipt.omissions.length
    ? [h('p', {}, 'Cut or left out of the document:'), h('ul', { id: 'import-omissions' }, receipt.omissions.map((text) => h('li', {}, text)))]
    : [h('p', { class: 'muted' }, 'Nothing in the document was cut or left out.')]);
  const positions = h('p', { class: 'muted small' }, 'Content at ', h('code', {}, receipt.position),
    receipt.savedPosition ? [', save at ', h('code', {}, receipt.savedPosition)] : null, '.');
  const save = receipt.save;
  if (save && save.outcome === 'accepted') {
    const recipe = (await api('GET', recipePath(id), { read: true })).body;
    return [h('p', { class: 'ok', id: 'import-done' }, 'Imported and saved “' + recipe.title + '” as version ' + recipe.version + ' (',
              counted(recipe.ingredients.length, 'ingredient'), ', ', counted(recipe.instructions.length, 'step'), ').'),
            h('p', {}, h('a', { href: '#/recipe/' + encodeURIComponent(id), id: 'import-link', class: 'button' }, 'Open “' + recipe.title + '”'),
              ' ', h('a', { href: '#/edit/' + encodeURIComponent(id), class: 'button secondary' }, 'Edit it')),
            ...omissions, positions];
  }
  if (receipt.outcome === 'rejected') {
    return [h('p', { class: 'error', role: 'alert', id: 'import-done' }, 'The import was appended but rejected',
              receipt.reason ? ' (' + receipt.reason.code + '): ' + receipt.reason.message : '.'), ...omissions, positions];
  }
  const draft = (await api('GET', recipePath(id, '/draft'), { read: true })).body;
  const notSaved = save && save.reason;
  const pending = save && !save.outcome;
  return [h('p', { class: notSaved ? 'error' : 'ok', id: 'import-done', role: notSaved ? 'alert' : null },
            'Imported “' + (draft.title || '(untitled)') + '” as a draft.',
            notSaved ? ' It was not saved (' + save.reason.code + '): ' + save.reason.message : '',
            pending ? ' Its save was appended; the read side has not folded it yet.' : ''),
          h('p', {}, h('a', { href: '#/edit/' + encodeURIComponent(id), id: 'import-link', class: 'button' }, 'Open the draft in the editor')),
          ...omissions, positions];
}

// MARK: - The editor

/// A small form whose submit sends one command: Enter in any of its fields submits it.
/// `command()` answers [type, data] (or [type, data, expectedRevision]), or a string to show instead of sending.
/// `focusAfter(which)` names the control to focus once the change is drawn (a moved line's button), else
/// the focus stays on the control of the same id.
function commandForm(recipeID, { id, label, fields, buttons, command, className, focusAfter }) {
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
    const [type, data, expectedRevision] = made;
    notice('');
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    let result;
    try {
      result = await sendCommand(recipeID, type, data, outcome, expectedRevision);
    } catch (error) {
      result = { outcome: 'failed' };
    }
    for (const button of form.querySelectorAll('button')) button.disabled = false;
    if (result.outcome === 'accepted' || result.outcome === 'duplicate' || result.outcome === 'unknown') {
      // Announced once the editor shows the change.
      await refresh();
      notice(type + ' ' + (result.outcome === 'unknown' ? 'sent' : result.outcome) + '.');
      const next = focusAfter && focusAfter(submitter && submitter.value);
      if (next) focusFirst(next);
    }
  });
  return form;
}

/// Focuses the first of these ids that is on the page.
function focusFirst(ids) {
  const element = ids.map((name) => document.getElementById(name)).find((found) => found && !found.hidden);
  if (element) element.focus();
}

/// Where the focus goes after Move up/Move down on line `index` of `prefix` (ing-, step-): with the line.
function followMove(prefix, index) {
  return (which) => {
    if (which !== 'up' && which !== 'down') return null;
    const moved = prefix + (which === 'up' ? index - 1 : index + 1);
    return [moved + '-' + which, moved + '-' + (which === 'up' ? 'down' : 'up'), moved + '-update'];
  };
}

function field(id, label, input, className) {
  return h('div', { class: 'field' + (className ? ' ' + className : '') }, h('label', { for: id }, label), input);
}

const AMOUNT_ERROR = 'The amount must be a number or a range, e.g. 250, 0.5, 1 ½ or 2–3 (empty for none).';

/// An optional text field's change for an update: absent when it is as it was, null when emptied.
function textChange(data, name, input, was) {
  const value = input.value.trim();
  if (value !== (was ?? '')) data[name] = value === '' ? null : value;
}

/// The six fields of an ingredient line, `key`-amount … `key`-text; `ingredient` fills them.
function ingredientInputs(key, ingredient) {
  const input = (name, attributes) => h('input', Object.assign({ id: key + '-' + name, type: 'text' }, attributes));
  return {
    amount: input('amount', { inputmode: 'decimal', value: amountText(ingredient), placeholder: ingredient.id ? null : '2–3',
                              'aria-describedby': 'amount-help' }),
    unit: input('unit', { value: ingredient.unit || '', maxlength: 200, placeholder: ingredient.id ? null : 'clove' }),
    name: input('name', { value: ingredient.name || '', maxlength: 200, placeholder: ingredient.id ? null : 'garlic' }),
    note: input('note', { value: ingredient.note || '', maxlength: 500, placeholder: ingredient.id ? null : 'finely chopped' }),
    section: input('section', { value: ingredient.section || '', maxlength: 200, list: 'section-names',
                                placeholder: ingredient.id ? null : 'For the sauce' }),
    text: input('text', { value: ingredient.text || '', maxlength: 1000, 'aria-describedby': 'text-help' }),
  };
}

function ingredientFieldRow(key, inputs) {
  return [field(key + '-amount', 'Amount', inputs.amount, 'narrow'), field(key + '-unit', 'Unit', inputs.unit, 'narrow'),
          field(key + '-name', 'Name', inputs.name, 'wide'), field(key + '-note', 'Note', inputs.note, 'wide'),
          field(key + '-section', 'Section', inputs.section, 'medium'), field(key + '-text', 'As written', inputs.text, 'wide')];
}

/// A line ending in ":" ("For the sauce:") heads the lines after it, as a cookbook writes it.
function pastedLines(text, section) {
  const entries = [];
  let heading = section.trim() || undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^[^0-9½⅓⅔¼¾⅛].*:$/.test(line) && line.length <= 201) { heading = line.slice(0, -1).trim() || heading; continue; }
    entries.push({ line, section: heading });
  }
  return entries;
}

/// "Paste several lines": `POST /v1/parse/ingredients` reads them, the console shows what they say,
/// then sends one `IngredientAdded` per line, each with the line as written (`text`).
function pasteForm(recipeID) {
  const kept = state.paste && state.paste.recipeID === recipeID ? state.paste : null;
  state.paste = null;
  const lines = h('textarea', { id: 'paste-lines', rows: 4, spellcheck: 'false', 'aria-describedby': 'paste-help',
                                placeholder: '2-3 cloves garlic, finely chopped\nFor the sauce:\n400 g tomatoes\nSalt, to taste' });
  lines.value = kept ? kept.text : '';
  const section = h('input', { id: 'paste-section', type: 'text', maxlength: 200, list: 'section-names' });
  const outcome = h('p', { class: 'outcome', id: 'paste-outcome', 'aria-live': 'polite' });
  const preview = h('div', { id: 'paste-preview' });
  const add = h('button', { type: 'button', id: 'paste-add', hidden: true }, 'Add them');
  let entries = [];
  const fail = (text) => { outcome.className = 'outcome error'; outcome.textContent = text; };

  const form = h('form', { class: 'command paste', id: 'form-paste', 'aria-label': 'Paste ingredient lines', onsubmit: async (event) => {
    event.preventDefault();
    entries = pastedLines(lines.value, section.value);
    preview.replaceChildren();
    add.hidden = true;
    if (entries.length === 0) { fail('Paste one ingredient a line first.'); return; }
    outcome.className = 'outcome';
    outcome.textContent = 'Reading ' + entries.length + ' lines…';
    let parsed;
    try {
      parsed = (await api('POST', 'v1/parse/ingredients', { body: { lines: entries.map((entry) => entry.line) } })).body.items;
    } catch (error) {
      fail(describe(error));
      return;
    }
    entries.forEach((entry, index) => { entry.item = parsed[index]; entry.outcome = h('td', { 'data-label': 'Outcome' }); });
    outcome.textContent = 'The lines read as below: check them, then add them.';
    preview.replaceChildren(h('div', { class: 'table-wrap' }, h('table', { id: 'paste-table' },
      h('caption', {}, 'What the pasted lines say'),
      headerRow(['Line', 'Amount', 'Unit', 'Name', 'Note', 'Section', 'Outcome']),
      h('tbody', {}, entries.map(({ line, item, section: heading, outcome: cell }) => h('tr', {},
        h('td', { 'data-label': 'Line' }, line),
        h('td', { 'data-label': 'Amount' }, amountText(item) || '—'),
        h('td', { 'data-label': 'Unit' }, item.unit || '—'),
        h('td', { 'data-label': 'Name' }, item.name),
        h('td', { 'data-label': 'Note' }, item.note || '—'),
        h('td', { 'data-label': 'Section' }, heading || '—'),
        cell))))));
    add.textContent = 'Add ' + entries.length + (entries.length === 1 ? ' ingredient' : ' ingredients');
    add.hidden = false;
    add.focus();
  } },
    field('paste-lines', 'Paste ingredient lines, one a line', lines, 'full'),
    field('paste-section', 'Section for them (optional)', section, 'medium'),
    h('p', { id: 'paste-help', class: 'help' }, 'Read as the import reads them. A line ending in “:” (For the sauce:) is ',
      'the section of the lines after it. Each line becomes one IngredientAdded, keeping the line as written.'),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'paste-read', class: 'secondary' }, 'Read the lines'), add),
    outcome, preview,
    kept ? h('ul', { class: 'outcomes', id: 'paste-results', 'aria-label': 'What became of the pasted lines' },
      kept.results.map((result) => h('li', { class: result.ok ? 'ok' : 'error' }, '“' + result.line + '”: ' + result.text))) : null);

  add.addEventListener('click', async () => {
    add.disabled = true;
    notice('');
    const results = [];
    const left = [];
    let added = 0;
    for (const [index, entry] of entries.entries()) {
      const { item } = entry;
      const data = { name: item.name, text: item.text };
      for (const name of ['amount', 'amountMax', 'unit', 'note']) if (item[name] !== undefined) data[name] = item[name];
      if (entry.section) data.section = entry.section;
      try {
        const { outcome: decided, receipt } = await sendCommand(recipeID, 'IngredientAdded', data, entry.outcome);
        const ok = decided !== 'rejected';
        if (ok) added += 1; else left.push(entry.line);
        results.push({ line: entry.line, ok, text: ok ? 'IngredientAdded ' + decided + '.'
                                                     : 'Rejected (' + receipt.reason.code + '): ' + receipt.reason.message });
      } catch (error) {
        // Nothing more is sent: the lines from this one on stay in the field.
        left.push(...entries.slice(index).map((rest) => rest.line));
        results.push({ line: entry.line, ok: false, text: describe(error) });
        break;
      }
    }
    add.disabled = false;
    if (added === 0) { fail('No line was added; see each line’s outcome.'); return; }
    state.paste = { recipeID, text: left.join('\n'), results };
    await refresh();
    notice('Added ' + added + ' of ' + entries.length + ' pasted ingredients' + (left.length ? '; the others stay in the field.' : '.'));
    focusFirst(['paste-lines']);
  });
  return form;
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
  // A whole-content command (moving an ingredient) is sent for the revision shown: a change made
  // meanwhile elsewhere rejects it (`conflict`) instead of being lost.
  const revision = draft ? draft.revision : undefined;

  const title = h('input', { id: 'edit-title', type: 'text', value: recipe.title, maxlength: 200, required: true });
  const servings = h('input', { id: 'edit-servings', type: 'number', min: 1, max: 100, step: 1, value: recipe.servings ?? '' });
  const image = h('input', { id: 'edit-image', type: 'url', value: recipe.image || '', placeholder: 'https://…' });
  const description = h('textarea', { id: 'edit-description', rows: 3, maxlength: 5000 });
  description.value = recipe.description || '';
  const yieldInput = h('input', { id: 'edit-yield', type: 'text', value: recipe.yield || '', maxlength: 200, placeholder: '12 muffins' });
  const source = h('input', { id: 'edit-source', type: 'url', value: recipe.sourceUrl || '', placeholder: 'https://…' });
  const times = Object.fromEntries(TIMES.map(([name]) => [name, h('input', { id: 'edit-' + name, type: 'text', maxlength: 32,
    value: durationText(recipe[name]), placeholder: name === 'prepTime' ? '15 min' : name === 'cookTime' ? '1 h 30 min' : '',
    'aria-describedby': 'times-help' })]));
  // Set, or remove when the field is emptied (or its Remove button is used).
  const setOrRemove = (type, member, input, was, what) => (which) => {
    const value = input.value.trim();
    if (which === 'remove' || value === '') return was === undefined ? 'There is no ' + what + ' to remove.' : [type, { [member]: null }];
    return value === was ? 'Nothing to change: edit the ' + what + ' first.' : [type, { [member]: value }];
  };
  const removeButton = (was, what) => was !== undefined
    ? h('button', { type: 'submit', value: 'remove', class: 'secondary', 'aria-label': 'Remove the ' + what }, 'Remove') : null;

  const basics = [
    commandForm(id, { id: 'form-title', label: 'Title', fields: field('edit-title', 'Title', title, 'wide'),
      buttons: h('button', { type: 'submit' }, 'Set title'),
      command: () => ['TitleChanged', { title: title.value }] }),
    commandForm(id, { id: 'form-servings', label: 'Servings', fields: field('edit-servings', 'Servings', servings),
      buttons: h('button', { type: 'submit' }, 'Set servings'),
      command: () => /^[0-9]+$/.test(servings.value.trim()) ? ['ServingsChanged', { servings: Number(servings.value) }]
                                                             : 'Servings must be a whole number from 1 to 100.' }),
    commandForm(id, { id: 'form-yield', label: 'What it makes', className: 'row',
      fields: field('edit-yield', 'Makes (beside servings)', yieldInput, 'wide'),
      buttons: [h('button', { type: 'submit', value: 'set' }, 'Set'), removeButton(recipe.yield, 'yield')],
      command: setOrRemove('YieldChanged', 'yield', yieldInput, recipe.yield, 'yield') }),
    commandForm(id, { id: 'form-description', label: 'Description', className: 'row step',
      fields: field('edit-description', 'Description', description, 'full'),
      buttons: [h('button', { type: 'submit', value: 'set' }, 'Set description'), removeButton(recipe.description, 'description')],
      command: setOrRemove('DescriptionChanged', 'description', description, recipe.description, 'description') }),
    commandForm(id, { id: 'form-times', label: 'Times', className: 'row',
      fields: [...TIMES.map(([name, label]) => field('edit-' + name, label + ' time', times[name], 'medium')),
               h('p', { id: 'times-help', class: 'help' }, 'Like 45 min, 1 h 30 min, 2 d, or ISO 8601 (PT1H30M), which is how ',
                 'they are kept. An emptied field removes that time.')],
      buttons: h('button', { type: 'submit' }, 'Set times'),
      command: () => {
        const data = {};
        for (const [name] of TIMES) {
          const value = durationValue(times[name].value);
          if (value !== (recipe[name] || '')) data[name] = value === '' ? null : value;
        }
        return Object.keys(data).length ? ['TimesChanged', data] : 'Nothing to change: edit a time first.';
      } }),
    commandForm(id, { id: 'form-source', label: 'Source', className: 'row',
      fields: field('edit-source', 'Source URL (where it comes from)', source, 'wide'),
      buttons: [h('button', { type: 'submit', value: 'set' }, 'Set source'), removeButton(recipe.sourceUrl, 'source')],
      command: setOrRemove('SourceChanged', 'url', source, recipe.sourceUrl, 'source URL') }),
    commandForm(id, { id: 'form-image', label: 'Picture', className: 'row', fields: field('edit-image', 'Picture URL', image, 'wide'),
      buttons: [h('button', { type: 'submit', value: 'set' }, 'Set picture'),
                recipe.image ? h('button', { type: 'submit', value: 'remove', class: 'secondary' }, 'Remove picture') : null],
      command: (which) => which === 'remove' ? ['ImageChanged', { url: null }] : ['ImageChanged', { url: image.value.trim() }] }),
  ];

  const count = recipe.ingredients.length;
  const ingredients = recipe.ingredients.map((ingredient, index) => {
    const key = 'ing-' + index;
    const inputs = ingredientInputs(key, ingredient);
    const previous = recipe.ingredients[index - 1];
    const label = ingredient.name || 'ingredient ' + (index + 1);
    return h('li', { 'data-ingredient-id': ingredient.id },
      ingredient.section && (!previous || previous.section !== ingredient.section) ? h('h3', { class: 'section' }, ingredient.section) : null,
      commandForm(id, {
        id: key, label: 'Ingredient ' + (index + 1), className: 'row ingredient', focusAfter: followMove('ing-', index),
        fields: [ingredientFieldRow(key, inputs), extraFields(ingredient, INGREDIENT_FIELDS)],
        buttons: [h('button', { type: 'submit', value: 'update' }, 'Update'),
                  index > 0 ? h('button', { type: 'submit', value: 'up', class: 'secondary', 'aria-label': 'Move ' + label + ' up' }, 'Move up') : null,
                  index < count - 1 ? h('button', { type: 'submit', value: 'down', class: 'secondary', 'aria-label': 'Move ' + label + ' down' }, 'Move down') : null,
                  h('button', { type: 'submit', value: 'remove', class: 'secondary', 'aria-label': 'Remove ' + label }, 'Remove')],
        command: (which) => {
          if (which === 'remove') return ['IngredientRemoved', { ingredientId: ingredient.id }];
          if (which === 'up' || which === 'down') {
            // There is no command that moves one ingredient: the whole content is set in the new order, ids kept.
            const order = recipe.ingredients.slice();
            const other = which === 'up' ? index - 1 : index + 1;
            [order[index], order[other]] = [order[other], order[index]];
            const content = contentWith(recipe, order);
            return typeof content === 'string' ? content : ['DraftContentSet', content, revision];
          }
          const data = { ingredientId: ingredient.id };
          const value = amountValue(inputs.amount.value);
          if (value === null) return AMOUNT_ERROR;
          if (value.amount !== ingredient.amount) data.amount = value.amount ?? null;
          if (value.amountMax !== ingredient.amountMax) data.amountMax = value.amountMax ?? null;
          if (inputs.name.value.trim() !== ingredient.name) data.name = inputs.name.value.trim();
          for (const name of ['unit', 'note', 'section', 'text']) textChange(data, name, inputs[name], ingredient[name]);
          return Object.keys(data).length > 1 ? ['IngredientUpdated', data] : 'Nothing to update: change a field first.';
        } }));
  });
  const fresh = ingredientInputs('new-ingredient', {});
  const addIngredient = commandForm(id, { id: 'form-new-ingredient', label: 'New ingredient', className: 'row ingredient new',
    fields: ingredientFieldRow('new-ingredient', fresh),
    buttons: h('button', { type: 'submit' }, 'Add ingredient'),
    command: () => {
      const value = amountValue(fresh.amount.value);
      if (value === null) return AMOUNT_ERROR;
      const data = Object.assign({ name: fresh.name.value.trim() }, value);
      for (const name of ['unit', 'note', 'section', 'text']) if (fresh[name].value.trim()) data[name] = fresh[name].value.trim();
      return ['IngredientAdded', data];
    } });

  const steps = recipe.instructions.map((step, index) => {
    const key = 'step-' + index;
    const text = h('textarea', { id: key + '-text', rows: 2, maxlength: 5000 });
    text.value = step.description;
    const section = h('input', { id: key + '-section', type: 'text', maxlength: 200, list: 'section-names', value: step.section || '' });
    const stepCount = recipe.instructions.length;
    const previous = recipe.instructions[index - 1];
    return h('li', { 'data-instruction-id': step.id },
      step.section && (!previous || previous.section !== step.section) ? h('h3', { class: 'section' }, step.section) : null,
      commandForm(id, {
        id: key, label: 'Step ' + step.order, className: 'row step', focusAfter: followMove('step-', index),
        fields: [field(key + '-text', 'Step ' + step.order, text, 'full'), field(key + '-section', 'Section', section, 'medium'),
                 extraFields(step, STEP_FIELDS)],
        buttons: [h('button', { type: 'submit', value: 'update' }, 'Update'),
                  index > 0 ? h('button', { type: 'submit', value: 'up', class: 'secondary', 'aria-label': 'Move step ' + step.order + ' up' }, 'Move up') : null,
                  index < stepCount - 1 ? h('button', { type: 'submit', value: 'down', class: 'secondary', 'aria-label': 'Move step ' + step.order + ' down' }, 'Move down') : null,
                  h('button', { type: 'submit', value: 'remove', class: 'secondary', 'aria-label': 'Remove step ' + step.order }, 'Remove')],
        command: (which) => {
          if (which === 'remove') return ['InstructionRemoved', { instructionId: step.id }];
          if (which === 'up') return ['InstructionMoved', { instructionId: step.id, position: step.order - 1 }];
          if (which === 'down') return ['InstructionMoved', { instructionId: step.id, position: step.order + 1 }];
          const data = { instructionId: step.id };
          if (text.value !== step.description) data.description = text.value;
          textChange(data, 'section', section, step.section);
          return Object.keys(data).length > 1 ? ['InstructionUpdated', data] : 'Nothing to update: change the text or the section first.';
        } }));
  });
  const newStep = h('textarea', { id: 'new-step-text', rows: 2, maxlength: 5000, placeholder: 'What to do next' });
  const newStepSection = h('input', { id: 'new-step-section', type: 'text', maxlength: 200, list: 'section-names' });
  const addStep = commandForm(id, { id: 'form-new-step', label: 'New step', className: 'row step new',
    fields: [field('new-step-text', 'New step', newStep, 'full'), field('new-step-section', 'Section', newStepSection, 'medium')],
    buttons: h('button', { type: 'submit' }, 'Add step'),
    command: () => ['InstructionAdded', Object.assign({ description: newStep.value },
                                                      newStepSection.value.trim() ? { section: newStepSection.value.trim() } : {})] });

  const tags = recipe.tags.map((tag, index) => {
    const key = 'tag-' + index;
    const text = h('input', { id: key + '-text', type: 'text', value: tagText(tag), maxlength: 2048, spellcheck: 'false' });
    return h('li', {}, commandForm(id, { id: key, label: 'Tag ' + tagText(tag), className: 'row',
      fields: field(key + '-text', 'Tag', text, 'wide'),
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
    fields: [field('new-tag-text', 'New tag', newTag, 'wide'),
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
    h('datalist', { id: 'section-names' }, sectionNames(recipe).map((name) => h('option', { value: name }))),
    h('h2', {}, 'About it'), basics,
    h('h2', {}, 'Nutrition'), nutritionForm(id, recipe),
    h('h2', {}, 'Ingredients'),
    h('p', { id: 'amount-help', class: 'help' }, 'Amount: a number (250, 0.5, 1 ½) or a range (2–3); empty for none (salt, to taste). ',
      'An emptied field removes what it held. Lines of the same section stand together under its heading.'),
    h('p', { id: 'text-help', class: 'visually-hidden' }, 'The line as written, kept for display and export.'),
    h('ul', { class: 'edit-list', id: 'edit-ingredients' }, ingredients), addIngredient,
    pasteForm(id),
    h('h2', {}, 'Method'),
    h('ol', { class: 'edit-list', id: 'edit-steps' }, steps), addStep,
    h('h2', {}, 'Tags'),
    h('ul', { class: 'edit-list', id: 'edit-tags' }, tags), addTag,
    extraFields(recipe, DRAFT_FIELDS),
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
  const optional = (text, show = quoted) => text === undefined ? 'none' : show(text);
  if (older.description !== newer.description) {
    add('changed', 'Description: ' + optional(older.description) + ' → ' + optional(newer.description));
  }
  if (older.yield !== newer.yield) add('changed', 'Makes: ' + optional(older.yield) + ' → ' + optional(newer.yield));
  for (const [name, label] of TIMES) {
    if (older[name] !== newer[name]) {
      add('changed', label + ' time: ' + optional(older[name], durationText) + ' → ' + optional(newer[name], durationText));
    }
  }
  if (older.sourceUrl !== newer.sourceUrl) add('changed', 'Source: ' + optional(older.sourceUrl, String) + ' → ' + optional(newer.sourceUrl, String));
  const nutritionChange = nutritionDiffText(older.nutrition, newer.nutrition);
  if (nutritionChange) add('changed', nutritionChange);

  const byID = (items) => new Map(items.map((item) => [item.id, item]));
  const oldIngredients = byID(older.ingredients);
  const newIngredients = byID(newer.ingredients);
  const ingredientText = (ingredient) => (ingredient.display ? ingredient.display + ' ' : '') + ingredient.name +
    (ingredient.note ? ', ' + ingredient.note : '') + (ingredient.section ? ' (in ' + quoted(ingredient.section) + ')' : '');
  for (const [ingredientID, before] of oldIngredients) {
    const after = newIngredients.get(ingredientID);
    if (!after) { add('removed', 'Ingredient: ' + ingredientText(before)); continue; }
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      const was = ingredientText(before);
      const is = ingredientText(after);
      add('changed', 'Ingredient: ' + was + ' → ' + (is === was ? is + ' (as written: ' + optional(before.text) + ' → ' +
                                                                     optional(after.text) + ')' : is));
    }
  }
  for (const [ingredientID, after] of newIngredients) {
    if (!oldIngredients.has(ingredientID)) add('added', 'Ingredient: ' + ingredientText(after));
  }
  const order = (items, from) => items.filter((item) => from.has(item.id)).map((item) => item.id).join('\u0000');
  if (order(older.ingredients, newIngredients) !== order(newer.ingredients, oldIngredients)) {
    add('changed', 'Ingredients in a new order: ' + newer.ingredients.map((item) => item.name).join(', '));
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
    if (before.section !== after.section) {
      add('changed', 'Step ' + after.order + ' section: ' + optional(before.section) + ' → ' + optional(after.section));
    }
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

  const names = new Set([...Object.keys(older), ...Object.keys(newer)].filter((name) => !RECIPE_FIELDS.includes(name)));
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
    stopLive();
    refresh();
  });
  document.getElementById('token-forget').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    input.value = '';
    showTokenState();
    notice('The token is forgotten.');
    stopLive();
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
