import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

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
