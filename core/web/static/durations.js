// @ts-check
// Durations and estimates in words, for the console (pure: tested in core/web/durations.test.ts).

/** A duration in words: `about 5 min`. @param {number} seconds */
export function aboutDuration(seconds) {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return `about ${hours} h${minutes ? ` ${minutes} min` : ''}`;
}

/**
 * How long each channel would take, in words: `Text message: 5,000, about 5 min`.
 * @param {Record<string, number>} byProvider
 * @param {Record<string, number | null> | undefined} estimates
 * @param {(provider: string) => string} nameOf
 */
export function estimateWords(byProvider, estimates, nameOf) {
  return Object.entries(byProvider)
    .map(([provider, count]) => {
      const seconds = estimates?.[provider];
      const time = seconds === null || seconds === undefined ? 'no estimate yet' : aboutDuration(seconds);
      return `${nameOf(provider)}: ${Number(count).toLocaleString('en')}, ${time}`;
    })
    .join('; ');
}
