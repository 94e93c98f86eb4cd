// @ts-check
// The operator console: /console. Calls /console/api/ with the session cookie; every change sends the
// session's CSRF token in x-csrf-token. Text from the service is always set as text.
import { callApi } from './api-client.js';
import { byId, el, say } from './dom.js';
import { eventTypeLabel, splitList } from './form-values.js';
import { readFilterFields, renderFilterFields } from './filter-fields.js';
import { aboutDuration, estimateWords } from './durations.js';
import { setUpFindSubscriber } from './console-trace.js';

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
const when = (at) =>
  at
    ? new Date(at).toLocaleString(undefined, {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      })
    : '—';
/** A minute of the chart (seconds since 1970) as this browser's 24-hour clock time. @param {number} seconds */
const clockTime = (seconds) => new Date(seconds * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** @type {Map<string, string>} */
const feedNames = new Map();
const feedName = (/** @type {string} */ id) => feedNames.get(id) ?? id;
/** What people call each channel (`Text message` for Sms), from the providers list. @type {Map<string, string>} */
const channelNames = new Map();
const channelName = (/** @type {string} */ provider) => channelNames.get(provider) ?? provider;
/** The catalog's feeds by id: their words for their event types (`Announcements` for ManualAnnouncement). @type {Map<string, import('./form-values.js').Feed>} */
const catalogFeeds = new Map();
/** An event type by its feed's label, else its name in words, as the pages say it. */
const eventTypeName = (/** @type {string} */ feedId, /** @type {string} */ type) => eventTypeLabel(catalogFeeds.get(feedId), type);

/** @type {any} */
let chart = null;
/** One colour per channel, the same on every refresh. */
const CHART_COLOURS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'];

/**
 * The per-minute chart (uPlot, served by this service): one line per channel, delivered per minute.
 * @param {Array<{ provider: string, minute: string, delivered: number, failed: number }>} perMinute
 */
function drawChart(perMinute) {
  const host = byId('lanes-chart');
  const providers = [...new Set(perMinute.map((m) => m.provider))].sort();
  // Every minute of the last hour, 0 where nothing went out (the service's minutes, ending at its latest or this browser's now).
  const latest = Math.max(Math.floor(Date.now() / 60_000) * 60, ...perMinute.map((m) => Date.parse(m.minute) / 1000));
  const minutes = Array.from({ length: 60 }, (_, index) => latest - (59 - index) * 60);
  const series = providers.map((provider) =>
    minutes.map((at) => perMinute.find((m) => m.provider === provider && Date.parse(m.minute) / 1000 === at)?.delivered ?? 0),
  );
  const total = perMinute.reduce((sum, m) => sum + m.delivered, 0);
  byId('chart-summary').textContent =
    perMinute.length === 0
      ? 'Nothing was delivered in the last hour.'
      : `${total.toLocaleString()} delivered in the last hour: ${providers
          .map(
            (p) =>
              `${channelName(p)} ${perMinute
                .filter((m) => m.provider === p)
                .reduce((sum, m) => sum + m.delivered, 0)
                .toLocaleString()}`,
          )
          .join(', ')}.`;
  fillTable(
    'minutes-table',
    perMinute.map((m) => [when(m.minute), channelName(m.provider), m.delivered, m.failed]),
    'Nothing in the last hour.',
  );
  // @ts-expect-error: uPlot is the library this page loads before its own script.
  const UPlot = globalThis.uPlot;
  if (!UPlot || perMinute.length === 0) {
    chart?.destroy();
    chart = null;
    host.hidden = true;
    return;
  }
  host.hidden = false;
  // As wide as the section it sits in (the chart itself is not laid out before it is drawn).
  const width = Math.max(240, host.parentElement?.clientWidth ?? host.clientWidth);
  const data = [minutes, ...series];
  if (chart && chart.series.length === providers.length + 1) {
    chart.setData(data);
    chart.setSize({ width, height: 220 });
    return;
  }
  chart?.destroy();
  chart = new UPlot(
    {
      width,
      height: 220,
      scales: { x: { time: true }, y: { range: (/** @type {any} */ _u, /** @type {number} */ _min, /** @type {number} */ max) => [0, Math.max(5, max)] } },
      series: [
        { label: 'Minute', value: (/** @type {unknown} */ _chart, /** @type {number | null} */ seconds) => (seconds === null ? '—' : clockTime(seconds)) },
        ...providers.map((provider, index) => ({
          label: channelName(provider),
          stroke: CHART_COLOURS[index % CHART_COLOURS.length],
          width: 2,
          points: { show: false },
        })),
      ],
      // The minutes on a 24-hour clock, as everywhere in the console (uPlot's own is 12-hour).
      axes: [{ values: (/** @type {unknown} */ _chart, /** @type {number[]} */ splits) => splits.map(clockTime) }, { label: 'per minute' }],
    },
    data,
    host,
  );
}

window.addEventListener('resize', () => chart?.setSize({ width: Math.max(240, byId('lanes-chart').parentElement?.clientWidth ?? 600), height: 220 }));

/** @param {number} seconds */
const age = (seconds) => (seconds <= 0 ? '—' : aboutDuration(seconds).replace('about ', ''));

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
  const [overview, events, audit, stillOut] = await Promise.all([
    call('GET', '/console/api/overview'),
    call('GET', '/console/api/events'),
    call('GET', '/console/api/audit'),
    call('GET', '/console/api/still-out'),
  ]);
  if (!overview.ok) return complain(overview);
  if (stillOut.ok) {
    fillTable(
      'still-out-table',
      stillOut.body.items.map((/** @type {any} */ item) => [
        `${item.itemKey} (${feedName(item.feedId)})`,
        item.reports,
        item.areas.join('; ') || '—',
        when(item.lastReportAt),
      ]),
      'Nobody has reported an outage still on in the last week.',
    );
  }
  const { feeds, lanes, perMinute, backlog, lastDay, subscriptions } = overview.body;
  for (const feed of feeds) feedNames.set(feed.id, feed.displayName);
  fillTable(
    'lanes-table',
    lanes.map((/** @type {any} */ lane) => [
      channelName(lane.provider),
      lane.waiting,
      age(lane.oldestWaitingSeconds),
      lane.ratePerSecond === null ? 'No limit' : `${lane.ratePerSecond.toLocaleString()} a second`,
      lane.pausedUntil ? `Paused until ${when(lane.pausedUntil)}${lane.pausedBecause ? ` (${lane.pausedBecause})` : ''}` : 'Sending',
    ]),
    'No channels.',
  );
  drawChart(perMinute);
  fillTable(
    'feeds-table',
    feeds.map((/** @type {any} */ feed) => [
      feed.displayName,
      when(feed.lastPollAt),
      when(feed.lastChangeAt),
      !feed.enabled
        ? 'Not polled'
        : feed.stale
          ? `Stale${feed.lastError ? `: ${feed.lastError.message}` : ''}`
          : feed.lastError && feed.consecutiveFailures > 0
            ? `Failing: ${feed.lastError.message}`
            : 'Healthy',
    ]),
    'No feeds.',
  );
  fillTable(
    'backlog-table',
    backlog.map((/** @type {any} */ row) => [row.provider, row.status, row.count]),
    'Nothing is waiting.',
  );
  fillTable(
    'day-table',
    lastDay.map((/** @type {any} */ row) => [row.status, row.count]),
    'No deliveries in the last 24 hours.',
  );
  fillTable(
    'subscriptions-table',
    subscriptions.map((/** @type {any} */ row) => [feedName(row.feedId), row.provider, row.count]),
    'No active subscriptions.',
  );
  byId('refreshed').textContent = `Refreshes itself every ${REFRESH_MS / 1000} s. Last: ${new Date().toLocaleTimeString(undefined, { hourCycle: 'h23' })}.`;
  if (events.ok) {
    // Not while the operator answers a release question: the refresh would take it from under them.
    if (!document.querySelector('#held-list .confirm')) showEvents('held-list', events.body.held, true);
    showEvents('events-list', events.body.events, false);
  }
  if (audit.ok)
    fillTable(
      'audit-table',
      audit.body.entries.map((/** @type {any} */ entry) => [when(entry.at), entry.actor, describe(entry)]),
      'Nothing yet.',
    );
}

