// @ts-check
// Pure: an API failure in words a person understands, and which form field it is about.

/**
 * @typedef {{ status: number, body: unknown, retryAfter: string | null }} ApiFailure status 0: no answer at all
 * @typedef {'catalog' | 'subscribe' | 'view' | 'test' | 'delete' | 'edit'} Action
 * @typedef {{ text: string, field: string | null }} Explanation
 * @typedef {(key: string, english: string, values?: Record<string, string>) => string} Words a page word by key, its
 *   `@name` placeholders filled (the reader's language on a page; English here)
 */

/**
 * A text's `@name` placeholders filled with the values given (a value is text, never read for placeholders).
 * @param {string} text
 * @param {Record<string, string>} [values]
 */
export const fillWords = (text, values = {}) => text.replace(/@([A-Za-z]+)/g, (match, name) => (name in values ? values[name] : match));

/** The English words, as the keys' English in core's messages says them. @type {Words} */
export const englishWords = (_key, english, values) => fillWords(english, values);

/** Request paths in the API's messages → the form field and its label. Longest first. */
const FIELDS = [
  { path: 'body/delivery/destination', field: 'destination', key: 'page.destination', label: 'Destination' },
  { path: 'body/delivery/provider', field: 'provider', key: 'page.deliverBy', label: 'Deliver by' },
  { path: 'body/filter/locationKeywords', field: 'areas', key: 'page.error.areas', label: 'Areas' },
  { path: 'body/filter/places', field: 'where', key: 'page.where.legend', label: 'Where?' },
  { path: 'body/filter/feeders', field: 'feeders', key: 'page.error.feeders', label: 'Feeders' },
  { path: 'body/filter/keywords', field: 'keywords', key: 'page.error.keywords', label: 'Keywords' },
  { path: 'body/filter/eventTypes', field: 'eventTypes', key: 'page.notifyAbout', label: 'Notify me about' },
  { path: 'body/displayName', field: 'name', key: 'page.name', label: 'Name' },
  { path: 'body/feedId', field: 'feed', key: 'page.feed', label: 'Feed' },
];

/** The API's reasons → plain words; `list` is true when the message is about one entry of a list. */
/** @typedef {(m: string[], list: boolean, w: Words) => string} ReasonWords */
/** @type {Array<{ match: RegExp, words: ReasonWords }>} */
const REASONS = [
  { match: /must be an email address/, words: (_m, _list, w) => w('page.error.notEmail', 'this is not an email address we can send to. Check it for typos.') },
  {
    match: /must NOT have more than (\d+) characters/,
    words: (m, list, w) =>
      list
        ? w('page.error.entryTooLong', 'each entry can have at most @count characters.', { count: m[1] })
        : w('page.error.tooLong', 'it can have at most @count characters.', { count: m[1] }),
  },
  { match: /must NOT have more than (\d+) items/, words: (m, _list, w) => w('page.error.tooMany', 'at most @count entries, please.', { count: m[1] }) },
  {
    match: /must NOT have fewer than 1 characters|must not be blank|must not be empty/,
    words: (_m, _list, w) => w('page.error.empty', 'this must not be empty.'),
  },
  { match: /is not available/, words: (_m, _list, w) => w('page.error.noSuchTarget', 'this service does not offer this way of delivery.') },
  { match: /cannot be filtered by/, words: (_m, _list, w) => w('page.error.noSuchFilter', 'this feed cannot be filtered this way.') },
  { match: /is not an event type of/, words: (_m, _list, w) => w('page.error.noSuchType', 'this feed does not send that kind of alert. Reload the page.') },
  { match: /unknown feed/, words: (_m, _list, w) => w('page.error.noSuchFeed', 'this feed is not offered (any more). Reload the page.') },
];

/** @param {Words} w */
const manageLinkHelp = (w) => w('page.error.manageLinkHelp', 'Use the full “Manage this subscription” link from the page where you subscribed.');

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
 * `in 45 seconds`, `in 5 minutes`, `in 3 hours`, `in 2 days`, in the page's language (Intl's words).
 * @param {number} seconds
 * @param {string} [locale] an Intl locale (`ta-LK`); English by default
 * @returns {string}
 */
