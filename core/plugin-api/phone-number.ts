import { parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/max';

/**
 * A phone number as stored (E.164), or null when it cannot be one
 * (libphonenumber-js with full metadata: a number that is not valid in its
 * country is refused, not just one of the wrong length). A number without
 * `+` is read as a national number of `defaultRegion`; without a region it
 * is refused.
 */
export function normalisePhoneNumber(input: string, defaultRegion: string | undefined): string | null {
  const text = input.trim();
  if (text === '' || text.length > 32 || /[^\d\s()+.-]/.test(text)) return null;
  if (!text.startsWith('+') && !defaultRegion) return null;
  const parsed = parsePhoneNumberFromString(text, defaultRegion as CountryCode | undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/** The kinds of number a subscriber may give: a mobile, or one the country's plan cannot tell from a landline (the US, Canada). */
const TEXTABLE: ReadonlySet<NumberType> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);
/** The kinds of number a call may go to: a landline too, never one that costs the caller or pays its owner (premium rate, shared cost). */
const CALLABLE: ReadonlySet<NumberType> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'FIXED_LINE']);

/** What a subscriber's number came to: the number to store, or why it is refused. */
export type SubscriberNumber = { readonly number: string } | { readonly refused: 'invalid' } | { readonly refused: 'not mobile'; readonly kind: string };

/**
 * A number a subscriber gives for texts (or, with `use` 'call', for calls:
 * a landline too): valid (normalisePhoneNumber), and
 * a mobile number by the country's numbering plan, so no code or alert is
 * ever texted to a landline, a premium-rate or a shared-cost number (toll
 * fraud: a number that costs the sender, or pays its owner, per text).
 */
export function subscriberNumber(input: string, defaultRegion: string | undefined, use: 'text' | 'call' = 'text'): SubscriberNumber {
  const number = normalisePhoneNumber(input, defaultRegion);
  if (number === null) return { refused: 'invalid' };
  const kind = parsePhoneNumberFromString(number)?.getType();
  if (kind === undefined || !(use === 'call' ? CALLABLE : TEXTABLE).has(kind))
    return { refused: 'not mobile', kind: (kind ?? 'unknown').toLowerCase().replaceAll('_', ' ') };
  return { number };
}
