// @ts-check
// Pure: an API failure in words a person understands, and which form field it is about.

/**
 * @typedef {{ status: number, body: unknown, retryAfter: string | null }} ApiFailure status 0: no answer at all
 * @typedef {'catalog' | 'subscribe' | 'view' | 'test' | 'delete' | 'edit'} Action
 * @typedef {{ text: string, field: string | null }} Explanation
 */

/** Request paths in the API's messages → the form field and its label. Longest first. */
const FIELDS = [
  { path: 'body/delivery/destination', field: 'destination', label: 'Destination' },
  { path: 'body/delivery/provider', field: 'provider', label: 'Deliver by' },
  { path: 'body/filter/locationKeywords', field: 'areas', label: 'Areas' },
  { path: 'body/filter/places', field: 'where', label: 'Where?' },
  { path: 'body/filter/feeders', field: 'feeders', label: 'Feeders' },
  { path: 'body/filter/keywords', field: 'keywords', label: 'Keywords' },
  { path: 'body/filter/eventTypes', field: 'eventTypes', label: 'Notify me about' },
  { path: 'body/displayName', field: 'name', label: 'Name' },
  { path: 'body/feedId', field: 'feed', label: 'Feed' },
];

/** The API's reasons → plain words; `list` is true when the message is about one entry of a list. */
const REASONS = [
  { match: /must be an email address/, words: () => 'this is not an email address we can send to. Check it for typos.' },
  {
    match: /must NOT have more than (\d+) characters/,
    words: (/** @type {string[]} */ m, /** @type {boolean} */ list) => `${list ? 'each entry can have' : 'it can have'} at most ${m[1]} characters.`,
  },
  { match: /must NOT have more than (\d+) items/, words: (/** @type {string[]} */ m) => `at most ${m[1]} entries, please.` },
  { match: /must NOT have fewer than 1 characters|must not be blank|must not be empty/, words: () => 'this must not be empty.' },
  { match: /is not available/, words: () => 'this service does not offer this way of delivery.' },
  { match: /cannot be filtered by/, words: () => 'this feed cannot be filtered this way.' },
  { match: /is not an event type of/, words: () => 'this feed does not send that kind of alert. Reload the page.' },
  { match: /unknown feed/, words: () => 'this feed is not offered (any more). Reload the page.' },
];

const MANAGE_LINK_HELP = 'Use the full “Manage this subscription” link from the page where you subscribed.';

/**
 * Seconds to wait, from a Retry-After value (seconds or an HTTP date); null when absent or unreadable.
 * @param {string | null} value
 * @param {Date} now
 * @returns {number | null}
 */
