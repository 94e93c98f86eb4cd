import { SHIPPED_LOCALES } from '../../core/plugin-api/messages.ts';

/**
 * What may stay plain in the pseudo-locale: names of products and
 * standards, the languages' own names, what dates and times say in the
 * en-GB form en-XA formats them in, URLs and addresses, and numbers (no
 * letters to accent).
 */
const ALLOWED: readonly RegExp[] = [
  /\bhttps?:\/\/\S+/g,
  /\/[a-z][\w\-/.]*(?:#\S*)?/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /\b(?:ntfy|OpenStreetMap|Leaflet|WhatsApp|Android|iOS|iPhone|SMS|QR|ICS|iCalendar|GMT|UTC)\b/g,
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b/g,
  /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g,
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b/g,
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/g,
  /\b(?:am|pm)\b/gi,
  /\ben-XA\b/g,
  // A number with its SI unit (a distance on the map's picker): the symbol is the same in every language.
  /\b\d[\d.,]*\s?(?:km|m)\b/g,
  // What the service made up: a topic, a token (long, with a digit in it).
  /\b(?=[\w-]*\d)[\w-]{12,}\b/g,
];

/** A text with nothing plain left in it but what is allowed. */
const stripped = (text: string, data: readonly string[]) => {
  let rest = text;
  for (const value of [...data, ...SHIPPED_LOCALES.map((locale) => locale.name)].sort((a, b) => b.length - a.length)) rest = rest.split(value).join(' ');
  for (const pattern of ALLOWED) rest = rest.replace(pattern, ' ');
  return rest;
};

/**
 * The texts (of a page, a message) that are not pseudo-localised: a word of
 * two plain ASCII letters or more, once the allowed parts and the given
 * values (what a person or a feed wrote) are taken out. Pure.
 */
export function untranslated(texts: readonly string[], data: readonly string[] = []): string[] {
  return [...new Set(texts.filter((text) => /[A-Za-z]{2,}/.test(stripped(text, data))))];
}
