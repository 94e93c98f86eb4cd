// @ts-check
// The subscribe page: the catalog fills the form, the form becomes a create request, the answer is shown.
import { callApi, loadCatalog, loadLocales, loadProviders } from './api-client.js';
import { explain, readerWords } from './failure-words.js';
import { byId, el, say } from './dom.js';
import { currentPageLanguage, installLanguageSwitch, onLanguageChange, pageWord } from './page-words.js';
import { createRequest, derivedName, eventTypeChoices, fillTemplate, filterOfFields, pickLanguage, withDestination } from './form-values.js';
import { inputIdOf, readFilterFields, renderFilterFields } from './filter-fields.js';
import { linkSetup } from './link-setup.js';
import { showCalendarLinks } from './calendar-links.js';
import { subscribeBrowser } from './browser-push.js';
import { codeForm } from './code-confirm.js';
import { createPlacePicker, loadMapSettings } from './place-picker.js';

/** @typedef {import('./form-values.js').Feed} Feed */
/** @typedef {import('./form-values.js').Provider} Provider */

const form = /** @type {HTMLFormElement} */ (byId('subscribe-form'));
const feedSelect = /** @type {HTMLSelectElement} */ (byId('feed'));
const alertRegion = byId('form-error');
const button = /** @type {HTMLButtonElement} */ (byId('subscribe-button'));
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (byId(id));
const providerRadios = () => /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[name="provider"]')]);

/** @type {Feed[]} */
let feeds = [];
/** @type {Provider[]} */
let providers = [];
/** "Where?": made the first time a feed with shapes is chosen. @type {ReturnType<typeof createPlacePicker> | null} */
let picker = null;
/** The language the picker was made in. */
let pickerLanguage = '';

const selectedFeed = () => feeds.find((feed) => feed.id === feedSelect.value);
/** @returns {Provider | undefined} */
const selectedProvider = () => providers.find((provider) => provider.provider === providerRadios().find((radio) => radio.checked)?.value);

/** Form fields by the names error-words.js uses (a feed's own field `field-<id>` is its input's id already). */
const FIELD_IDS = /** @type {Record<string, string>} */ ({
  destination: 'destination',
  areas: 'areas',
  feeders: 'feeders',
  keywords: 'keywords',
  name: 'name',
  feed: 'feed',
  where: 'where-radius',
});
const fieldInputOf = (/** @type {string} */ field) => FIELD_IDS[field] ?? (field.startsWith('field-') ? field : undefined);

/** The destination field's label, where it is not the usual one (error messages name the field by it). */
const fieldLabels = () => ({
  destination: selectedProvider()?.destination.label ?? pageWord('page.destination', 'Destination'),
  // The feed's filter fields by its own labels.
  ...Object.fromEntries((selectedFeed()?.filterFields ?? []).map((field) => [inputIdOf(field.id), field.label])),
});

function updateNameHint() {
  const feed = selectedFeed();
  if (!feed) return;
  input('name').placeholder = derivedName(feed.displayName, filterOfFields(feed, readFilterFields(feed.filterFields)).values);
}

/** The chosen feed's filter fields, what was typed in them kept (a feed chosen again, the page in another language). */
function showFilterFields() {
  const feed = selectedFeed();
  if (!feed) return;
  const typed = Object.fromEntries(feeds.flatMap((each) => Object.entries(readFilterFields(each.filterFields))));
  renderFilterFields(byId('filter-fields'), feed.filterFields, typed, { onInput: updateNameHint });
}

/** Shows the filters and event types the chosen feed offers. */
function showFeed() {
  const feed = selectedFeed();
  if (!feed) return;
  // A feed switched off is offered still (a subscription waits for it), and says so.
  byId('feed-unwatched').hidden = feed.watched !== false;
  // Described by the line only while it shows (a hidden element named by aria-describedby is read all the same).
  if (feed.watched === false) feedSelect.setAttribute('aria-describedby', 'feed-unwatched');
  else feedSelect.removeAttribute('aria-describedby');
  showFilterFields();
  const choices = byId('event-type-choices');
  // What was ticked stays ticked when the page writes the choices again in another language.
  const ticked = new Set([...choices.querySelectorAll('input:checked')].map((box) => /** @type {HTMLInputElement} */ (box).value));
  choices.replaceChildren(
    ...eventTypeChoices(feed).map(({ label, hint, types }) => {
      const id = `event-${types[0]}`;
      const hintId = `${id}-hint`;
      const value = types.join(',');
      return el(
        'div',
        { class: 'choice with-hint' },
        el('input', {
          type: 'checkbox',
          id,
          name: 'eventTypes',
          value,
          ...(hint ? { 'aria-describedby': hintId } : {}),
          ...(ticked.has(value) ? { checked: '' } : {}),
        }),
        el('label', { for: id }, label),
        ...(hint ? [el('p', { class: 'hint', id: hintId }, hint)] : []),
      );
    }),
  );
  byId('event-types').hidden = feed.eventTypes.length === 0;
  void showWhere(feed);
  updateNameHint();
}

