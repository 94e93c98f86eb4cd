// @ts-check
// The console's "Find a subscriber": a search by public id, email address, phone number or push topic, and the
// trace of one subscription (why each of its feed's latest events did or did not reach it). Text is set as text.
import { byId, el, say } from './dom.js';
import { readerWords as w } from './failure-words.js';
import { pageWord } from './page-words.js';

/** What decided an event, in an operator's words (the API's criterion names; English here, each a page word). @type {Record<string, string>} */
const CRITERIA = {
  where: 'Not in their areas or places',
  feeders: 'Not one of their feeders',
  keywords: 'None of their keywords',
  eventTypes: 'A kind of alert they did not choose',
  quietHours: 'Saved for after their quiet hours (one catch-up message then)',
  superseded: 'Replaced by a newer message before it went',
  overBudget: 'Over the budget of messages about this outage',
  feedPolicy: 'No news to them (the feed’s rule)',
  subscribedLater: 'Subscribed after it',
  inactive: 'The subscription is not active',
  heldByOperator: 'Held for an operator’s decision (see Held events)',
  discarded: 'Discarded by an operator',
  notClaimed: 'Matched; not claimed yet (still going out)',
};

/** @param {string | null} criterion */
const criterionWords = (criterion) =>
  criterion === null
    ? pageWord('page.trace.sent', 'Sent')
    : Object.hasOwn(CRITERIA, criterion)
      ? pageWord(`page.trace.criterion.${criterion}`, CRITERIA[criterion])
      : criterion.startsWith('fields.')
        ? w('page.trace.notTheir', 'Not their @field', { field: criterion.slice(7) })
        : criterion;

/**
 * @typedef {{ ok: boolean, status: number, body: any }} Answer
 * @typedef {{
 *   call: (method: string, path: string) => Promise<Answer>,
 *   complain: (answer: Answer) => void,
 *   when: (at: string | null) => string,
 *   feedName: (id: string) => string,
 *   channelName: (provider: string) => string,
 *   eventTypeName: (feedId: string, type: string) => string,
 *   statusRegion: HTMLElement,
 * }} TraceDeps
 */

/**
 * One delivery in words: its state, each attempt, and what the carrier or peer said.
 * @param {any} delivery
 * @param {TraceDeps} deps
 */
function deliveryWords(delivery, deps) {
  const attempts = delivery.attempts.map(
    (/** @type {any} */ a) => `attempt ${a.attempt}: ${a.outcome}${a.at ? ` at ${deps.when(a.at)}` : ''}${a.error ? ` (${a.error})` : ''}`,
  );
  const outcome = delivery.outcome
    ? [`then ${delivery.outcome}${delivery.outcomeCode ? ` (code ${delivery.outcomeCode})` : ''} at ${deps.when(delivery.outcomeAt)}`]
    : [];
  return [delivery.status, ...attempts, ...outcome].join('; ');
}

/**
 * @param {any} trace
 * @param {TraceDeps} deps
 */
function showTrace(trace, deps) {
  const { subscription, events } = trace;
  byId('trace-heading').textContent = w('page.trace.heading', '@name: @feed by @channel', {
    name: subscription.displayName,
    feed: deps.feedName(subscription.feedId),
    channel: deps.channelName(subscription.provider),
  });
  byId('trace-summary').textContent = w(
    'page.trace.summary',
    "@state · subscribed @when · @id. The feed's last @count events, newest first, judged by the subscription's filter as it is now.",
    {
      state: subscription.isActive ? pageWord('page.trace.active', 'Active') : pageWord('page.trace.notActive', 'Not active'),
      when: deps.when(subscription.createdAt),
      id: subscription.publicId,
      count: String(events.length),
    },
  );
  const body = /** @type {HTMLTableElement} */ (byId('trace-table')).tBodies[0];
  body.replaceChildren(
    ...(events.length === 0
      ? [el('tr', {}, el('td', { colspan: '4', class: 'empty' }, pageWord('page.trace.noEvents', 'The feed has no events yet.')))]
      : events.map((/** @type {any} */ event) =>
          el(
            'tr',
            {},
            el(
              'td',
              {},
              `${deps.eventTypeName(subscription.feedId, event.eventType)} · ${event.sourceKey}`,
              el('br'),
              el('span', { class: 'hint' }, deps.when(event.createdAt)),
            ),
            el('td', {}, event.matched ? pageWord('page.trace.yes', 'Yes') : pageWord('page.trace.no', 'No')),
            el('td', {}, criterionWords(event.criterion), ...(event.reason ? [el('br'), el('span', { class: 'hint' }, event.reason)] : [])),
            el('td', {}, event.deliveries.length === 0 ? '—' : event.deliveries.map((/** @type {any} */ d) => deliveryWords(d, deps)).join(' | ')),
          ),
        )),
  );
  byId('trace').hidden = false;
  byId('trace-heading').focus();
}

/**
 * @param {string} publicId
 * @param {TraceDeps} deps
 */
async function openTrace(publicId, deps) {
  const answer = await deps.call('GET', `/console/api/subscribers/${encodeURIComponent(publicId)}/trace`);
  if (!answer.ok) return deps.complain(answer);
  showTrace(answer.body, deps);
}

/**
 * Wires the form: a search lists what it found (never a destination); each result opens its trace.
 * @param {TraceDeps} deps
 */
export function setUpFindSubscriber(deps) {
  const form = /** @type {HTMLFormElement} */ (byId('find-form'));
  const input = /** @type {HTMLInputElement} */ (byId('find-query'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const find = input.value.trim();
    if (find === '') {
      input.setAttribute('aria-invalid', 'true');
      return say(byId('find-error'), pageWord('page.trace.typeSomething', 'Type a public id, an email address, a phone number or a push topic.'));
    }
    input.removeAttribute('aria-invalid');
    say(byId('find-error'), '');
    const answer = await deps.call('GET', `/console/api/subscribers?find=${encodeURIComponent(find)}`);
    if (!answer.ok) return deps.complain(answer);
    const items = /** @type {any[]} */ (answer.body.items);
    byId('trace').hidden = true;
    say(
      deps.statusRegion,
      items.length === 0 ? pageWord('page.trace.noneFound', 'No subscription found.') : w('page.trace.found', '@count found.', { count: String(items.length) }),
    );
    byId('found-list').replaceChildren(
      ...items.map((item) => {
        const open = el('button', { type: 'button', class: 'secondary small' }, pageWord('page.trace.why', 'Why did they get what they got?'));
        open.addEventListener('click', () => void openTrace(item.publicId, deps));
        return el(
          'li',
          {},
          el('strong', {}, item.displayName),
          el(
            'span',
            { class: 'hint' },
            ` ${deps.feedName(item.feedId)} · ${deps.channelName(item.provider)} · ${item.isActive ? pageWord('page.trace.activeLower', 'active') : pageWord('page.trace.notActiveLower', 'not active')} · ${item.publicId}`,
          ),
          el('div', { class: 'actions' }, open),
        );
      }),
    );
  });
}
