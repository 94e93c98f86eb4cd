// @ts-check
// The manage page: /manage/{publicId}#token=…; the token stays in the fragment (never sent in a URL) and
// goes to the API as X-Subscription-Token.
import { callApi, loadCatalog, loadLocales, loadProviders } from './api-client.js';
import { explain, readerWords } from './failure-words.js';
import { byId, el, say } from './dom.js';
import { currentPageLanguage, installLanguageSwitch, onLanguageChange } from './page-words.js';
import { readFilterFields, renderFilterFields } from './filter-fields.js';
import { deliveredBy, eventTypeChoices, eventTypeLabel, preferencesChange, quietHoursWords, updateRequest } from './form-values.js';
import { dateTime } from './times.js';
import { linkSetup } from './link-setup.js';
import { showCalendarLinks } from './calendar-links.js';
import { forgetBrowser } from './browser-push.js';
import { createMap, drawPlace, frame, mapsAvailable } from './map-view.js';
import { createPlacePicker, loadMapSettings } from './place-picker.js';
import { pageWord } from './page-words.js';
import { placeWords } from './places.js';

/**
 * @typedef {import('./form-values.js').Feed} Feed
 * @typedef {import('./form-values.js').Provider} Provider
 * @typedef {{ publicId: string, displayName: string, feedId: string, isActive: boolean, subscribeUrl: string | null, subscribeSteps: string[], createdAt: string,
 *   filter: { feeders?: string[], locationKeywords?: string[], keywords?: string[], fields?: Record<string, string[]>, eventTypes?: string[], places?: import('./places.js').Place[] },
 *   preferences?: import('./form-values.js').Preferences,
 *   delivery: { provider: string, destination: string } }} Subscription
 */

// '' on /manage itself: the list of every alert the token manages.
const parts = location.pathname.split('/').filter(Boolean);
const publicId = parts.length > 1 ? decodeURIComponent(parts.at(-1) ?? '') : '';
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
const apiPath = `/api/notification-subscriptions/${encodeURIComponent(publicId)}`;
const alertRegion = byId('manage-error');
const statusRegion = byId('manage-status');
const buttons = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll('#subscription button')]);
/** @type {Subscription | undefined} */
let subscription;
/** @type {Feed | undefined} */
let feedOfSubscription;
/** @type {Provider | undefined} */
let providerOfSubscription;
/** The live countdown to the next test, while one runs. @type {ReturnType<typeof setInterval> | undefined} */
let countdown;
const timeZone = () => feedOfSubscription?.timeZone ?? 'UTC';

/**
 * @param {string} term
 * @param {string} value
 */
const detail = (term, value) => [el('dt', {}, term), el('dd', {}, value)];
/** A filter's values of one field: under its own property (`feeders`) or `fields.<id>`. @param {Subscription['filter']} filter @param {import('./form-values.js').FilterField} field */
const valuesOf = (filter, field) =>
  field.property === field.id ? /** @type {Record<string, string[] | undefined>} */ (/** @type {unknown} */ (filter))[field.id] : filter.fields?.[field.id];
const listOrAny = (/** @type {string[] | undefined} */ list, /** @type {string} */ any) => (list && list.length > 0 ? list.join(', ') : any);

/**
 * The language of the alerts, and, when the way of delivery cannot present it (a call has no voice for it), that
 * they come in English.
 * @param {string | undefined} language
 * @param {Provider | undefined} provider
 */
function alertLanguageWords(language, provider) {
  const name = languageName(language);
  if (!language || !provider?.languages || provider.languages.includes(language)) return name;
  return `${name}: ${pageWord('page.details.inEnglish', 'read in English, since there is no voice for this language')}`;
}

/**
 * @param {Subscription} shown
 * @param {Feed | undefined} feed
 * @param {Provider | undefined} provider
 */