/** "Where?" for a feed that gives its items' shapes (its outages on a map): places to be alerted about. @param {Feed} feed */
async function showWhere(feed) {
  const where = byId('where-field');
  where.hidden = !feed.hasMap;
  if (!feed.hasMap) return;
  // Made once, and made again (its places kept) when the page has changed language since.
  if (!picker || pickerLanguage !== currentPageLanguage()) {
    const settings = await loadMapSettings();
    if (!settings) return void (where.hidden = true);
    const places = picker?.places() ?? [];
    pickerLanguage = currentPageLanguage();
    where.replaceChildren();
    picker = createPlacePicker(where, 'where', settings);
    picker.setPlaces(places);
  }
  picker.refresh();
}

/** Shows the destination field the chosen provider asks for (an email address), or none when it makes its own. */
function showProvider() {
  const provider = selectedProvider();
  const spec = provider?.destination;
  const field = input('destination');
  byId('destination-field').hidden = !spec?.required;
  if (!spec?.required) return;
  byId('destination-label').textContent = spec.label ?? pageWord('page.destination', 'Destination');
  byId('destination-hint').textContent = spec.hint ?? '';
  field.type = spec.inputType ?? 'text';
  field.autocomplete = /** @type {AutoFill} */ (spec.autocomplete ?? 'off');
  if (spec.inputType && spec.inputType !== 'text') field.inputMode = spec.inputType;
  else field.removeAttribute('inputmode');
  field.placeholder = spec.placeholder ?? '';
}

/** The "Deliver by" choices: every installed provider; those that cannot deliver yet are shown, not offered. */
async function fillProviders() {
  const language = currentPageLanguage();
  const answer = await loadProviders(language);
  // An answer in a language the page has left since (the reader switched again) is not shown.
  if (language !== currentPageLanguage()) return;
  const choices = byId('provider-choices');
  if (!answer.ok) {
    choices.replaceChildren();
    return say(alertRegion, explain(answer.failure, 'catalog').text);
  }
  // The way chosen stays chosen when the page writes the choices again in another language.
  const chosen = selectedProvider()?.provider;
  providers = answer.body;
  choices.replaceChildren(
    ...providers.map((provider, index) => {
      const id = `deliver-${index}`;
      return el(
        'div',
        { class: 'choice' },
        el('input', {
          type: 'radio',
          id,
          name: 'provider',
          value: provider.provider,
          ...(provider.available ? {} : { disabled: '' }),
          ...(provider.available && provider.provider === chosen ? { checked: '' } : {}),
        }),
        el(
          'label',
          { for: id },
          provider.displayName,
          ...(provider.available ? [] : [el('span', { class: 'optional' }, ` ${pageWord('page.notAvailable', '(not available here yet)')}`)]),
        ),
      );
    }),
  );
  const offered = providerRadios().filter((radio) => !radio.disabled);
  // One way offered: chosen already. Several: the person chooses (no order of plugins makes one the default).
  if (offered.length === 1) offered[0].checked = true;
  else if (offered.length === 0) {
    button.disabled = true;
    say(alertRegion, pageWord('page.noTargets', 'This service cannot deliver alerts yet: no way of delivery is set up. Please come back later.'));
  }
  for (const radio of providerRadios()) radio.addEventListener('change', showProvider);
  showProvider();
}

async function fillFeeds() {
  const language = currentPageLanguage();
  const answer = await loadCatalog(language);
  if (language !== currentPageLanguage()) return;
  if (!answer.ok) return say(alertRegion, explain(answer.failure, 'catalog').text);
  feeds = answer.body;
  const chosen = feedSelect.value;
  feedSelect.replaceChildren(...feeds.map((feed) => el('option', { value: feed.id, ...(feed.id === chosen ? { selected: '' } : {}) }, feed.displayName)));
  feedSelect.disabled = feeds.length === 0;
  if (feeds.length === 0) return say(alertRegion, pageWord('page.noFeeds', 'This service offers no feeds yet.'));
  showFeed();
}

/**
 * Marks the field an error is about and moves the focus there.
 * @param {string | null} field
 */
function markInvalid(field) {
  const firstOf = (/** @type {string} */ name) => form.querySelector(`input[name="${name}"]:not([disabled])`);
  const target =
    field === 'eventTypes' || field === 'provider'
      ? firstOf(field)
      : field && fieldInputOf(field)
        ? document.getElementById(/** @type {string} */ (fieldInputOf(field)))
        : null;
  if (!(target instanceof HTMLElement)) return;
  target.setAttribute('aria-invalid', 'true');
  target.setAttribute('aria-errormessage', 'form-error');
  target.focus();
}

