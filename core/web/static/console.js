// @ts-check
// The operator console: /console. Calls /console/api/ with the session cookie; every change sends the
// session's CSRF token in x-csrf-token. Text from the service is always set as text.
import { callApi } from './api-client.js';
import { byId, el, say } from './dom.js';
import { splitList } from './form-values.js';

const REFRESH_MS = 15_000;
const alertRegion = byId('console-error');
const statusRegion = byId('console-status');
/** @type {string | null} */
let csrfToken = null;

/**
 * The pages' API client with the session cookie, and the CSRF token on every change.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<{ ok: boolean, status: number, body: any }>}
 */
async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = method !== 'GET' && csrfToken ? { 'x-csrf-token': csrfToken } : {};
  const answer = await callApi(method, path, { body, headers, credentials: 'same-origin' });
  if (answer.ok) return answer;
  const { status, body: problem } = answer.failure;
  return { ok: false, status, body: status === 0 ? { message: 'The service did not answer. Check the connection and try again.' } : problem };
}

/** @param {{ status: number, body: any }} answer */
function complain(answer) {
  if (answer.status === 401) return void showSignIn(null);
  say(alertRegion, answer.body?.message ?? `The service answered ${answer.status}.`);
}

/** This browser's time, with its zone named (an operator on another continent reads which). @param {string | Date | null} at */
const when = (at) => (at ? new Date(at).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }) : '—');
/** @type {Map<string, string>} */
const feedNames = new Map();
const feedName = (/** @type {string} */ id) => feedNames.get(id) ?? id;

/**
 * @param {string} id
 * @param {Array<Array<string | number | Node>>} rows
 * @param {string} empty
 */
function fillTable(id, rows, empty) {
  const body = /** @type {HTMLTableElement} */ (byId(id)).tBodies[0];
  const columns = /** @type {HTMLTableElement} */ (byId(id)).tHead?.rows[0]?.cells.length ?? 1;
  body.replaceChildren(
    ...(rows.length === 0
      ? [el('tr', {}, el('td', { colspan: String(columns), class: 'empty' }, empty))]
      : rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, typeof cell === 'number' ? cell.toLocaleString() : cell))))),
  );
}

/** @param {string | null} denied */
function showSignIn(denied) {
  byId('loading').hidden = true;
  byId('signed-in').hidden = true;
  byId('sign-in').hidden = false;
  const deniedLine = byId('denied');
  deniedLine.hidden = !denied;
  deniedLine.textContent = denied ? `${denied.replace(/^oidc:/, '')} does not hold the console role: nothing of the console is shown.` : '';
}

async function refresh() {
  const [overview, events, audit] = await Promise.all([call('GET', '/console/api/overview'), call('GET', '/console/api/events'), call('GET', '/console/api/audit')]);
  if (!overview.ok) return complain(overview);
  const { feeds, backlog, lastDay, subscriptions } = overview.body;
  for (const feed of feeds) feedNames.set(feed.id, feed.displayName);
  fillTable('feeds-table', feeds.map((/** @type {any} */ feed) => [
    feed.displayName,
    when(feed.lastPollAt),
    when(feed.lastChangeAt),
    !feed.enabled ? 'Not polled' : feed.stale ? `Stale${feed.lastError ? `: ${feed.lastError.message}` : ''}` : feed.lastError && feed.consecutiveFailures > 0 ? `Failing: ${feed.lastError.message}` : 'Healthy',
  ]), 'No feeds.');
  fillTable('backlog-table', backlog.map((/** @type {any} */ row) => [row.provider, row.status, row.count]), 'Nothing is waiting.');
  fillTable('day-table', lastDay.map((/** @type {any} */ row) => [row.status, row.count]), 'No deliveries in the last 24 hours.');
  fillTable('subscriptions-table', subscriptions.map((/** @type {any} */ row) => [feedName(row.feedId), row.provider, row.count]), 'No active subscriptions.');
  byId('refreshed').textContent = `Refreshes itself every ${REFRESH_MS / 1000} s. Last: ${new Date().toLocaleTimeString()}.`;
  if (events.ok) {
    showEvents('held-list', events.body.held, true);
    showEvents('events-list', events.body.events, false);
  }
  if (audit.ok) fillTable('audit-table', audit.body.entries.map((/** @type {any} */ entry) => [when(entry.at), entry.actor, describe(entry)]), 'Nothing yet.');
}

/** @param {{ status: string, decidedBy: string | null } | null} hold */
const holdWords = (hold) => (!hold ? '' : hold.status === 'held' ? ' (held: waiting for an operator)' : ` (${hold.status} by ${hold.decidedBy})`);

/** @param {any} entry */
const describe = (entry) => {
  // An empty value (an announcement without feeders) says nothing: left out.
  const detail = Object.entries(entry.detail ?? {}).filter(([, value]) => value !== '' && value !== null).map(([key, value]) => `${key} ${value}`).join(', ');
  return detail ? `${entry.action} (${detail})` : entry.action;
};

/**
 * @param {string} listId
 * @param {any[]} events
 * @param {boolean} held
 */
