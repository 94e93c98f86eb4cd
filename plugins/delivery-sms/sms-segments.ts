/**
 * How long a text is on the phone network (pure): GSM-7 when every
 * character is in the GSM 03.38 alphabet (the extension table's characters
 * take two septets), otherwise UCS-2 (UTF-16 code units). One segment holds
 * 160 septets or 70 units; a text split in parts holds 153 or 67 per part,
 * and an escape pair or a surrogate pair never straddles two parts.
 */

const GSM_BASIC = new Set(
  Array.from('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà', (c) =>
    c.charCodeAt(0),
  ),
);
const GSM_EXTENSION = new Set(Array.from('^{}\\[~]|€\f', (c) => c.charCodeAt(0)));
// Every GSM character is in the Basic Multilingual Plane: one UTF-16 unit each; a surrogate is never GSM.
const SEPTETS = new Uint8Array(0x10000);
for (const code of GSM_BASIC) SEPTETS[code] = 1;
for (const code of GSM_EXTENSION) SEPTETS[code] = 2;

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsLength {
  readonly encoding: SmsEncoding;
  readonly segments: number;
}

export function encodingOf(text: string): SmsEncoding {
  for (let i = 0; i < text.length; i++) if (SEPTETS[text.charCodeAt(i)] === 0) return 'UCS-2';
  return 'GSM-7';
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Segments a text takes (0 for the empty text). */
export function smsLength(text: string): SmsLength {
  const encoding = encodingOf(text);
  const gsm = encoding === 'GSM-7';
  let total = 0;
  if (gsm) for (let i = 0; i < text.length; i++) total += SEPTETS[text.charCodeAt(i)]!;
  else total = text.length;
  const single = gsm ? 160 : 70;
  if (total === 0) return { encoding, segments: 0 };
  if (total <= single) return { encoding, segments: 1 };
  // Split in parts: a character (an escape pair, a surrogate pair) goes whole into one part.
  const part = gsm ? 153 : 67;
  let segments = 1;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let units = gsm ? SEPTETS[code]! : 1;
    if (!gsm && isHighSurrogate(code) && i + 1 < text.length) {
      units = 2;
      i++;
    }
    if (used + units > part) {
      segments++;
      used = 0;
    }
    used += units;
  }
  return { encoding, segments };
}

export const fitsIn = (text: string, maxSegments: number): boolean => smsLength(text).segments <= maxSegments;

/**
 * The longest start of `text` that fits `maxSegments` with an ellipsis (and
 * `after`, kept whole behind it), cut after a whole word when there is a
 * space to cut at (by code points: a surrogate pair is never cut). `...`
 * keeps a GSM-7 text GSM-7; a UCS-2 text gets `…`.
 */
export function shortenToFit(text: string, maxSegments: number, after = ''): string {
  if (fitsIn(text + after, maxSegments)) return text + after;
  const ellipsis = encodingOf(text + after) === 'GSM-7' ? '...' : '…';
  const chars = Array.from(text);
  // The longest prefix (in code points) that fits with the ellipsis: binary search, length is monotonic.
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fitsIn(chars.slice(0, mid).join('') + ellipsis + after, maxSegments)) low = mid;
    else high = mid - 1;
  }
  let cut = low;
  // Back to the end of the last whole word, when the prefix has a space in it.
  if (cut < chars.length && !/\s/.test(chars[cut]!)) {
    const lastSpace = chars.slice(0, cut).findLastIndex((char) => /\s/.test(char));
    if (lastSpace > 0) cut = lastSpace;
  }
  return chars.slice(0, cut).join('').trimEnd() + ellipsis + after;
}