function showSubscription(shown, feed, provider) {
  const { filter, delivery } = shown;
  byId('details-heading').textContent = shown.displayName;
  const status = shown.isActive
    ? pageWord('page.details.active', 'Active')
    : provider?.confirmation
      ? pageWord('page.details.waiting', 'Waiting for you to confirm it: see the message we sent to @destination').replace(
          '@destination',
          () => delivery.destination,
        )
      : pageWord('page.details.stopped', 'Stopped');
  const any = pageWord('page.details.any', 'Any');
  byId('details').replaceChildren(
    ...detail(pageWord('page.feed', 'Feed'), feed?.displayName ?? shown.feedId),
    ...(filter.places?.length ? detail(pageWord('page.where.places', 'Places'), filter.places.map((place) => placeWords(place, pageWord)).join('; ')) : []),
    // Each filter field by the feed's label: what it is narrowed to, or Any.
    ...(feed?.filterFields ?? []).flatMap((field) => detail(field.label, listOrAny(valuesOf(filter, field), any))),
    ...detail(
      pageWord('page.notifyAbout', 'Notify me about'),
      filter.eventTypes?.length
        ? [...new Set(filter.eventTypes.map((type) => eventTypeLabel(feed, type)))].join(', ')
        : pageWord('page.details.everything', 'Everything this feed sends'),
    ),
    ...detail(pageWord('page.details.deliveredBy', 'Delivered by'), deliveredBy(provider, delivery, readerWords)),
    ...detail(pageWord('page.alertLanguage', 'Language of the alerts'), alertLanguageWords(shown.preferences?.language, provider)),
    ...(shown.preferences?.confirm
      ? detail(
          pageWord('page.details.confirm', 'Confirmation'),
          shown.preferences.escalation?.length
            ? pageWord('page.details.confirms', 'Each urgent alert asks you to confirm you got it; if you do not, we try other ways, then someone calls you.')
            : pageWord('page.details.confirmsNoSteps', 'Each urgent alert asks you to confirm you got it; if you do not, someone calls you.'),
        )
      : []),
    ...detail(pageWord('page.quietHours', 'Quiet hours'), quietHoursWords(shown.preferences, feed?.timeZone ?? 'UTC', pageWord)),
    ...detail(pageWord('page.details.status', 'Status'), status),
    ...detail(pageWord('page.details.created', 'Created'), dateTime(new Date(shown.createdAt), feed?.timeZone ?? 'UTC')),
  );
  // A destination the service made (a push topic) comes with a subscribe link to take to the phone.
  if (provider && !provider.destination.required) {
    byId('link-setup').replaceChildren(
      linkSetup(
        { publicId: shown.publicId, subscribeUrl: shown.subscribeUrl, subscribeSteps: shown.subscribeSteps, token },
        provider.subscribeLinkLabel ?? pageWord('page.link.open', 'Open the subscribe link'),
      ),
    );
  }
  showCalendarLinks(byId('calendar-links'), { publicId: shown.publicId, token, hasCalendar: feed?.hasCalendar === true });
  byId('subscription').hidden = false;
  void showPlaces(filter.places ?? []);
}

/** @type {any} */
let placesMap = null;
/** @type {any[]} */
let placeLayers = [];
/** Each place of the subscription on a small map (the details list them in words). @param {import('./places.js').Place[]} places */
async function showPlaces(places) {
  const host = byId('places-map');
  host.hidden = places.length === 0 || !mapsAvailable();
  if (host.hidden) return;
  const settings = await loadMapSettings();
  if (!settings) return void (host.hidden = true);
  placesMap ??= createMap(host, settings);
  placesMap.invalidateSize();
  for (const layer of placeLayers) layer.remove();
  placeLayers = places.map((place) => drawPlace(placesMap, place));
  frame(
    placesMap,
    placeLayers.flatMap((group) => group.getLayers()),
  );
}

/** "Where?" of the Change form, made when it first opens. @type {ReturnType<typeof createPlacePicker> | null} */
let editPicker = null;

/** @param {boolean} busy */
function setBusy(busy) {
  for (const button of buttons) button.disabled = busy;
}

/**
 * Every alert this link's token manages, each linked to its own page (the one shown marked); shown when
 * there are several, or on /manage itself.
 * @param {Feed[]} feeds
 * @param {Provider[]} providers
 */
async function showAllAlerts(feeds, providers) {
  const answer = await callApi('GET', '/api/subscribers/me', { token });
  if (!answer.ok) return publicId === '' ? say(alertRegion, explain(answer.failure, 'view').text) : undefined;
  /** @type {Subscription[]} */
  const all = answer.body;
  if (publicId !== '' && all.length < 2) return;
  byId('all-alerts-list').replaceChildren(
    ...all.map((entry) => {
      const feed = feeds.find((candidate) => candidate.id === entry.feedId);
      const provider = providers.find((candidate) => candidate.provider === entry.delivery.provider);
      const where = entry.filter.locationKeywords?.length ? entry.filter.locationKeywords.join(', ') : pageWord('page.all.everyArea', 'every area');
      const values = { feed: feed?.displayName ?? entry.feedId, where, by: deliveredBy(provider, entry.delivery, readerWords) };
      const text = entry.isActive
        ? readerWords('page.all.entry', '@feed, @where, by @by', values)
        : readerWords('page.all.entryStopped', '@feed, @where, by @by (not active)', values);
      const name =
        entry.publicId === publicId
          ? el('strong', { 'aria-current': 'page' }, entry.displayName)
          : el('a', { href: `/manage/${encodeURIComponent(entry.publicId)}#token=${encodeURIComponent(token)}` }, entry.displayName);
      return el('li', {}, name, el('span', { class: 'hint' }, ` ${text}`));
    }),
  );
  byId('all-alerts').hidden = false;
}

