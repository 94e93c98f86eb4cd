// @ts-check
// Pure helpers of the subscribe form: what the person typed becomes the API's create request.
import { englishWords } from './error-words.js';

/**
 * @typedef {{ type: string, label: string, hint: string }} EventTypeDetail
 * @typedef {{ id: string, property: string, label: string, hint: string, example: string, match: string }} FilterField
 * @typedef {{ id: string, displayName: string, eventTypes: string[], filterFields: FilterField[],
 *   eventTypeDetails?: EventTypeDetail[], timeZone?: string, hasCalendar?: boolean, hasMap?: boolean, watched?: boolean }} Feed
 * @typedef {{ label: string, hint: string, types: string[] }} EventTypeChoice
 * @typedef {{ required: boolean, description: string, label?: string, inputType?: string, autocomplete?: string, hint?: string, placeholder?: string,
 *   browserSubscription?: { publicKeyUrl: string, serviceWorkerUrl: string } }} DestinationSpec
 * @typedef {{ provider: string, displayName: string, destination: DestinationSpec, available: boolean, unavailableReason: string | null,
 *   confirmation: { heading: string, text: string, codeUrl?: string } | null, subscribeLinkLabel: string | null,
 *   shownOnce?: Array<{ field: string, description: string }>, languages?: string[] | null }} Provider
 * @typedef {{ name?: string, lat: number, lon: number, radiusMeters?: number }} Place
 * @typedef {{ feedId: string, fields: Record<string, string>, eventTypes: string[], provider: string, destination: string, name: string, language?: string, places?: Place[] }} FormInput
 */

/** The longest name the API takes. */
const MAX_NAME_LENGTH = 100;

/**
 * `" Kandy, ,Peradeniya "` → `["Kandy", "Peradeniya"]`: trimmed, empty entries and repeats dropped.
 * @param {string} text
 * @returns {string[]}
 */
export function splitList(text) {
  const seen = new Set();
  const items = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '' || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    items.push(item);
  }
  return items;
}

/**
 * `NewOutage` → `New outage`, `DayBeforeReminder` → `Day before reminder`.
 * @param {string} eventType
 * @returns {string}
 */
export function eventTypeWords(eventType) {
  const words = eventType
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
  return words.map((word, index) => (index === 0 ? word : /^[A-Z]+$/.test(word) && word.length > 1 ? word : word.toLowerCase())).join(' ');
}

/**
 * The "Notify me about" choices of a feed, in its order: one per label the feed gives its event types, so
 * types that mean the same to people (a restoration, an outage first seen already over) are one choice.
 * @param {Feed} feed
 * @returns {EventTypeChoice[]}
 */
export function eventTypeChoices(feed) {
  /** @type {Map<string, EventTypeChoice>} */
  const byLabel = new Map();
  for (const type of feed.eventTypes) {
    const detail = feed.eventTypeDetails?.find((entry) => entry.type === type);
    const label = detail?.label ?? eventTypeWords(type);
    const choice = byLabel.get(label);
    if (choice) choice.types.push(type);
    else byLabel.set(label, { label, hint: detail?.hint ?? '', types: [type] });
  }
  return [...byLabel.values()];
}

/**
 * A choice's checkbox value is its types, comma-joined: the ticked ones back to event types.
 * @param {string[]} values
 * @returns {string[]}
 */
export function typesOfChoices(values) {
  return values.flatMap((value) => value.split(',')).filter(Boolean);
}

/**
 * An event type as people read it: the feed's label for it, else its name in words.
 * @param {Feed | undefined} feed
 * @param {string} type
 * @returns {string}
 */
export function eventTypeLabel(feed, type) {
  return feed?.eventTypeDetails?.find((entry) => entry.type === type)?.label ?? eventTypeWords(type);
}

/**
 * The name used when the person gives none: the feed, then what the filter narrows it to (its places' names, each field's
 * values), at most 100 characters: `Power outages: Home · Kandy · F12`. In no one's words but the feed's and the person's.
 * @param {string} feedName
 * @param {string[][]} values each filter field's values, in the feed's order
 * @param {Place[]} [places]
 * @returns {string}
 */