export function retryAfterSeconds(value, now) {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * `in 45 seconds`, `in 5 minutes`, `in about 3 hours`, `in about 2 days`.
 * @param {number} seconds
 * @returns {string}
 */
export function waitWords(seconds) {
  const plural = (/** @type {number} */ n, /** @type {string} */ unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return `in ${plural(Math.max(1, Math.ceil(seconds)), 'second')}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in ${plural(minutes, 'minute')}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in about ${plural(hours, 'hour')}`;
  return `in about ${plural(Math.round(hours / 24), 'day')}`;
}

/**
 * When to try again, as a sentence fragment: `in 4 minutes (at 10:35)`, or `later` without a Retry-After.
 * @param {ApiFailure} failure
 * @param {Date} now
 * @param {(date: Date) => string} formatTime
 */
function whenToRetry(failure, now, formatTime) {
  const seconds = retryAfterSeconds(failure.retryAfter, now);
  if (seconds === null) return 'later';
  const words = waitWords(seconds);
  return seconds < 60 ? words : `${words} (at ${formatTime(new Date(now.getTime() + seconds * 1000))})`;
}

/**
 * A create refused by a limit, in words that say which and what helps: the service's message names the
 * limit's key. Deleting a subscription frees a place under a count limit, never under a daily one.
 * @param {string} message
 * @param {string} when
 * @returns {string}
 */
export function limitWords(message, when) {
  if (/MaxVerificationsPerAddressPerDay/.test(message)) {
    return `This address has had all its confirmation messages for today. You can try again ${when}.`;
  }
  if (/MaxPerIpPerDay/.test(message))
    return `As many subscriptions as may be made from one connection in a day have been made from yours. Please try again ${when}.`;
  if (/MaxSubscriptionsPerUser/.test(message))
    return 'Your account has all the subscriptions it may have. Delete one you no longer need from its manage page to make another.';
  return `You have reached the limit of subscriptions from one connection. Delete one you no longer need from its manage page, or try again ${when}.`;
}

/**
 * @param {unknown} body
 * @returns {string}
 */
function messageOf(body) {
  const message = body && typeof body === 'object' && 'message' in body ? body.message : undefined;
  return typeof message === 'string' ? message : '';
}

/**
 * A 400's message (`body/filter/feeders/0 must NOT have more than 100 characters`) → the field and plain words.
 * @param {string} message
 * @param {Record<string, string>} [labels] a field's label on this form, where it differs (`{ destination: 'Email address' }`)
 * @returns {Explanation}
 */
export function explainBadInput(message, labels = {}) {
  // A feed's own filter field: its input is field-<id>, its label the feed's.
  const own = /^body\/filter\/fields\/([A-Za-z0-9]+)/.exec(message);
  const known = own ? { path: own[0], field: `field-${own[1]}`, label: own[1] } : FIELDS.find((entry) => message.startsWith(entry.path));
  if (!known) return { text: `Please check your entries: ${message || 'the service did not accept them.'}`, field: null };
  const rest = message.slice(known.path.length);
  const list = /^\/\d+/.test(rest);
  const reason = REASONS.find((entry) => entry.match.test(rest));
  const serverWords = rest.replace(/^(\/\d+)?\s*:?\s*/, '');
  const words = reason ? reason.words(/** @type {string[]} */ (rest.match(reason.match)), list) : serverWords || 'this is not accepted.';
  return { text: `${labels[known.field] ?? known.label}: ${words}`, field: known.field };
}

/**
 * @param {ApiFailure} failure
 * @param {Action} action
 * @param {Date} now
 * @param {(date: Date) => string} formatTime the local clock time of a date, e.g. `10:35`
 * @param {Record<string, string>} [labels] form labels that differ from the usual ones (see explainBadInput)
 * @returns {Explanation}
 */
export function explainFailure(failure, action, now, formatTime, labels = {}) {
  const { status } = failure;
  const message = messageOf(failure.body);
  const plain = (/** @type {string} */ text) => ({ text, field: null });
  if (status === 0) return plain('The service could not be reached. Check your connection and try again.');
  if (action === 'catalog') return plain('The list of feeds could not be loaded. Reload the page to try again.');
  if (status >= 500) return plain('Something went wrong on our side. Please try again in a few minutes.');
  if (status === 429) {
    const when = whenToRetry(failure, now, formatTime);
    if (action === 'test') return plain(`A test was sent a short while ago. You can send another one ${when}.`);
    if (action === 'subscribe') return plain(limitWords(message, when));
    return plain(`Too many requests. Please try again ${when}.`);
  }
  if (action === 'subscribe') {
    if (status === 400) return explainBadInput(message, labels);
    if (status === 413) return plain('That is too much text. Please shorten your lists and try again.');
    if (status === 401) return plain('You are signed in with a token the service does not accept. Reload the page and try again.');
    if (status === 403)
      return plain(
        'This page came from a manage link that no longer manages any alert, so nothing can join it. Open the subscribe page without it (/subscribe) to start anew.',
      );
    return plain(`The subscription could not be made (the service answered ${status}). Please try again.`);
  }
  if (action === 'edit' && status === 400) return explainBadInput(message, labels);
  if (status === 400) return plain(`This manage link is not valid. ${MANAGE_LINK_HELP}`);
  if (status === 401) return plain(`This manage link is incomplete: the part after “#” is missing. ${MANAGE_LINK_HELP}`);
  if (status === 403) return plain(`This manage link does not match the subscription. ${MANAGE_LINK_HELP}`);
  if (status === 404) return plain('This subscription does not exist. It may have been deleted.');
  if (status === 409 && action === 'test') {
    return /not verified/.test(message)
      ? plain('This subscription starts once you confirm it: follow the link we sent you when you subscribed.')
      : plain('This subscription is no longer active, so no test can be sent.');
  }
  return plain(`That did not work (the service answered ${status}). Please try again.`);
}

/**
 * A refused confirmation code in words: the API names `body/code` and why.
 * @param {ApiFailure} failure
 * @returns {string}
 */
export function codeFailureWords(failure) {
  const message = messageOf(failure.body);
  if (failure.status === 0) return 'The service could not be reached. Check your connection and try again.';
  if (failure.status === 429) return 'Too many tries just now. Wait a minute, then try again.';
  if (failure.status !== 400) return `That did not work (the service answered ${failure.status}). Reply to the text message instead.`;
  const left = /^body\/code is wrong \((\d+) tr/.exec(message);
  if (left && left[1] === '0') return 'That is not the code we sent, and no try is left. Reply YES to the text, or subscribe again for a new code.';
  if (left) return `That is not the code we sent. ${left[1] === '1' ? '1 try' : `${left[1]} tries`} left.`;
  if (/has expired/.test(message)) return 'That code has expired. Reply YES to the text, or subscribe again for a new code.';
  if (/wrong tries/.test(message)) return 'Too many wrong tries. Reply YES to the text, or subscribe again for a new code.';
  if (/no code was sent yet/.test(message)) return 'The text is not sent yet. Wait for it, then type its code.';
  if (/^body\/code/.test(message)) return 'Type the 6 digits of the code.';
  return `That code was not accepted: ${message || 'the service did not say why.'}`;
}
