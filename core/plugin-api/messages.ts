import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { PSEUDO_LOCALE, pseudoMessage } from './pseudo-locale.ts';

/**
 * The languages the service ships, and a plugin's own messages in them:
 * `locales/<code>.json` in its folder, flat `{ "key": "ICU MessageFormat
 * text" }`, one file per language. A message a locale lacks falls back to
 * English; one English lacks is its key.
 */
export const SHIPPED_LOCALES = Object.freeze([
  Object.freeze({ code: 'en', name: 'English', intl: 'en-GB' }),
  Object.freeze({ code: 'si', name: 'සිංහල', intl: 'si-LK' }),
  Object.freeze({ code: 'ta', name: 'தமிழ்', intl: 'ta-LK' }),
]);
export const DEFAULT_LOCALE = 'en';

/** The languages offered: the shipped ones, and outside production the pseudo-locale `en-XA` (no files: made from English). Pure. */
export function localesFor(nodeEnv: string | undefined): ReadonlyArray<{ readonly code: string; readonly name: string; readonly intl: string }> {
  if (nodeEnv === 'production') return SHIPPED_LOCALES;
  return Object.freeze([...SHIPPED_LOCALES, Object.freeze({ code: PSEUDO_LOCALE, name: 'Ƥšéûðö (en-XA)', intl: 'en-GB' })]);
}

/**
 * The languages a subscriber can choose (`preferences.language`, `GET
 * /api/locales`): the shipped ones, and `en-XA` unless the service was
 * started with NODE_ENV=production.
 */
export const LOCALES = localesFor(process.env.NODE_ENV);

/** Whether a code is one of LOCALES. */
export const isLocale = (code: unknown): code is string => typeof code === 'string' && LOCALES.some((locale) => locale.code === code);

/**
 * The language of LOCALES a browser asks for first in its Accept-Language
 * (`ta-IN,ta;q=0.9,en;q=0.8` → `ta`): a whole tag offered (`en-XA`), else
 * its language; English when it asks for none offered. Pure.
 */
export function localeOfAcceptLanguage(header: string | undefined): string {
  const tags = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = Number(
        parameters
          .find((parameter) => parameter.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of tags) {
    const whole = LOCALES.find((locale) => locale.code.toLowerCase() === tag);
    if (whole) return whole.code;
    const language = LOCALES.find((locale) => locale.code === tag.split('-')[0]);
    if (language) return language.code;
  }
  return DEFAULT_LOCALE;
}

/** The Intl locale of a code (`si` → `si-LK`), for dates and numbers; English for an unknown one. */
export const intlLocale = (code: string | undefined): string => LOCALES.find((locale) => locale.code === code)?.intl ?? 'en-GB';

/** A message by key, its `{placeholders}` filled; values are text, never part of the pattern. */
export type Translate = (key: string, values?: Readonly<Record<string, string | number>>) => string;

/** Every locale's messages of one plugin (or of core). */
export type MessageCatalog = ReadonlyMap<string, Readonly<Record<string, string>>>;

/**
 * Reads `<dir>/*.json` (a plugin's `locales` folder; a path, or a file URL such as
 * `new URL('./locales/', import.meta.url)`); an absent folder is an empty catalog.
 */
export function loadMessages(folder: string | URL): MessageCatalog {
  const dir = folder instanceof URL ? fileURLToPath(folder) : folder;
  const catalog = new Map<string, Record<string, string>>();
  if (!existsSync(dir)) return catalog;
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || Object.values(parsed).some((value) => typeof value !== 'string')) {
      throw new Error(`${path.join(dir, file)}: a message file is one object of text messages`);
    }
    catalog.set(path.basename(file, '.json'), parsed as Record<string, string>);
  }
  return catalog;
}

/** One translator per catalog and language, made on first use: callers ask per message or per item, and each pattern is parsed once per process. */
const translators = new WeakMap<MessageCatalog, Map<string, Translate>>();

/** Messages in `locale` (English where it has none), formatted with ICU MessageFormat; each pattern is parsed once. */
export function createTranslator(catalog: MessageCatalog, locale: string | undefined): Translate {
  const code = isLocale(locale) ? locale : DEFAULT_LOCALE;
  let ofCatalog = translators.get(catalog);
  if (!ofCatalog) translators.set(catalog, (ofCatalog = new Map()));
  let translator = ofCatalog.get(code);
  if (!translator) ofCatalog.set(code, (translator = translatorOf(catalog, code)));
  return translator;
}

function translatorOf(catalog: MessageCatalog, code: string): Translate {
  const formats = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    let format = formats.get(key);
    if (!format && code === PSEUDO_LOCALE) {
      const english = catalog.get(DEFAULT_LOCALE)?.[key];
      if (english === undefined) return key;
      format = new IntlMessageFormat(pseudoMessage(english), intlLocale(code));
      formats.set(key, format);
    }
    if (!format) {
      const own = catalog.get(code)?.[key];
      const pattern = own ?? catalog.get(DEFAULT_LOCALE)?.[key];
      if (pattern === undefined) return key;
      format = new IntlMessageFormat(pattern, intlLocale(own === undefined ? DEFAULT_LOCALE : code), undefined, { ignoreTag: true });
      formats.set(key, format);
    }
    return String(format.format(values as Record<string, string | number> | undefined));
  };
}