/** @param {{ status: string, decidedBy: string | null } | null} hold */
const holdWords = (hold) => (!hold ? '' : hold.status === 'held' ? ' (held: waiting for an operator)' : ` (${hold.status} by ${hold.decidedBy})`);

/** @param {any} entry */
const describe = (entry) => {
  // An empty value (an announcement without feeders) says nothing: left out.
  const detail = Object.entries(entry.detail ?? {})
    .filter(([, value]) => value !== '' && value !== null)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
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
            ? `would reach at least ${event.hold.count.toLocaleString()} subscriptions${Object.keys(event.hold.byProvider ?? {}).length ? ` (${estimateWords(event.hold.byProvider, event.estimatedSeconds, channelName)})` : ''}`
            : `${event.matched} matched, ${event.delivered} delivered, ${event.failed} failed, ${event.waiting} waiting${holdWords(event.hold)}`;
          const actions = held
            ? [
                button(`Release #${event.id}`, (clicked) => confirmRelease(clicked, event)),
                button(`Discard #${event.id}`, () => decide(event.id, 'discard'), 'danger'),
              ]
            : event.failed > 0
              ? [button(`Requeue ${event.failed} failed`, () => decide(event.id, 'requeue'), 'secondary')]
              : [];
          return el(
            'li',
            {},
            el('strong', {}, event.title || eventTypeName(event.feedId, event.eventType)),
            el('span', { class: 'hint' }, ` ${feedName(event.feedId)} · ${eventTypeName(event.feedId, event.eventType)} · ${when(event.createdAt)}`),
            el('br'),
            el('span', {}, counts),
            ...(actions.length ? [el('div', { class: 'actions' }, ...actions)] : []),
          );
        })),
  );
}

/**
 * @param {string} text
 * @param {(clicked: HTMLButtonElement) => void} onClick
 * @param {string} [kind]
 */
