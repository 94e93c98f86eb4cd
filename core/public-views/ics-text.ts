import { singleLine } from '../plugin-api/user-text.ts';

/**
 * A TEXT value of RFC 5545 (3.3.11) from text a feed or a person wrote,
 * for the properties the calendar library writes as they are (NAME,
 * X-WR-CALNAME, UID): one line (control characters and line breaks become
 * spaces), then backslash, semicolon and comma escaped. Pure.
 */
export function icsText(value: string): string {
  return singleLine(value).replace(/[\\;,]/g, (char) => `\\${char}`);
}
