// @ts-check
// Pure: times as people read them on the pages, in the feed's zone with the zone shown, 24-hour, as the messages write them.

/**
 * `10:35 GMT+5:30`: a clock time in a zone.
 * @param {Date} date
 * @param {string} timeZone an IANA zone (the feed's)
 * @returns {string}
 */
export function clockTime(date, timeZone) {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(date);
}

/**
 * `22 Nov 2026, 10:35 GMT+5:30`: a date and time in a zone, as the messages write them.
 * @param {Date} date
 * @param {string} timeZone
 * @returns {string}
 */
export function dateTime(date, timeZone) {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(date);
}