export function derivedName(feedName, values, places = []) {
  const named = places.flatMap((place) => (place.name ? [place.name] : []));
  const parts = [...(named.length > 0 ? [named.join(', ')] : []), ...values.filter((list) => list.length > 0).map((list) => list.join(', '))];
  const name = parts.length > 0 ? `${feedName}: ${parts.join(' · ')}` : feedName;
  const chars = [...name];
  return chars.length <= MAX_NAME_LENGTH
    ? name
    : `${chars
        .slice(0, MAX_NAME_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The body of POST /api/notification-subscriptions. Only the filters the feed can apply are sent;
 * no event type ticked means all of them (the criterion is left out); the destination only to a
 * provider that takes one.
 * @param {Feed} feed
 * @param {FormInput} input
 * @param {boolean} destinationRequired whether the chosen provider takes a destination (an email address) or makes one
 */
export function createRequest(feed, input, destinationRequired) {
  const { displayName, filter } = updateRequest(feed, input);
  /** @type {{ provider: string, destination?: string }} */
  const delivery = { provider: input.provider };
  if (destinationRequired) delivery.destination = input.destination.trim();
  // English is the default: only another language is a preference to send.
  const preferences = input.language && input.language !== 'en' ? { preferences: { language: input.language } } : {};
  return { displayName, feedId: feed.id, filter, ...preferences, delivery };
}

/**
 * The filter fields' values as a filter: each field's list under its property (`feeders`, or `fields.route` for a feed's own),
 * empty ones left out.
 * @param {Feed} feed
 * @param {Record<string, string>} typed what is typed in each field, by field id
 * @returns {{ filter: Record<string, unknown>, values: string[][] }}
 */
export function filterOfFields(feed, typed) {
  /** @type {Record<string, unknown>} */
  const filter = {};
  /** @type {Record<string, string[]>} */
  const own = {};
  const values = (feed.filterFields ?? []).map((field) => {
    const list = splitList(typed[field.id] ?? '');
    if (list.length > 0) {
      if (field.property === field.id) filter[field.id] = list;
      else own[field.id] = list;
    }
    return list;
  });
  if (Object.keys(own).length > 0) filter.fields = own;
  return { filter, values };
}

/**
 * The body of PATCH /api/notification-subscriptions/{publicId} (the manage page's "Change"): the name and
 * the whole filter, built as a create builds them (only the fields the feed declares; no type ticked: all).
 * @param {Feed} feed
 * @param {Pick<FormInput, 'fields' | 'eventTypes' | 'name' | 'places'>} input
 */
export function updateRequest(feed, input) {
  const { filter, values } = filterOfFields(feed, input.fields);
  // Places only where the feed gives its items' shapes.
  const places = feed.hasMap ? (input.places ?? []) : [];
  const eventTypes = typesOfChoices(input.eventTypes).filter((type) => feed.eventTypes.includes(type));
  const ordered = { ...(places.length > 0 ? { places } : {}), ...filter, ...(eventTypes.length > 0 ? { eventTypes } : {}) };
  return { displayName: input.name.trim() || derivedName(feed.displayName, values, places), filter: ordered };
}

/**
 * A provider's confirmation words with the destination put in: `We sent a link to {destination}.` →
 * `['We sent a link to ', 'me@example.org', '.']` (every odd entry is the destination, to set apart).
 * @param {string} text
 * @param {string} destination
 * @returns {string[]}
 */
export function withDestination(text, destination) {
  return text.split('{destination}').flatMap((part, index) => (index === 0 ? [part] : [destination, part]));
}

/**
 * A sentence's parts with its placeholders filled: `@name` → the value given for `name` (a text or an
 * element), in the sentence's own order, whatever the language puts where. Placeholders come only from
 * the template: a value is never read for placeholders of its own.
 * @template T
 * @param {string} template
 * @param {Record<string, string | T>} values
 * @returns {Array<string | T>}
 */
export function fillTemplate(template, values) {
  return template.split(/@(\w+)/).map((part, index) => (index % 2 === 1 ? (Object.hasOwn(values, part) ? values[part] : `@${part}`) : part));
}

/**
 * How a subscription is delivered, in words: `Email to me@example.org`, `Push notification`.
 * @param {Provider | undefined} provider
 * @param {{ provider: string, destination: string }} delivery
 * @param {import('./error-words.js').Words} [w] the page's words
 * @returns {string}
 */
export function deliveredBy(provider, delivery, w = englishWords) {
  if (!provider) return delivery.provider;
  return provider.destination.required
    ? w('page.details.deliveredTo', '@by to @destination', { by: provider.displayName, destination: delivery.destination })
    : provider.displayName;
}

/**
 * @typedef {{ start: string, end: string, timeZone?: string }} QuietHours
 * @typedef {{ quietHours?: QuietHours, timeZone?: string, language?: string, confirm?: boolean, escalation?: unknown[] }} Preferences
 */

/**
 * The language the alerts are offered in first: the first of the browser's languages (what it sends
 * as Accept-Language, in its order) the service writes, matched on the primary subtag (`ta-IN` → `ta`);
 * else the service's default.
 * @param {readonly string[]} browserLanguages
 * @param {readonly string[]} codes
 * @param {string} fallback
 */
export function pickLanguage(browserLanguages, codes, fallback) {
  for (const tag of browserLanguages) {
    const whole = codes.find((code) => code.toLowerCase() === tag.toLowerCase());
    if (whole) return whole;
    const primary = tag.toLowerCase().split('-')[0];
    if (codes.includes(primary)) return primary;
  }
  return fallback;
}

/**
 * The preferences a PATCH sends from the manage page's quiet-hours fields: the others kept as they
 * are; quiet hours in the zone they had, else this browser's; switched off (or left blank): none.
 * @param {Preferences | undefined} current
 * @param {{ on: boolean, start: string, end: string }} quiet
 * @param {string} browserZone
 * @param {string} [language] the language chosen (English: none sent); absent, the one it had is kept
 * @returns {Preferences}
 */
export function preferencesChange(current, quiet, browserZone, language) {
  const { quietHours, language: had, ...rest } = current ?? {};
  const chosen = language === undefined ? had : language;
  const kept = chosen && chosen !== 'en' ? { ...rest, language: chosen } : rest;
  if (!quiet.on || quiet.start === '' || quiet.end === '') return kept;
  return { ...kept, quietHours: { start: quiet.start, end: quiet.end, timeZone: quietHours?.timeZone ?? browserZone } };
}

/**
 * Quiet hours in words for the manage page: `22:00 to 06:30 (Asia/Colombo)`, or `None`.
 * @param {Preferences | undefined} preferences
 * @param {string} feedZone the zone quiet hours without one of their own are in
 * @param {(key: string, english: string) => string} [word] the page's word of a key (English without it)
 */
export function quietHoursWords(preferences, feedZone, word = (_key, english) => english) {
  const quiet = preferences?.quietHours;
  if (!quiet) return word('page.details.quietNone', 'None');
  return word('page.details.quietHours', '@start to @end (@zone); urgent alerts still come at once')
    .replace('@start', () => quiet.start)
    .replace('@end', () => quiet.end)
    .replace('@zone', () => quiet.timeZone ?? preferences?.timeZone ?? feedZone);
}

/**
 * The page's language: the reader's own choice when it is still offered, else the browser's first one the service writes.
 * @param {string | null} stored
 * @param {readonly string[]} browserLanguages
 * @param {readonly string[]} codes
 * @param {string} fallback
 */
export function pageLanguage(stored, browserLanguages, codes, fallback) {
  return stored && codes.includes(stored) ? stored : pickLanguage(browserLanguages, codes, fallback);
}
