import { singleLine } from '#plugin-api';

/**
 * Recipient addresses and header text, pure. An address is stored and sent
 * as one plain `local@domain` (no display name, no list, no comments), so
 * nothing a subscriber types can add a recipient or a header.
 */

// RFC 5322 dot-atom local part (no quoted strings): the characters mail providers accept in practice.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// ASCII host names with at least two labels; internationalised domains are given in their xn-- form.
const DOMAIN = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The address to store, or null when it is not one plain address. The domain is lower-cased; the local part is kept (it may be case-sensitive). */
export function normaliseEmailAddress(input: string): string | null {
  const value = input.trim();
  if (value.length === 0 || value.length > 254) return null;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return null;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local) || !DOMAIN.test(domain)) return null;
  return `${local}@${domain.toLowerCase()}`;
}

/**
 * The mailbox an address reaches, for counting: `Victim+1@Example.org`
 * and `victim@example.org` are one mailbox to the per-address limit.
 * Lower case, and the `+tag` of the local part removed (the subaddressing
 * of Gmail, Outlook, Fastmail and most providers).
 */
export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at).split('+')[0];
  return `${local || address.slice(0, at)}@${address.slice(at + 1)}`.toLowerCase();
}

/** `a***@example.org`: enough for an operator to tell items apart, not the whole address. */
export function maskEmailAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/**
 * One line of header text (a subject, a display name): line breaks and
 * other control characters become a space, so a value can never start a
 * header of its own, and bidirectional overrides are removed; long values
 * are cut, whole characters, with an ellipsis.
 */
export function headerText(value: string, maxLength = 200): string {
  const line = singleLine(value);
  const chars = [...line];
  return chars.length <= maxLength
    ? line
    : `${chars
        .slice(0, maxLength - 1)
        .join('')
        .trimEnd()}…`;
}
