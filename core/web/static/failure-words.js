// @ts-check
// A failure of the API in the reader's language: error-words.js judges it (pure), with this page's words,
// its language and this browser's clock.
import { codeFailureWords, explainFailure, fillWords } from './error-words.js';
import { currentPageLanguage, pageWord } from './page-words.js';
import { clockTime } from './times.js';

/**
 * A page word in the reader's language (the English given where there is none), its `@name` placeholders filled.
 * @type {import('./error-words.js').Words}
 */
export const readerWords = (key, english, values) => fillWords(pageWord(key, english), values);

/**
 * The failure in words, with this browser's clock; a time it names is in `timeZone` (the feed's), with the zone shown.
 * @param {import('./error-words.js').ApiFailure} failure
 * @param {import('./error-words.js').Action} action
 * @param {string} [timeZone]
 * @param {Record<string, string>} [labels] form labels that differ from the usual ones
 */
export function explain(failure, action, timeZone = 'UTC', labels = {}) {
  const telling = { formatTime: (/** @type {Date} */ date) => clockTime(date, timeZone), w: readerWords, locale: currentPageLanguage() };
  return explainFailure(failure, action, new Date(), telling, labels);
}

/** A refused confirmation code in the reader's words. @param {import('./error-words.js').ApiFailure} failure */
export const codeWords = (failure) => codeFailureWords(failure, readerWords);
