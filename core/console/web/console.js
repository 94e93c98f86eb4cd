// @ts-check
// The operator console: /console. Calls /console/api/ with the session cookie; every change sends the
// session's CSRF token in x-csrf-token. Text from the service is always set as text.
import { callApi } from './api-client.js';
import { byId, el, say } from './dom.js';
import { eventTypeLabel, splitList } from './form-values.js';
import { readFilterFields, renderFilterFields } from './filter-fields.js';
import { durationWords, estimateWords } from './durations.js';
import { setUpFindSubscriber } from './console-trace.js';
import { readerWords as w } from './failure-words.js';
import { currentPageLanguage, installLanguageSwitch, onLanguageChange, pageWord } from './page-words.js';

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
  return {
    ok: false,
    status,
    body: status === 0 ? { message: pageWord('page.console.noAnswer', 'The service did not answer. Check the connection and try again.') } : problem,
  };
}

/** @param {{ status: number, body: any }} answer */
function complain(answer) {
  if (answer.status === 401) return void showSignIn(null);
  say(alertRegion, answer.body?.message ?? w('page.console.answered', 'The service answered @status.', { status: String(answer.status) }));
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
const feedName = (/** @type {string} */ id) => catalogFeeds.get(id)?.displayName ?? feedNames.get(id) ?? id;
/** What people call each channel (`Text message` for Sms), from the providers list. @type {Map<string, string>} */
const channelNames = new Map();
const channelName = (/** @type {string} */ provider) => channelNames.get(provider) ?? provider;
/** The catalog's feeds by id: their words for their event types (`Announcements` for ManualAnnouncement). @type {Map<string, import('./form-values.js').Feed>} */
const catalogFeeds = new Map();
/** An event type by its feed's label, else its name in words, as the pages say it. */
const eventTypeName = (/** @type {string} */ feedId, /** @type {string} */ type) => eventTypeLabel(catalogFeeds.get(feedId), type);

/** A delivery's state in the ledger, in an operator's words (each a page word; one not known here as recorded). @type {Record<string, string>} */
const STATES = {
  pending: 'Waiting',
  retrying: 'Retrying',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
  queued: 'Queued',
};
const stateWords = (/** @type {string} */ state) => (Object.hasOwn(STATES, state) ? pageWord(`page.console.state.${state}`, STATES[state]) : state);

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
      ? pageWord('page.console.nothingLastHour', 'Nothing was delivered in the last hour.')
      : `${w('page.console.deliveredLastHour', '@count delivered in the last hour:', { count: total.toLocaleString() })} ${providers
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
    pageWord('page.console.nothingInHour', 'Nothing in the last hour.'),
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
        {
          label: pageWord('page.console.minute', 'Minute'),
          value: (/** @type {unknown} */ _chart, /** @type {number | null} */ seconds) => (seconds === null ? '—' : clockTime(seconds)),
        },
        ...providers.map((provider, index) => ({
          label: channelName(provider),
          stroke: CHART_COLOURS[index % CHART_COLOURS.length],
          width: 2,
          points: { show: false },
        })),
      ],
      // The minutes on a 24-hour clock, as everywhere in the console (uPlot's own is 12-hour).
      axes: [
        { values: (/** @type {unknown} */ _chart, /** @type {number[]} */ splits) => splits.map(clockTime) },
        { label: pageWord('page.console.perMinute', 'per minute') },
      ],
    },
    data,
    host,
  );
}

window.addEventListener('resize', () => chart?.setSize({ width: Math.max(240, byId('lanes-chart').parentElement?.clientWidth ?? 600), height: 220 }));

/** @param {number} seconds */
const age = (seconds) => (seconds <= 0 ? '—' : durationWords(seconds, w));

/**
 * @param {string} id
 * @param {Array<Array<string | number | Node>>} rows
 * @param {string} empty
 * @param {number[]} [records] the columns that show a record as it was written (never translated)
 */
function fillTable(id, rows, empty, records = []) {
  const body = /** @type {HTMLTableElement} */ (byId(id)).tBodies[0];
  const columns = /** @type {HTMLTableElement} */ (byId(id)).tHead?.rows[0]?.cells.length ?? 1;
  body.replaceChildren(
    ...(rows.length === 0
      ? [el('tr', {}, el('td', { colspan: String(columns), class: 'empty' }, empty))]
      : rows.map((cells) =>
          el(
            'tr',
            {},
            ...cells.map((cell, index) =>
              el('td', records.includes(index) ? { translate: 'no' } : {}, typeof cell === 'number' ? cell.toLocaleString() : cell),
            ),
          ),
        )),
  );
}

/** @param {string | null} denied */
function showSignIn(denied) {
  byId('loading').hidden = true;
  byId('signed-in').hidden = true;
  byId('sign-in').hidden = false;
  const deniedLine = byId('denied');
  deniedLine.hidden = !denied;
  deniedLine.textContent = denied
    ? w('page.console.denied', '@who does not hold the console role: nothing of the console is shown.', { who: denied.replace(/^oidc:/, '') })
    : '';
}

async function refresh() {
  const [overview, events, audit, stillOut, unconfirmed] = await Promise.all([
    call('GET', '/console/api/overview'),
    call('GET', '/console/api/events'),
    call('GET', '/console/api/audit'),
    call('GET', '/console/api/still-out'),
    call('GET', '/console/api/not-confirmed'),
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
      pageWord('page.console.noStillOut', 'Nobody has reported an outage still on in the last week.'),
    );
  }
  if (unconfirmed.ok) {
    fillTable(
      'not-confirmed-table',
      unconfirmed.body.items.map((/** @type {any} */ item) => [
        `${item.displayName} (${item.publicId})`,
        `${item.title} (${feedName(item.feedId)})`,
        item.steps,
        when(item.since),
        el('button', { type: 'button', class: 'secondary', 'data-reached': String(item.id) }, pageWord('page.console.reached', 'Reached by phone')),
      ]),
      pageWord('page.console.noneNotConfirmed', 'Everyone has confirmed.'),
      [0],
    );
  }
  const { feeds, lanes, perMinute, backlog, lastDay, subscriptions } = overview.body;
  // The catalog's names are in the console's language; the overview's are the feeds' own (English).
  for (const feed of feeds) feedNames.set(feed.id, catalogFeeds.get(feed.id)?.displayName ?? feed.displayName);
  fillTable(
    'lanes-table',
    lanes.map((/** @type {any} */ lane) => [
      channelName(lane.provider),
      lane.waiting,
      age(lane.oldestWaitingSeconds),
      lane.ratePerSecond === null
        ? pageWord('page.console.noLimit', 'No limit')
        : w('page.console.perSecond', '@rate a second', { rate: lane.ratePerSecond.toLocaleString() }),
      lane.pausedUntil
        ? `${w('page.console.pausedUntil', 'Paused until @when', { when: when(lane.pausedUntil) })}${lane.pausedBecause ? ` (${lane.pausedBecause})` : ''}`
        : pageWord('page.console.sending', 'Sending'),
    ]),
    pageWord('page.console.noChannels', 'No channels.'),
  );
  drawChart(perMinute);
  fillTable(
    'feeds-table',
    feeds.map((/** @type {any} */ feed) => [
      feedName(feed.id),
      when(feed.lastPollAt),
      when(feed.lastChangeAt),
      !feed.enabled
        ? pageWord('page.console.notPolled', 'Not polled')
        : feed.stale
          ? `${pageWord('page.console.stale', 'Stale')}${feed.lastError ? `: ${feed.lastError.message}` : ''}`
          : feed.lastError && feed.consecutiveFailures > 0
            ? `${pageWord('page.console.failing', 'Failing')}: ${feed.lastError.message}`
            : pageWord('page.console.healthy', 'Healthy'),
    ]),
    pageWord('page.console.noFeeds', 'No feeds.'),
  );
  fillTable(
    'backlog-table',
    backlog.map((/** @type {any} */ row) => [channelName(row.provider), stateWords(row.status), row.count]),
    pageWord('page.console.nothingWaiting', 'Nothing is waiting.'),
  );
  fillTable(
    'day-table',
    lastDay.map((/** @type {any} */ row) => [stateWords(row.status), row.count]),
    pageWord('page.console.noDeliveries', 'No deliveries in the last 24 hours.'),
  );
  fillTable(
    'subscriptions-table',
    subscriptions.map((/** @type {any} */ row) => [feedName(row.feedId), channelName(row.provider), row.count]),
    pageWord('page.console.noSubscriptions', 'No active subscriptions.'),
  );
  byId('refreshed').textContent = w('page.console.refreshed', 'Refreshes itself every @seconds s. Last: @time.', {
    seconds: String(REFRESH_MS / 1000),
    time: new Date().toLocaleTimeString(undefined, { hourCycle: 'h23' }),
  });
  if (events.ok) {
    // Not while the operator answers a release question: the refresh would take it from under them.
    if (!document.querySelector('#held-list .confirm')) showEvents('held-list', events.body.held, true);
    showEvents('events-list', events.body.events, false);
  }
  if (audit.ok)
    fillTable(
      'audit-table',
      audit.body.entries.map((/** @type {any} */ entry) => [when(entry.at), entry.actor, describe(entry)]),
      pageWord('page.console.nothingYet', 'Nothing yet.'),
      // Who and what, as recorded: a record, never translated (translate="no" tells translation tools too).
      [1, 2],
    );
}

/** What an operator decided of a held event, in words (as recorded when not known here). @type {Record<string, string>} */
const DECISIONS = { released: 'released', discarded: 'discarded' };
const decisionWords = (/** @type {string} */ status) =>
  Object.hasOwn(DECISIONS, status) ? pageWord(`page.console.decision.${status}`, DECISIONS[status]) : status;

/** @param {{ status: string, decidedBy: string | null } | null} hold */
const holdWords = (hold) =>
  !hold
    ? ''
    : hold.status === 'held'
      ? ` (${pageWord('page.console.heldWaiting', 'held: waiting for an operator')})`
      : ` (${w('page.console.decidedBy', '@decision by @who', { decision: decisionWords(hold.status), who: hold.decidedBy ?? '' })})`;

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
      ? [el('li', { class: 'empty' }, held ? pageWord('page.console.noneHeld', 'No event is held.') : pageWord('page.console.noEvents', 'No events yet.'))]
      : events.map((event) => {
          const counts = held
            ? `${w('page.console.wouldReach', 'would reach at least @count subscriptions', { count: event.hold.count.toLocaleString() })}${Object.keys(event.hold.byProvider ?? {}).length ? ` (${estimateWords(event.hold.byProvider, event.estimatedSeconds, channelName, w)})` : ''}`
            : `${w('page.console.counts', '@matched matched, @delivered delivered, @failed failed, @waiting waiting', { matched: String(event.matched), delivered: String(event.delivered), failed: String(event.failed), waiting: String(event.waiting) })}${holdWords(event.hold)}`;
          const actions = held
            ? [
                button(w('page.console.release', 'Release #@id', { id: String(event.id) }), (clicked) => confirmRelease(clicked, event)),
                button(w('page.console.discard', 'Discard #@id', { id: String(event.id) }), () => decide(event.id, 'discard'), 'danger'),
              ]
            : event.failed > 0
              ? [button(w('page.console.requeue', 'Requeue @count failed', { count: String(event.failed) }), () => decide(event.id, 'requeue'), 'secondary')]
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
    { class: 'confirm', role: 'group', 'aria-label': w('page.console.releaseQuestion', 'Release event #@id?', { id: String(event.id) }) },
    el(
      'p',
      {},
      w('page.console.releaseText', 'Send event #@id to at least @count subscriptions now? It cannot be called back.', {
        id: String(event.id),
        count: event.hold.count.toLocaleString(),
      }),
    ),
    el(
      'div',
      { class: 'actions' },
      button(pageWord('page.console.releaseYes', 'Yes, send it now'), (yes) => {
        // Once: a second click while the first is on its way sends nothing more.
        yes.disabled = true;
        void decide(event.id, 'release').finally(() => {
          // Released, the refresh redraws the list; refused, the buttons come back for another try.
          question.remove();
          actions.hidden = false;
        });
      }),
      button(
        pageWord('page.console.releaseNo', 'Keep it held'),
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
      ? w('page.console.requeued', 'Requeued @count failed deliveries of event #@id.', { count: String(answer.body.requeued), id: String(id) })
      : decision === 'release'
        ? w('page.console.released', 'Event #@id released: its deliveries are going out.', { id: String(id) })
        : w('page.console.discarded', 'Event #@id discarded: it is never delivered.', { id: String(id) }),
  );
  await refresh();
}

/** An operator reached the person an unconfirmed alert was for: it leaves the list (audited). */
byId('not-confirmed-table').addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button[data-reached]');
  if (!(button instanceof HTMLButtonElement)) return;
  button.disabled = true;
  say(alertRegion, '');
  const id = button.dataset.reached ?? '';
  const answer = await call('POST', `/console/api/not-confirmed/${id}/reached`);
  if (!answer.ok) {
    button.disabled = false;
    return complain(answer);
  }
  say(statusRegion, w('page.console.reachedDone', 'Alert #@id: marked as reached by phone.', { id }));
  await refresh();
});

/** Imports (or checks) a register: the file read here, sent as text; the report said, and each refused line listed. */
async function sendRegister(/** @type {boolean} */ dryRun) {
  const file = /** @type {HTMLInputElement} */ (byId('register-file')).files?.[0];
  const statusLine = byId('register-status');
  const errorLine = byId('register-error');
  say(statusLine, '');
  say(errorLine, '');
  if (!file) return say(errorLine, pageWord('page.console.registerNoFile', 'Choose the register file first.'));
  const feedId = /** @type {HTMLSelectElement} */ (byId('register-feed')).value;
  // One request at a time: a second Import while the first runs would only be refused as subscribed already.
  const buttons = [byId('register-check'), byId('register-import')].map((button) => /** @type {HTMLButtonElement} */ (button));
  for (const button of buttons) button.disabled = true;
  byId('register-form').setAttribute('aria-busy', 'true');
  const answer = await call('POST', '/console/api/register', { feedId, csv: await file.text(), dryRun }).finally(() => {
    for (const button of buttons) button.disabled = false;
    byId('register-form').removeAttribute('aria-busy');
  });
  if (!answer.ok) return complain(answer);
  const { imported, people, subscriptions, refused } = answer.body;
  byId('register-refused-wrap').hidden = refused.length === 0;
  fillTable(
    'register-refused',
    refused.map((/** @type {any} */ problem) => [problem.line, problem.column || '—', problem.reason]),
    '',
    [1],
  );
  if (refused.length > 0) {
    const count = String(new Set(refused.map((/** @type {any} */ problem) => problem.line)).size);
    return say(
      errorLine,
      w('page.console.registerRefusedCount', 'Lines refused: @count. Nothing was imported: correct the file and check it again.', { count }),
    );
  }
  say(
    statusLine,
    imported
      ? w('page.console.registerImported', 'Imported: @people people, @subscriptions subscriptions. Each confirms every urgent alert.', {
          people: String(people),
          subscriptions: String(subscriptions),
        })
      : w('page.console.registerChecked', 'Every line is good: @people people, @subscriptions subscriptions. Import it when ready.', {
          people: String(people),
          subscriptions: String(subscriptions),
        }),
  );
  if (imported) await refresh();
}
byId('register-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void sendRegister(true);
});
byId('register-import').addEventListener('click', () => void sendRegister(false));

const announceForm = /** @type {HTMLFormElement} */ (byId('announce-form'));
const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (byId(`announce-${name}`));
/** @type {Record<string, unknown> | null} */
let previewed = null;

/** Each announcing feed's filter fields, in its own words (`Areas`, `Feeders`; a transit feed's `Routes`). @type {Map<string, import('./form-values.js').FilterField[]>} */
const announcerFields = new Map();

/** The feeds an operator may announce to, as the console API answers them. @type {Array<{ id: string, displayName: string, filterFields: import('./form-values.js').FilterField[] }>} */
let announcers = [];

/** The announcing feeds, their names and filter fields in the console's language (the catalog's, where it has them). */
function showAnnouncers() {
  const chosen = field('feed').value;
  // What the operator typed stays, in the fields' new words.
  const typed = readFilterFields(announcerFields.get(chosen) ?? [], 'announce-');
  for (const feed of announcers) announcerFields.set(feed.id, catalogFeeds.get(feed.id)?.filterFields ?? feed.filterFields);
  field('feed').replaceChildren(
    ...announcers.map((feed) => el('option', { value: feed.id, ...(feed.id === chosen ? { selected: '' } : {}) }, feedName(feed.id))),
  );
  showAnnouncerFields(typed);
}

/** The chosen feed's fields, one input each (emptied: they are that feed's). */
function showAnnouncerFields(/** @type {Record<string, string>} */ typed = {}) {
  const fields = announcerFields.get(field('feed').value) ?? [];
  renderFilterFields(byId('announce-fields'), fields, typed, { prefix: 'announce-' });
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
  const parts = estimateWords(answer.body.byProvider, answer.body.estimatedSeconds, channelName, w);
  byId('preview-words').textContent =
    answer.body.subscriptions === 1
      ? w('page.console.willNotifyOne', 'Will notify 1 subscription@parts. Nothing is sent until you confirm.', { parts: parts ? ` (${parts})` : '' })
      : w('page.console.willNotify', 'Will notify @count subscriptions@parts. Nothing is sent until you confirm.', {
          count: answer.body.subscriptions.toLocaleString(),
          parts: parts ? ` (${parts})` : '',
        });
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
  say(
    byId('announce-status'),
    w('page.console.sent', 'Sent: @matched matched, @delivered delivered or queued.', {
      matched: String(answer.body.matchedSubscriptionCount),
      delivered: String(answer.body.deliveredCount),
    }),
  );
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
  if (!answer.ok) say(alertRegion, answer.body?.message ?? pageWord('page.console.linkRefused', 'The sign-in link was not accepted.'));
}

/** The channels' and the feeds' names (and event types) in the console's language. */
async function loadNames() {
  const language = currentPageLanguage();
  const query = language === 'en' ? '' : `?language=${encodeURIComponent(language)}`;
  const [providers, catalog] = await Promise.all([call('GET', `/api/notification-providers${query}`), call('GET', `/api/notification-feeds${query}`)]);
  if (language !== currentPageLanguage()) return;
  if (providers.ok) for (const provider of providers.body) channelNames.set(provider.provider, provider.displayName);
  if (catalog.ok) for (const feed of catalog.body) catalogFeeds.set(feed.id, feed);
  // The feeds a register may be imported into, in the console's words (the choice kept through a language switch).
  const registerFeed = /** @type {HTMLSelectElement} */ (byId('register-feed'));
  const chosen = registerFeed.value;
  registerFeed.replaceChildren(...[...catalogFeeds.values()].map((feed) => el('option', { value: feed.id }, feed.displayName)));
  if (chosen) registerFeed.value = chosen;
}

/** The console's language: the browser's, or the one chosen with its switch (kept in this browser, as on the pages). */
const languageSet = installLanguageSwitch(/** @type {HTMLSelectElement} */ (byId('page-language')));
let started = false;
// What the console writes itself it writes again in the language switched to.
onLanguageChange(() => {
  if (!started || byId('signed-in').hidden) return;
  void loadNames().then(() => {
    // The chart's legend is written when it is made: made again in the new words.
    chart?.destroy();
    chart = null;
    showAnnouncers();
    return refresh();
  });
});

async function start() {
  await languageSet;
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
  await loadNames();
  const announcing = await call('GET', '/console/api/announcers');
  if (announcing.ok) {
    announcers = announcing.body;
    showAnnouncers();
  }
  await refresh();
  started = true;
  setInterval(() => void refresh(), REFRESH_MS);
}

field('feed').addEventListener('change', () => showAnnouncerFields());
byId('token-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ (byId('admin-token'));
  const answer = await call('POST', '/console/api/session', { token: input.value });
  input.value = '';
  if (!answer.ok) return say(alertRegion, answer.body?.message ?? pageWord('page.console.tokenRefused', 'The token was not accepted.'));
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