/** The subscription's address, its push app's steps in `language` (the page's). @param {string} language */
const viewPath = (language) => `${apiPath}${language === 'en' ? '' : `?language=${encodeURIComponent(language)}`}`;

/** Whether the page has drawn what it loaded (a language switch before that changes nothing drawn). */
let loaded = false;

async function load() {
  // The page's words, and the feed's and the target's, in the reader's language from the first drawing.
  await Promise.all([localesLoaded, languageSet]);
  // A new subscription made from here joins this link's alerts: the token goes to the subscribe page in this tab's
  // sessionStorage, never in a URL (a link someone sends could otherwise tie a victim's subscription to their token).
  if (token) byId('subscribe-more').addEventListener('click', () => sessionStorage.setItem('np-join-token', token));
  if (!token) {
    byId('loading').hidden = true;
    return say(alertRegion, explain({ status: 401, body: null, retryAfter: null }, 'view').text);
  }
  if (publicId === '') {
    const [catalog, installed] = await Promise.all([loadCatalog(currentPageLanguage()), loadProviders(currentPageLanguage())]);
    byId('loading').hidden = true;
    loaded = true;
    return showAllAlerts(/** @type {Feed[]} */ (catalog.ok ? catalog.body : []), /** @type {Provider[]} */ (installed.ok ? installed.body : []));
  }
  const [answer, catalog, installed] = await Promise.all([
    // The push app's steps in the page's language, as the rest of the page.
    callApi('GET', viewPath(currentPageLanguage()), { token }),
    loadCatalog(currentPageLanguage()),
    loadProviders(currentPageLanguage()),
  ]);
  byId('loading').hidden = true;
  if (!answer.ok) return say(alertRegion, explain(answer.failure, 'view').text);
  subscription = answer.body;
  const feeds = /** @type {Feed[]} */ (catalog.ok ? catalog.body : []);
  feedOfSubscription = feeds.find((feed) => feed.id === answer.body.feedId);
  providerOfSubscription = /** @type {Provider[]} */ (installed.ok ? installed.body : []).find(
    (provider) => provider.provider === answer.body.delivery.provider,
  );
  showSubscription(answer.body, feedOfSubscription, providerOfSubscription);
  await showAllAlerts(feeds, /** @type {Provider[]} */ (installed.ok ? installed.body : []));
  loaded = true;
}

/** Clears the messages of the page (and a countdown that was running): each action starts with a clean slate. */
function clearMessages() {
  clearInterval(countdown);
  countdown = undefined;
  byId('test-button').removeAttribute('disabled');
  say(alertRegion, '');
  say(statusRegion, '');
}

/**
 * The wait before the next test, counted down each second where the person reads it; at zero the button is back.
 * @param {import('./error-words.js').ApiFailure} failure
 * @param {number} seconds
 */
function countDown(failure, seconds) {
  const until = Date.now() + seconds * 1000;
  const testButton = /** @type {HTMLButtonElement} */ (byId('test-button'));
  const show = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      clearMessages();
      return say(statusRegion, pageWord('page.test.again', 'You can send a test notification again.'));
    }
    testButton.disabled = true;
    say(alertRegion, explain({ ...failure, retryAfter: String(left) }, 'test', timeZone()).text);
  };
  show();
  countdown = setInterval(show, 1000);
}

async function sendTest() {
  clearMessages();
  setBusy(true);
  const answer = await callApi('POST', `${apiPath}/test`, { token });
  setBusy(false);
  if (!answer.ok) {
    const seconds = answer.failure.status === 429 ? Number(answer.failure.retryAfter) : NaN;
    if (Number.isFinite(seconds) && seconds > 0) return countDown(answer.failure, seconds);
    return say(alertRegion, explain(answer.failure, 'test', timeZone()).text);
  }
  const by = providerOfSubscription?.displayName ?? subscription?.delivery.provider ?? '';
  if (answer.body.deliveredCount > 0) {
    say(statusRegion, readerWords('page.test.sent', 'Test sent by @by: it should reach you within a few minutes.', { by }));
  } else {
    say(
      statusRegion,
      readerWords(
        'page.test.notDelivered',
        'The test could not be delivered right now. The service keeps trying; if nothing arrives, its @by delivery may be down or not set up.',
        { by },
      ),
    );
  }
}

