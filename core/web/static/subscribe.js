// @ts-check
// The subscribe page: the catalog fills the form, the form becomes a create request, the answer is shown.
import { callApi, explain, loadCatalog } from './api-client.js';
import { byId, el, say } from './dom.js';
import { createRequest, derivedName, eventTypeChoices, splitList } from './form-values.js';
import { pushSetup } from './push-setup.js';
import { showCalendarLinks } from './calendar-links.js';

/** @typedef {import('./form-values.js').Feed} Feed */

const form = /** @type {HTMLFormElement} */ (byId('subscribe-form'));
const feedSelect = /** @type {HTMLSelectElement} */ (byId('feed'));
const alertRegion = byId('form-error');
const button = /** @type {HTMLButtonElement} */ (byId('subscribe-button'));
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (byId(id));
const providerRadios = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[name="provider"]')]);

/** @type {Feed[]} */
let feeds = [];

const selectedFeed = () => feeds.find((feed) => feed.id === feedSelect.value);
const selectedProvider = () => providerRadios.find((radio) => radio.checked)?.value ?? '';

/** Form fields by the names error-words.js uses. */
const FIELD_IDS = /** @type {Record<string, string>} */ ({
  email: 'email', provider: 'deliver-push', areas: 'areas', feeders: 'feeders', keywords: 'keywords', name: 'name', feed: 'feed',
});

function updateNameHint() {
  const feed = selectedFeed();
  if (!feed) return;
  const can = (/** @type {string} */ field) => feed.filterableFields.includes(field);
  input('name').placeholder = derivedName(feed.displayName, can('Area') ? splitList(input('areas').value) : [], can('Feeder') ? splitList(input('feeders').value) : []);
}

/** Shows the filters and event types the chosen feed offers. */
function showFeed() {
  const feed = selectedFeed();
  if (!feed) return;
  byId('areas-field').hidden = !feed.filterableFields.includes('Area');
  byId('feeders-field').hidden = !feed.filterableFields.includes('Feeder');
  byId('keywords-field').hidden = !feed.filterableFields.includes('Keywords');
  const choices = byId('event-type-choices');
  choices.replaceChildren(
    ...eventTypeChoices(feed).map(({ label, hint, types }) => {
      const id = `event-${types[0]}`;
      const hintId = `${id}-hint`;
      return el(
        'div',
        { class: 'choice with-hint' },
        el('input', { type: 'checkbox', id, name: 'eventTypes', value: types.join(','), ...(hint ? { 'aria-describedby': hintId } : {}) }),
        el('label', { for: id }, label),
        ...(hint ? [el('p', { class: 'hint', id: hintId }, hint)] : []),
      );
    }),
  );
  byId('event-types').hidden = feed.eventTypes.length === 0;
  updateNameHint();
}

function showProvider() {
  byId('email-field').hidden = selectedProvider() !== 'Email';
}

/** Offers only the delivery providers this service has (the page is served with their list). */
function offerProviders() {
  const offered = (form.dataset.providers ?? '').split(' ').filter(Boolean);
  for (const radio of providerRadios) {
    if (offered.includes(radio.value)) continue;
    radio.disabled = true;
    radio.checked = false;
    radio.labels?.[0]?.append(el('span', { class: 'optional' }, ' (not offered here)'));
  }
  if (!selectedProvider()) {
    const first = providerRadios.find((radio) => !radio.disabled);
    if (first) first.checked = true;
  }
  showProvider();
}

async function fillFeeds() {
  const answer = await loadCatalog();
  if (!answer.ok) return say(alertRegion, explain(answer.failure, 'catalog').text);
  feeds = answer.body;
  feedSelect.replaceChildren(...feeds.map((feed) => el('option', { value: feed.id }, feed.displayName)));
  feedSelect.disabled = feeds.length === 0;
  if (feeds.length === 0) return say(alertRegion, 'This service offers no feeds yet.');
  showFeed();
}