/** The subscription whose result the page shows (written again on a language switch). @type {any} */
let shownResult = null;

/**
 * @param {{ publicId: string, displayName: string, isActive: boolean, delivery: { provider: string, destination: string },
 *   subscribeUrl: string | null, subscribeSteps: string[], manageToken: string }} created
 */
function showResult(created, { focus = true } = {}) {
  shownResult = created;
  const manageUrl = `/manage/${encodeURIComponent(created.publicId)}#token=${encodeURIComponent(created.manageToken)}`;
  const manage = el(
    'div',
    { class: 'manage-link' },
    el('p', {}, el('a', { href: manageUrl }, pageWord('page.result.manage', 'Manage this subscription'))),
    el(
      'p',
      { class: 'hint' },
      pageWord(
        'page.result.keepLink',
        'Keep this link (bookmark it): it is the only way to send a test or delete this subscription, and it is shown only this once.',
      ),
    ),
  );
  const calendar = el('div', { class: 'calendar-links' });
  showCalendarLinks(calendar, { publicId: created.publicId, token: created.manageToken, hasCalendar: selectedFeed()?.hasCalendar === true });
  const body = byId('result-body');
  const provider = providers.find((entry) => entry.provider === created.delivery.provider);
  const destination = created.delivery.destination;
  if (!created.isActive) {
    const words = provider?.confirmation ?? {
      heading: pageWord('page.result.confirmHeading', 'Confirm your subscription'),
      text: pageWord('page.result.confirmText', 'We sent a message to @destination. Follow it to confirm: your alerts start then.').replace(
        '@destination',
        '{destination}',
      ),
    };
    byId('result-heading').textContent = words.heading;
    // A code the person may type here (a text message's), where the target takes one.
    const code = words.codeUrl
      ? [
          codeForm({
            codeUrl: words.codeUrl,
            publicId: created.publicId,
            token: created.manageToken,
            onConfirmed: () => showResult({ ...created, isActive: true }),
          }),
        ]
      : [];
    body.replaceChildren(
      el('p', {}, ...withDestination(words.text, destination).map((part, index) => (index % 2 === 1 ? el('strong', { class: 'unbroken' }, part) : part))),
      ...code,
      el('p', { class: 'hint' }, pageWord('page.result.untilConfirmed', 'Until you confirm, nothing else is sent.')),
      calendar,
      manage,
    );
  } else {
    byId('result-heading').textContent = pageWord('page.result.subscribed', 'You are subscribed');
    const by = provider?.displayName ?? created.delivery.provider;
    const kept = (provider?.shownOnce ?? []).filter(({ field }) => typeof (/** @type {Record<string, unknown>} */ (created)[field]) === 'string');
    body.replaceChildren(
      el(
        'p',
        {},
        ...fillTemplate(
          provider?.destination.required
            ? pageWord('page.result.youWillGetAt', 'You will get your alerts “@name” by @by at @destination.')
            : pageWord('page.result.youWillGet', 'You will get your alerts “@name” by @by.'),
          { name: created.displayName, by, destination: el('strong', { class: 'unbroken' }, destination) },
        ),
      ),
      ...kept.map(({ field, description }) =>
        el(
          'div',
          { class: 'manage-link' },
          el('p', {}, description),
          el('p', {}, el('code', { class: 'unbroken' }, String(/** @type {Record<string, unknown>} */ (created)[field]))),
        ),
      ),
      ...(provider?.destination.required
        ? []
        : [
            linkSetup(
              { publicId: created.publicId, subscribeUrl: created.subscribeUrl, subscribeSteps: created.subscribeSteps, token: created.manageToken },
              provider?.subscribeLinkLabel ?? pageWord('page.result.openLink', 'Open the subscribe link'),
            ),
          ]),
      calendar,
      manage,
    );
  }
  form.hidden = true;
  byId('intro').hidden = true;
  const result = byId('result');
  result.hidden = false;
  if (focus) result.focus();
}

/**
 * The result shown, written again in the language switched to: the target's words with its catalog, the push
 * app's steps read again in that language (the manage token allows it). A code being typed is left as it is.
 * @param {string} language
 */