function showEvents(listId, events, held) {
  byId(listId).replaceChildren(
    ...(events.length === 0
      ? [el('li', { class: 'empty' }, held ? 'No event is held.' : 'No events yet.')]
      : events.map((event) => {
          const counts = held
            ? `would reach at least ${event.hold.count.toLocaleString()} subscriptions`
            : `${event.matched} matched, ${event.delivered} delivered, ${event.failed} failed, ${event.waiting} waiting${holdWords(event.hold)}`;
          const actions = held
            ? [button(`Release #${event.id}`, () => decide(event.id, 'release')), button(`Discard #${event.id}`, () => decide(event.id, 'discard'), 'danger')]
            : event.failed > 0
              ? [button(`Requeue ${event.failed} failed`, () => decide(event.id, 'requeue'), 'secondary')]
              : [];
          return el('li', {}, el('strong', {}, event.title || event.eventType), el('span', { class: 'hint' }, ` ${feedName(event.feedId)} · ${event.eventType} · ${when(event.createdAt)}`), el('br'), el('span', {}, counts), ...(actions.length ? [el('div', { class: 'actions' }, ...actions)] : []));
        })),
  );
}

/**
 * @param {string} text
 * @param {() => void} onClick
 * @param {string} [kind]
 */
function button(text, onClick, kind) {
  const element = el('button', { type: 'button', ...(kind ? { class: kind } : {}) }, text);
  element.addEventListener('click', onClick);
  return element;
}

/**
 * @param {number} id
 * @param {'release' | 'discard' | 'requeue'} decision
 */
async function decide(id, decision) {
  say(alertRegion, '');
  const answer = await call('POST', `/console/api/events/${id}/${decision}`);
  if (!answer.ok) return complain(answer);
  say(statusRegion, decision === 'requeue' ? `Requeued ${answer.body.requeued} failed deliveries of event #${id}.` : `Event #${id} ${decision === 'release' ? 'released: its deliveries are going out' : 'discarded: it is never delivered'}.`);
  await refresh();
}

const announceForm = /** @type {HTMLFormElement} */ (byId('announce-form'));
const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (byId(`announce-${name}`));
/** @type {Record<string, unknown> | null} */
let previewed = null;

function announcement() {
  return {
    feedId: field('feed').value,
    title: field('title').value,
    message: field('message').value,
    areas: splitList(field('areas').value),
    feeders: splitList(field('feeders').value),
  };
}

async function preview(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  say(alertRegion, '');
  const body = announcement();
  const answer = await call('POST', '/console/api/announcements/preview', body);
  if (!answer.ok) return complain(answer);
  previewed = body;
  const parts = Object.entries(answer.body.byProvider).map(([provider, count]) => `${provider} ${Number(count).toLocaleString()}`);
  byId('preview-words').textContent = `Will notify ${answer.body.subscriptions.toLocaleString()} subscription${answer.body.subscriptions === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}. Nothing is sent until you confirm.`;
  announceForm.hidden = true;
  byId('preview').hidden = false;
  byId('confirm-button').focus();
}

async function send() {
  if (!previewed) return;
  // Once: a second click while the first is on its way sends nothing more.
  const confirmed = previewed;
  previewed = null;
  const confirm = /** @type {HTMLButtonElement} */ (byId('confirm-button'));
  confirm.disabled = true;
  const answer = await call('POST', '/console/api/announcements', { ...confirmed, confirm: true });
  confirm.disabled = false;
  if (!answer.ok) {
    previewed = confirmed;
    return complain(answer);
  }
  say(statusRegion, `Sent: ${answer.body.matchedSubscriptionCount} matched, ${answer.body.deliveredCount} delivered or queued.`);
  previewed = null;
  announceForm.reset();
  byId('preview').hidden = true;
  announceForm.hidden = false;
  await refresh();
}

function editAnnouncement() {
  byId('preview').hidden = true;
  announceForm.hidden = false;
  field('title').focus();
}

/** A sign-in link (`/console#token=…`, what the demo prints): the token is exchanged for a session and leaves the address bar. */
async function signInFromLink() {
  const match = /^#token=(.+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, '', location.pathname);
  const answer = await call('POST', '/console/api/session', { token: decodeURIComponent(match[1]) });
  if (!answer.ok) say(alertRegion, answer.body?.message ?? 'The sign-in link was not accepted.');
}

async function start() {
  await signInFromLink();
  const me = await call('GET', '/console/api/me');
  if (!me.ok) return complain(me);
  byId('oidc-sign-in').hidden = !me.body.oidc;
  if (!me.body.signedIn) return showSignIn(me.body.denied);
  csrfToken = me.body.csrfToken;
  byId('actor').textContent = me.body.actor;
  byId('loading').hidden = true;
  byId('sign-in').hidden = true;
  byId('signed-in').hidden = false;
  const announcers = await call('GET', '/console/api/announcers');
  if (announcers.ok) {
    field('feed').replaceChildren(...announcers.body.map((/** @type {{ id: string, displayName: string }} */ feed) => el('option', { value: feed.id }, feed.displayName)));
  }
  await refresh();
  setInterval(() => void refresh(), REFRESH_MS);
}

byId('token-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ (byId('admin-token'));
  const answer = await call('POST', '/console/api/session', { token: input.value });
  input.value = '';
  if (!answer.ok) return say(alertRegion, answer.body?.message ?? 'The token was not accepted.');
  say(alertRegion, '');
  await start();
});
byId('sign-out').addEventListener('click', async () => {
  await call('POST', '/console/api/logout');
  location.reload();
});
announceForm.addEventListener('submit', (event) => void preview(event));
byId('confirm-button').addEventListener('click', () => void send());
byId('edit-announcement').addEventListener('click', editAnnouncement);
void start();
