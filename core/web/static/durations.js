// @ts-check
// Durations and estimates in words, for the console (pure: tested in core/web/durations.test.ts).
import { englishWords } from './error-words.js';

/**
 * A duration in words: `5 min`, `about 1 h 20 min` with aboutDuration; each a page word (`w`: the page's words, English by default).
 * @param {number} seconds
 * @param {import('./error-words.js').Words} [w]
 */
export function durationWords(seconds, w = englishWords) {
  if (seconds < 60) return w('page.duration.seconds', '@n s', { n: String(Math.max(1, Math.round(seconds))) });
  if (seconds < 3600) return w('page.duration.minutes', '@n min', { n: String(Math.round(seconds / 60)) });
  const hours = String(Math.floor(seconds / 3600));
  const minutes = Math.round((seconds % 3600) / 60);
  return minutes ? w('page.duration.hoursMinutes', '@h h @m min', { h: hours, m: String(minutes) }) : w('page.duration.hours', '@h h', { h: hours });
}

/** `about 5 min`. @param {number} seconds @param {import('./error-words.js').Words} [w] */
export const aboutDuration = (seconds, w = englishWords) => w('page.duration.about', 'about @duration', { duration: durationWords(seconds, w) });

/**
 * How long each channel would take, in words: `Text message: 5,000, about 5 min`.
 * @param {Record<string, number>} byProvider
 * @param {Record<string, number | null> | undefined} estimates
 * @param {(provider: string) => string} nameOf
 * @param {import('./error-words.js').Words} [w]
 */
export function estimateWords(byProvider, estimates, nameOf, w = englishWords) {
  return Object.entries(byProvider)
    .map(([provider, count]) => {
      const seconds = estimates?.[provider];
      const time = seconds === null || seconds === undefined ? w('page.duration.noEstimate', 'no estimate yet') : aboutDuration(seconds, w);
      return `${nameOf(provider)}: ${Number(count).toLocaleString('en')}, ${time}`;
    })
    .join('; ');
}