function askDelete() {
  clearMessages();
  byId('actions').hidden = true;
  byId('delete-confirm').hidden = false;
  byId('delete-no').focus();
}

function keep() {
  clearMessages();
  byId('delete-confirm').hidden = true;
  byId('actions').hidden = false;
  byId('delete-button').focus();
}

async function deleteSubscription() {
  clearMessages();
  setBusy(true);
  const answer = await callApi('DELETE', apiPath, { token });
  setBusy(false);
  if (!answer.ok) {
    keep();
    return say(alertRegion, explain(answer.failure, 'delete', timeZone()).text);
  }
  // A browser notification subscription: this browser stops asking its push service for it too.
  if (providerOfSubscription?.destination.browserSubscription && subscription) await forgetBrowser(subscription.delivery.destination);
  subscription = undefined;
  byId('subscription').hidden = true;
  byId('link-setup').hidden = true;
  byId('calendar-links').hidden = true;
  say(statusRegion, pageWord('page.deleted', 'Subscription deleted. You will get no more alerts from it.'));
  /** @type {HTMLElement} */ (document.querySelector('h1')).focus();
}

/** The languages the service writes (GET /api/locales); English alone until they load. */
let locales = [{ code: 'en', name: 'English' }];
/** The page in the reader's language (its switch filled). */
const languageSet = installLanguageSwitch(/** @type {HTMLSelectElement} */ (byId('page-language')));
const localesLoaded = loadLocales().then((answer) => {
  if (answer.ok) locales = /** @type {{ locales: Array<{ code: string, name: string }> }} */ (answer.body).locales;
});
const languageName = (/** @type {string | undefined} */ code) => locales.find((locale) => locale.code === (code ?? 'en'))?.name ?? code ?? 'English';

const editForm = /** @type {HTMLFormElement} */ (byId('edit-form'));
const editInput = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (byId(`edit-${name}`));

/** Opens "Change" with the subscription as it is: its name, its filter, the feed's kinds of alerts. */
/**
 * The Change form's event types, in the feed's words of the page's language, `ticked` ticked.
 * @param {Feed} feed
 * @param {Set<string>} ticked
 */
function drawTypeBoxes(feed, ticked) {
  byId('edit-type-boxes').replaceChildren(
    ...eventTypeChoices(feed).map((choice, index) =>
      el(
        'div',
        { class: 'choice' },
        el('input', {
          type: 'checkbox',
          id: `edit-type-${index}`,
          name: 'eventTypes',
          value: choice.types.join(','),
          ...(choice.types.some((type) => ticked.has(type)) ? { checked: '' } : {}),
        }),
        el('label', { for: `edit-type-${index}` }, choice.label),
      ),
    ),
  );
}

/**
 * The open Change form written again in the feed's words of the language switched to, keeping what the reader
 * typed, ticked and chose.
 */
function redrawEdit() {
  const feed = feedOfSubscription;
  if (editForm.hidden || !feed) return;
  const typed = readFilterFields(feed.filterFields, 'edit-');
  const ticked = new Set(
    /** @type {HTMLInputElement[]} */ ([...byId('edit-type-boxes').querySelectorAll('input:checked')]).flatMap((box) => box.value.split(',')),
  );
  renderFilterFields(byId('edit-filter-fields'), feed.filterFields, typed, { prefix: 'edit-' });
  drawTypeBoxes(feed, ticked);
  if (editPicker && mapsAvailable()) {
    const places = editPicker.places();
    void loadMapSettings().then((settings) => {
      if (!settings) return;
      byId('edit-where').replaceChildren();
      editPicker = createPlacePicker(byId('edit-where'), 'edit-where', settings);
      editPicker.setPlaces(places);
      editPicker.refresh();
    });
  }
}

function openEdit() {
  const feed = feedOfSubscription;
  if (!subscription || !feed) return;
  clearMessages();
  const { filter } = subscription;
  editInput('name').value = subscription.displayName;
  renderFilterFields(
    byId('edit-filter-fields'),
    feed.filterFields,
    Object.fromEntries(feed.filterFields.map((field) => [field.id, (valuesOf(filter, field) ?? []).join(', ')])),
    { prefix: 'edit-' },
  );
  const language = /** @type {HTMLSelectElement} */ (byId('edit-language'));
  language.replaceChildren(
    ...locales.map((locale) =>
      el(
        'option',
        { value: locale.code, lang: locale.code, ...(locale.code === (subscription?.preferences?.language ?? 'en') ? { selected: '' } : {}) },
        locale.name,
      ),
    ),
  );
  const quiet = subscription.preferences?.quietHours;
  editInput('quiet-on').checked = quiet !== undefined;
  if (quiet) {
    editInput('quiet-start').value = quiet.start;
    editInput('quiet-end').value = quiet.end;
  }
  const where = byId('edit-where');
  where.hidden = !feed.hasMap;
  if (feed.hasMap) {
    void loadMapSettings().then((settings) => {
      if (!settings) return void (where.hidden = true);
      editPicker ??= createPlacePicker(where, 'edit-where', settings);
      editPicker.setPlaces(filter.places ?? []);
      editPicker.refresh();
    });
  }
  drawTypeBoxes(feed, new Set(filter.eventTypes ?? []));
  byId('actions').hidden = true;
  editForm.hidden = false;
  editInput('name').focus();
}