export function waitWords(seconds, locale = 'en-GB') {
  const say = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  if (seconds < 60) return say.format(Math.max(1, Math.ceil(seconds)), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return say.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 48) return say.format(hours, 'hour');
  return say.format(Math.round(hours / 24), 'day');
}

/**
 * How a page formats what it tells: the local clock time of a date (`10:35`), its words, and its Intl locale.
 * @typedef {{ formatTime: (date: Date) => string, w?: Words, locale?: string }} Telling
 */

/**
 * When to try again, as a sentence fragment: `in 4 minutes (at 10:35)`, or `later` without a Retry-After.
 * @param {ApiFailure} failure
 * @param {Date} now
 * @param {Telling} telling
 */
function whenToRetry(failure, now, { formatTime, w = englishWords, locale }) {
  const seconds = retryAfterSeconds(failure.retryAfter, now);
  if (seconds === null) return w('page.error.later', 'later');
  const words = waitWords(seconds, locale);
  return seconds < 60 ? words : w('page.error.waitUntil', '@wait (at @time)', { wait: words, time: formatTime(new Date(now.getTime() + seconds * 1000)) });
}

/**
 * A create refused by a limit, in words that say which and what helps: the service's message names the
 * limit's key. Deleting a subscription frees a place under a count limit, never under a daily one.
 * @param {string} message
 * @param {string} when
 * @param {Words} [w]
 * @returns {string}
 */