async function redrawResult(language) {
  const created = shownResult;
  if (!created || byId('result').hidden) return;
  if (/** @type {HTMLInputElement | null} */ (document.getElementById('confirm-code'))?.value) return;
  const path = `/api/notification-subscriptions/${encodeURIComponent(created.publicId)}${language === 'en' ? '' : `?language=${encodeURIComponent(language)}`}`;
  const answer = await callApi('GET', path, { token: created.manageToken });
  if (language !== currentPageLanguage() || created !== shownResult) return;
  showResult({ ...created, ...(answer.ok ? { subscribeSteps: answer.body.subscribeSteps, isActive: answer.body.isActive } : {}) }, { focus: false });
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
  if (!provider) {
    say(alertRegion, pageWord('page.chooseTarget', 'Deliver by: please choose how the alerts should reach you.'));
    return markInvalid('provider');
  }
  const required = provider.destination.required;
  if (required && input('destination').value.trim() === '') {
    say(alertRegion, readerWords('page.enterDestination', '@field: please enter where the alerts should go.', { field: fieldLabels().destination }));
    return markInvalid('destination');
  }
  const eventTypes = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[name="eventTypes"]:checked')]).map((box) => box.value);
  const body = createRequest(
    feed,
    {
      feedId: feed.id,
      fields: readFilterFields(feed.filterFields),
      eventTypes,
      provider: provider.provider,
      destination: input('destination').value,
      name: input('name').value,
      language: /** @type {HTMLSelectElement} */ (byId('language')).value,
      places: picker && !byId('where-field').hidden ? picker.places() : [],
    },
    required,
  );
  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  const browser = provider.destination.browserSubscription;
  if (browser) {
    const subscribed = await subscribeBrowser(browser);
    if (!subscribed.ok) {
      button.disabled = false;
      form.removeAttribute('aria-busy');
      say(alertRegion, subscribed.message);
      return;
    }
    /** @type {Record<string, unknown>} */ (body.delivery).subscription = subscribed.subscription;
  }
  const joinToken = sessionStorage.getItem(JOIN_KEY) ?? undefined;
  const answer = await callApi('POST', '/api/notification-subscriptions', { body, ...(joinToken ? { token: joinToken } : {}) });
  button.disabled = false;
  form.removeAttribute('aria-busy');
  if (answer.ok) return showResult(answer.body);
  const explanation = explain(answer.failure, 'subscribe', feed.timeZone, fieldLabels());
  say(alertRegion, explanation.text);
  refused = { failure: answer.failure, timeZone: feed.timeZone ?? 'UTC', text: explanation.text };
  markInvalid(explanation.field);
}

/** The refusal the page shows, said again in the language the reader switches to (while it is still shown). @type {{ failure: any, timeZone: string, text: string } | null} */
let refused = null;
function sayRefusalAgain() {
  if (!refused || alertRegion.textContent !== refused.text) return;
  refused = { ...refused, text: explain(refused.failure, 'subscribe', refused.timeZone, fieldLabels()).text };
  say(alertRegion, refused.text);
}

// Come from a manage page's "Subscribe to something else" (in this tab only, never from a link someone sent):
// the new subscription joins that page's alerts, and the page says so, with a way out.
const JOIN_KEY = 'np-join-token';
if (sessionStorage.getItem(JOIN_KEY)) byId('join-notice').hidden = false;
byId('join-cancel').addEventListener('click', () => {
  sessionStorage.removeItem(JOIN_KEY);
  byId('join-notice').hidden = true;
});

feedSelect.addEventListener('change', showFeed);
form.addEventListener('submit', (event) => void submit(event));
/** The languages the alerts can be written in, the browser's own first choice among them selected. */
async function fillLanguages() {
  const answer = await loadLocales();
  if (!answer.ok) return;
  const { locales, default: fallback } = /** @type {{ locales: Array<{ code: string, name: string }>, default: string }} */ (answer.body);
  // The page's language first (the reader's choice, else the browser's), as the reader would expect.
  const chosen = pickLanguage(
    [currentPageLanguage(), ...(navigator.languages ?? [])],
    locales.map((locale) => locale.code),
    fallback,
  );
  const select = /** @type {HTMLSelectElement} */ (byId('language'));
  select.replaceChildren(
    ...locales.map((locale) => el('option', { value: locale.code, lang: locale.code, ...(locale.code === chosen ? { selected: '' } : {}) }, locale.name)),
  );
  byId('language-field').hidden = false;
}

// The alerts' language follows the page's when the reader switches it, until they choose the alerts' language themselves.
let alertLanguageChosen = false;
byId('language').addEventListener('change', () => {
  alertLanguageChosen = true;
});
onLanguageChange((code) => {
  const select = /** @type {HTMLSelectElement} */ (byId('language'));
  if (!alertLanguageChosen && [...select.options].some((option) => option.value === code)) select.value = code;
});
// The feeds' and the targets' own words (names, event types, filter fields, the destination's label) come in the
// page's language: asked for once the page knows it (its switch put it there), and again at each switch.
let filled = false;
onLanguageChange((code) => {
  filled = true;
  void fillFeeds();
  void fillProviders().then(() => {
    sayRefusalAgain();
    return redrawResult(code);
  });
});
void installLanguageSwitch(/** @type {HTMLSelectElement} */ (byId('page-language'))).then(() => {
  // No language could be set (the languages did not load): the page's English words.
  if (!filled) {
    void fillFeeds();
    void fillProviders();
  }
  return fillLanguages();
});