function closeEdit() {
  editForm.hidden = true;
  byId('actions').hidden = false;
  byId('edit-button').focus();
}

async function saveEdit(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const feed = feedOfSubscription;
  if (!feed) return;
  clearMessages();
  const eventTypes = /** @type {HTMLInputElement[]} */ ([...editForm.querySelectorAll('input[name="eventTypes"]:checked')]).map((box) => box.value);
  const quiet = { on: editInput('quiet-on').checked, start: editInput('quiet-start').value, end: editInput('quiet-end').value };
  const body = {
    ...updateRequest(feed, {
      name: editInput('name').value,
      fields: readFilterFields(feed.filterFields, 'edit-'),
      eventTypes,
      places: editPicker && !byId('edit-where').hidden ? editPicker.places() : (subscription?.filter.places ?? []),
    }),
    preferences: preferencesChange(
      subscription?.preferences,
      quiet,
      Intl.DateTimeFormat().resolvedOptions().timeZone,
      /** @type {HTMLSelectElement} */ (byId('edit-language')).value || undefined,
    ),
  };
  const save = /** @type {HTMLButtonElement} */ (byId('edit-save'));
  save.disabled = true;
  const answer = await callApi('PATCH', apiPath, { token, body });
  save.disabled = false;
  if (!answer.ok) return say(alertRegion, explain(answer.failure, 'edit', timeZone()).text);
  subscription = answer.body;
  showSubscription(answer.body, feedOfSubscription, providerOfSubscription);
  closeEdit();
  say(statusRegion, pageWord('page.saved', 'Saved: the next alerts follow your changes.'));
}

byId('edit-button').addEventListener('click', openEdit);
// The details are written by the page: written again in the language the reader switches to.
onLanguageChange((code) => {
  if (subscription) showSubscription(subscription, feedOfSubscription, providerOfSubscription);
  if (!loaded) return;
  // The feed's and the target's own words (names, event types, filter fields) come in the new language with their
  // catalogs, for this subscription and the list of all the link's alerts.
  void Promise.all([loadCatalog(code), loadProviders(code), subscription ? callApi('GET', viewPath(code), { token }) : null]).then(
    ([catalog, installed, view]) => {
      if (code !== currentPageLanguage()) return;
      // The push app's steps come in the new language with the subscription read again.
      if (view?.ok && subscription) subscription = view.body;
      const feeds = /** @type {Feed[]} */ (catalog.ok ? catalog.body : []);
      const providers = /** @type {Provider[]} */ (installed.ok ? installed.body : []);
      if (subscription) {
        feedOfSubscription = feeds.find((feed) => feed.id === subscription?.feedId) ?? feedOfSubscription;
        providerOfSubscription = providers.find((provider) => provider.provider === subscription?.delivery.provider) ?? providerOfSubscription;
        showSubscription(subscription, feedOfSubscription, providerOfSubscription);
        redrawEdit();
      }
      void showAllAlerts(feeds, providers);
    },
  );
});
byId('edit-cancel').addEventListener('click', closeEdit);
editForm.addEventListener('submit', (event) => void saveEdit(event));
byId('test-button').addEventListener('click', () => void sendTest());
byId('delete-button').addEventListener('click', askDelete);
byId('delete-no').addEventListener('click', keep);
byId('delete-yes').addEventListener('click', () => void deleteSubscription());
// /manage itself is the list of every alert of the link: its heading says so, once (the list's own heading goes).
if (publicId === '') {
  const heading = /** @type {HTMLElement} */ (document.querySelector('h1'));
  heading.textContent = 'All your alerts';
  heading.setAttribute('data-i18n', 'page.allAlerts');
  const title = /** @type {HTMLElement} */ (document.querySelector('title'));
  title.textContent = 'All your alerts';
  title.setAttribute('data-i18n', 'page.allAlerts');
  byId('all-alerts-heading').hidden = true;
}
void load();