function button(text, onClick, kind) {
  const element = /** @type {HTMLButtonElement} */ (el('button', { type: 'button', ...(kind ? { class: kind } : {}) }, text));
  element.addEventListener('click', () => onClick(element));
  return element;
}

/**
 * Releasing sends a held event to everyone it matches: the operator says so once more, beside the button.
 * @param {HTMLButtonElement} clicked
 * @param {any} event
 */
function confirmRelease(clicked, event) {
  const actions = /** @type {HTMLElement} */ (clicked.parentElement);
  const question = el(
    'div',
    { class: 'confirm', role: 'group', 'aria-label': `Release event #${event.id}?` },
    el('p', {}, `Send event #${event.id} to at least ${event.hold.count.toLocaleString()} subscriptions now? It cannot be called back.`),
    el(
      'div',
      { class: 'actions' },
      button('Yes, send it now', (yes) => {
        // Once: a second click while the first is on its way sends nothing more.
        yes.disabled = true;
        void decide(event.id, 'release').finally(() => {
          // Released, the refresh redraws the list; refused, the buttons come back for another try.
          question.remove();
          actions.hidden = false;
        });
      }),
      button(
        'Keep it held',
        () => {
          question.remove();
          actions.hidden = false;
          clicked.focus();
        },
        'secondary',
      ),
    ),
  );
  actions.hidden = true;
  actions.after(question);
  // The focus on the safe answer: a key pressed twice keeps the event held.
  /** @type {HTMLButtonElement} */ (question.querySelector('button.secondary')).focus();
}

/**
 * @param {number} id
 * @param {'release' | 'discard' | 'requeue'} decision
 */
async function decide(id, decision) {
  say(alertRegion, '');
  const answer = await call('POST', `/console/api/events/${id}/${decision}`);
  if (!answer.ok) return complain(answer);
  say(
    statusRegion,
    decision === 'requeue'
      ? `Requeued ${answer.body.requeued} failed deliveries of event #${id}.`
      : `Event #${id} ${decision === 'release' ? 'released: its deliveries are going out' : 'discarded: it is never delivered'}.`,
  );
  await refresh();
}

const announceForm = /** @type {HTMLFormElement} */ (byId('announce-form'));
const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (byId(`announce-${name}`));
/** @type {Record<string, unknown> | null} */
let previewed = null;

/** Each announcing feed's filter fields, in its own words (`Areas`, `Feeders`; a transit feed's `Routes`). @type {Map<string, import('./form-values.js').FilterField[]>} */
const announcerFields = new Map();

/** The chosen feed's fields, one input each (emptied: they are that feed's). */
function showAnnouncerFields() {
  const fields = announcerFields.get(field('feed').value) ?? [];
  renderFilterFields(byId('announce-fields'), fields, {}, { prefix: 'announce-' });
  byId('announce-about').hidden = fields.length === 0;
}

function announcement() {
  const feedId = field('feed').value;
  const typed = readFilterFields(announcerFields.get(feedId) ?? [], 'announce-');
  const fields = Object.fromEntries(
    Object.entries(typed)
      .map(([id, value]) => [id, splitList(value)])
      .filter(([, values]) => values.length > 0),
  );
  return { feedId, title: field('title').value, message: field('message').value, fields };
}

async function preview(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  say(alertRegion, '');
  const body = announcement();
  const answer = await call('POST', '/console/api/announcements/preview', body);
  if (!answer.ok) return complain(answer);
  previewed = body;
  const parts = estimateWords(answer.body.byProvider, answer.body.estimatedSeconds, channelName);
  byId('preview-words').textContent =
    `Will notify ${answer.body.subscriptions.toLocaleString()} subscription${answer.body.subscriptions === 1 ? '' : 's'}${parts ? ` (${parts})` : ''}. Nothing is sent until you confirm.`;
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
  // Said beside the form that sent it (and announced), not at the top of the page.
  say(byId('announce-status'), `Sent: ${answer.body.matchedSubscriptionCount} matched, ${answer.body.deliveredCount} delivered or queued.`);
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
  const providers = await call('GET', '/api/notification-providers');
  if (providers.ok) for (const provider of providers.body) channelNames.set(provider.provider, provider.displayName);
  const catalog = await call('GET', '/api/notification-feeds');
  if (catalog.ok) for (const feed of catalog.body) catalogFeeds.set(feed.id, feed);
  const announcers = await call('GET', '/console/api/announcers');
  if (announcers.ok) {
    for (const feed of announcers.body) announcerFields.set(feed.id, feed.filterFields);
    field('feed').replaceChildren(
      ...announcers.body.map((/** @type {{ id: string, displayName: string }} */ feed) => el('option', { value: feed.id }, feed.displayName)),
    );
    showAnnouncerFields();
  }
  await refresh();
  setInterval(() => void refresh(), REFRESH_MS);
}

field('feed').addEventListener('change', showAnnouncerFields);
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
setUpFindSubscriber({ call, complain, when, feedName, channelName, eventTypeName, statusRegion });
