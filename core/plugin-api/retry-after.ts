/**
 * A `Retry-After` header (RFC 9110 §10.2.3) in seconds from `now`: either
 * delay-seconds (`120`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`,
 * or the obsolete RFC 850 and asctime forms); a date already past is 0.
 * Undefined when absent or unreadable (the caller's own default applies).
 * Pure: the clock is an input.
 */
export function retryAfterSeconds(header: string | readonly string[] | undefined | null, now: Date): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (!HTTP_DATE.some((form) => form.test(value))) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

const HTTP_DATE = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  // asctime: Sun Nov  6 08:49:37 1994
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];
