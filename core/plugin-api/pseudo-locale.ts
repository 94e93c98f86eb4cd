import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * The pseudo-locale `en-XA`: English with every letter accented and each
 * message 40 % longer, in brackets. Offered outside production only, to
 * find what is not translated: a page or message read in it shows every
 * word that came from a message catalog accented, and every word that did
 * not (written into code, or missing from the catalogs) as plain English.
 * Arguments (a place name, a URL, a count) stay as they are, and so do a
 * page word's `@name` placeholders.
 */
export const PSEUDO_LOCALE = 'en-XA';

const ACCENTED: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
      letter,
      [...'åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index],
    ]),
  ),
);

/** Every ASCII letter of a text accented, `@name` placeholders kept. Pure. */
export function accented(text: string): string {
  return text.replace(/@[A-Za-z][A-Za-z0-9]*|[A-Za-z]/g, (match) => (match.length > 1 ? match : (ACCENTED[match] ?? match)));
}

/** How much longer a pseudo-localised message is: 40 %, as a translation into a longer language may be. */
const GROWTH = 0.4;

/** Text of `length` characters that makes a message longer ("·" with a space every few, so it can wrap). */
const padding = (length: number) => Array.from({ length }, (_, index) => (index % 6 === 5 && index < length - 1 ? ' ' : '·')).join('');

/** Accents the literal parts of an ICU message (in plurals and selects too), leaving its arguments alone. */
function accentElements(elements: readonly MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accented(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      return {
        ...element,
        options: Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accentElements(option.value) }])),
      };
    }
    return element;
  });
}

/** The characters of a message's own text (of a plural or select, its `other` case). */
const literalLength = (elements: readonly MessageFormatElement[]): number =>
  elements.reduce((sum, element) => {
    if (element.type === TYPE.literal) return sum + element.value.length;
    if (element.type === TYPE.plural || element.type === TYPE.select) return sum + literalLength(element.options.other?.value ?? []);
    return sum;
  }, 0);

/**
 * An English ICU message as `en-XA` says it: its words accented, in
 * `[…]`, with 40 % more characters (of the literal text) at the end. Pure.
 */
export function pseudoMessage(pattern: string): MessageFormatElement[] {
  const elements = parse(pattern, { ignoreTag: true });
  const extra = Math.ceil(literalLength(elements) * GROWTH);
  return [{ type: TYPE.literal, value: '[' }, ...accentElements(elements), { type: TYPE.literal, value: extra > 0 ? ` ${padding(extra)}]` : ']' }];
}

/** A plain text (no ICU syntax) as `en-XA` says it. Pure. */
export function pseudoText(text: string): string {
  const extra = Math.ceil(text.length * GROWTH);
  return `[${accented(text)}${extra > 0 ? ` ${padding(extra)}` : ''}]`;
}