/**
 * Marks the field an error is about and moves the focus there.
 * @param {string | null} field
 */
function markInvalid(field) {
  const target = field === 'eventTypes' ? form.querySelector('input[name="eventTypes"]') : field && FIELD_IDS[field] ? byId(FIELD_IDS[field]) : null;
  if (!(target instanceof HTMLElement)) return;
  target.setAttribute('aria-invalid', 'true');
  target.setAttribute('aria-errormessage', 'form-error');
  target.focus();
}

/**
 * @param {{ publicId: string, displayName: string, delivery: { provider: string, destination: string }, subscribeUrl: string | null, manageToken: string }} created
 */
function showResult(created) {
  const manageUrl = `/manage/${encodeURIComponent(created.publicId)}#token=${encodeURIComponent(created.manageToken)}`;
  const manage = el(
    'div',
    { class: 'manage-link' },
    el('p', {}, el('a', { href: manageUrl }, 'Manage this subscription')),
    el('p', { class: 'hint' }, 'Keep this link (bookmark it): it is the only way to send a test or delete this subscription, and it is shown only this once.'),
  );
  const calendar = el('div', { class: 'calendar-links' });
  showCalendarLinks(calendar, { publicId: created.publicId, token: created.manageToken, hasCalendar: selectedFeed()?.hasCalendar === true });
  const body = byId('result-body');
  if (created.delivery.provider === 'Email') {
    byId('result-heading').textContent = 'Check your inbox';
    body.replaceChildren(
      el('p', {}, 'We sent a link to ', el('strong', { class: 'unbroken' }, created.delivery.destination), '. Open it to confirm the address: your alerts “', created.displayName, '” start then.'),
      el('p', { class: 'hint' }, 'Nothing there after a few minutes? Look in the spam folder. Until you confirm, nothing else is sent.'),
      calendar,
      manage,
    );
  } else {
    byId('result-heading').textContent = 'You are subscribed';
    body.replaceChildren(
      el('p', {}, `Your alerts “${created.displayName}” arrive as push notifications in the ntfy app.`),
      pushSetup({ publicId: created.publicId, subscribeUrl: created.subscribeUrl, token: created.manageToken }),
      calendar,
      manage,
    );
  }
  form.hidden = true;
  byId('intro').hidden = true;
  const result = byId('result');
  result.hidden = false;
  result.focus();
}

async function submit(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const feed = selectedFeed();
  if (!feed || button.disabled) return;
  say(alertRegion, '');
  for (const invalid of form.querySelectorAll('[aria-invalid]')) {
    invalid.removeAttribute('aria-invalid');
    invalid.removeAttribute('aria-errormessage');
  }
  const provider = selectedProvider();
  if (provider === 'Email' && input('email').value.trim() === '') {
    say(alertRegion, 'Email address: please enter the address the alerts should go to.');
    return markInvalid('email');
  }
  const eventTypes = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[name="eventTypes"]:checked')]).map((box) => box.value);
  const body = createRequest(feed, {
    feedId: feed.id, areas: input('areas').value, feeders: input('feeders').value, keywords: input('keywords').value,
    eventTypes, provider, email: input('email').value, name: input('name').value,
  });
  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  const answer = await callApi('POST', '/api/notification-subscriptions', { body });
  button.disabled = false;
  form.removeAttribute('aria-busy');
  if (answer.ok) return showResult(answer.body);
  const explanation = explain(answer.failure, 'subscribe', feed.timeZone);
  say(alertRegion, explanation.text);
  markInvalid(explanation.field);
}

feedSelect.addEventListener('change', showFeed);
for (const radio of providerRadios) radio.addEventListener('change', showProvider);
input('areas').addEventListener('input', updateNameHint);
input('feeders').addEventListener('input', updateNameHint);
form.addEventListener('submit', (event) => void submit(event));
offerProviders();
void fillFeeds();