export function limitWords(message, when, w = englishWords) {
  if (/MaxVerificationsPerAddressPerDay/.test(message)) {
    return w('page.error.limitAddress', 'This address has had all its confirmation messages for today. You can try again @when.', { when });
  }
  if (/MaxPerIpPerDay/.test(message))
    return w(
      'page.error.limitConnection',
      'As many subscriptions as may be made from one connection in a day have been made from yours. Please try again @when.',
      { when },
    );
  if (/MaxSubscriptionsPerUser/.test(message))
    return w(
      'page.error.limitAccount',
      'Your account has all the subscriptions it may have. Delete one you no longer need from its manage page to make another.',
    );
  return w(
    'page.error.limitCount',
    'You have reached the limit of subscriptions from one connection. Delete one you no longer need from its manage page, or try again @when.',
    { when },
  );
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
 * @param {Words} [w]
 * @returns {Explanation}
 */
export function explainBadInput(message, labels = {}, w = englishWords) {
  // A feed's own filter field: its input is field-<id>, its label the feed's.
  const own = /^body\/filter\/fields\/([A-Za-z0-9]+)/.exec(message);
  const known = own ? { path: own[0], field: `field-${own[1]}`, key: '', label: own[1] } : FIELDS.find((entry) => message.startsWith(entry.path));
  if (!known) {
    return message
      ? { text: w('page.error.checkEntriesSaid', 'Please check your entries: @said', { said: message }), field: null }
      : { text: w('page.error.checkEntries', 'Please check your entries: the service did not accept them.'), field: null };
  }
  const rest = message.slice(known.path.length);
  const list = /^\/\d+/.test(rest);
  const reason = REASONS.find((entry) => entry.match.test(rest));
  const serverWords = rest.replace(/^(\/\d+)?\s*:?\s*/, '');
  const words = reason
    ? reason.words(/** @type {string[]} */ (rest.match(reason.match)), list, w)
    : serverWords || w('page.error.notAccepted', 'this is not accepted.');
  const label = labels[known.field] ?? (known.key ? w(known.key, known.label) : known.label);
  return { text: w('page.error.fieldSays', '@field: @words', { field: label, words }), field: known.field };
}

/**
 * @param {ApiFailure} failure
 * @param {Action} action
 * @param {Date} now
 * @param {Telling} telling the clock time of a date (`10:35`), and the page's words and locale
 * @param {Record<string, string>} [labels] form labels that differ from the usual ones (see explainBadInput)
 * @returns {Explanation}
 */
export function explainFailure(failure, action, now, telling, labels = {}) {
  const { status } = failure;
  const w = telling.w ?? englishWords;
  const message = messageOf(failure.body);
  const plain = (/** @type {string} */ text) => ({ text, field: null });
  const answered = { status: String(status) };
  if (status === 0) return plain(w('page.error.unreachable', 'The service could not be reached. Check your connection and try again.'));
  if (action === 'catalog') return plain(w('page.error.catalog', 'The list of feeds could not be loaded. Reload the page to try again.'));
  if (status >= 500) return plain(w('page.error.ours', 'Something went wrong on our side. Please try again in a few minutes.'));
  if (status === 429) {
    const when = whenToRetry(failure, now, telling);
    if (action === 'test') return plain(w('page.error.testTooSoon', 'A test was sent a short while ago. You can send another one @when.', { when }));
    if (action === 'subscribe') return plain(limitWords(message, when, w));
    return plain(w('page.error.tooManyRequests', 'Too many requests. Please try again @when.', { when }));
  }
  if (action === 'subscribe') {
    if (status === 400) return explainBadInput(message, labels, w);
    if (status === 413) return plain(w('page.error.tooMuchText', 'That is too much text. Please shorten your lists and try again.'));
    if (status === 401) return plain(w('page.error.badToken', 'You are signed in with a token the service does not accept. Reload the page and try again.'));
    if (status === 403)
      return plain(
        w(
          'page.error.joinGone',
          'This page came from a manage link that no longer manages any alert, so nothing can join it. Open the subscribe page without it (/subscribe) to start anew.',
        ),
      );
    return plain(w('page.error.notMade', 'The subscription could not be made (the service answered @status). Please try again.', answered));
  }
  if (action === 'edit' && status === 400) return explainBadInput(message, labels, w);
  const help = manageLinkHelp(w);
  if (status === 400) return plain(w('page.error.linkInvalid', 'This manage link is not valid. @help', { help }));
  if (status === 401) return plain(w('page.error.linkIncomplete', 'This manage link is incomplete: the part after “#” is missing. @help', { help }));
  if (status === 403) return plain(w('page.error.linkWrong', 'This manage link does not match the subscription. @help', { help }));
  if (status === 404) return plain(w('page.error.gone', 'This subscription does not exist. It may have been deleted.'));
  if (status === 409 && action === 'test') {
    return /not verified/.test(message)
      ? plain(w('page.error.testUnconfirmed', 'This subscription starts once you confirm it: follow the link we sent you when you subscribed.'))
      : plain(w('page.error.testInactive', 'This subscription is no longer active, so no test can be sent.'));
  }
  return plain(w('page.error.didNotWork', 'That did not work (the service answered @status). Please try again.', answered));
}

/**
 * A refused confirmation code in words: the API names `body/code` and why.
 * @param {ApiFailure} failure
 * @param {Words} [w]
 * @returns {string}
 */
export function codeFailureWords(failure, w = englishWords) {
  const message = messageOf(failure.body);
  if (failure.status === 0) return w('page.error.unreachable', 'The service could not be reached. Check your connection and try again.');
  if (failure.status === 429) return w('page.code.tooFast', 'Too many tries just now. Wait a minute, then try again.');
  if (failure.status !== 400)
    return w('page.code.didNotWork', 'That did not work (the service answered @status). Reply to the text message instead.', {
      status: String(failure.status),
    });
  const left = /^body\/code is wrong \((\d+) tr/.exec(message);
  if (left && left[1] === '0')
    return w('page.code.noTryLeft', 'That is not the code we sent, and no try is left. Reply YES to the text, or subscribe again for a new code.');
  if (left && left[1] === '1') return w('page.code.oneTryLeft', 'That is not the code we sent. 1 try left.');
  if (left) return w('page.code.triesLeft', 'That is not the code we sent. @tries tries left.', { tries: left[1] });
  if (/has expired/.test(message)) return w('page.code.expired', 'That code has expired. Reply YES to the text, or subscribe again for a new code.');
  if (/wrong tries/.test(message)) return w('page.code.tooManyWrong', 'Too many wrong tries. Reply YES to the text, or subscribe again for a new code.');
  if (/no code was sent yet/.test(message)) return w('page.code.notSentYet', 'The text is not sent yet. Wait for it, then type its code.');
  if (/^body\/code/.test(message)) return w('page.code.sixDigits', 'Type the 6 digits of the code.');
  return message
    ? w('page.code.notAcceptedSaid', 'That code was not accepted: @said', { said: message })
    : w('page.code.notAccepted', 'That code was not accepted: the service did not say why.');
}
