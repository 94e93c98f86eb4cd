/**
 * Languages and time: the languages the service speaks, message catalogs
 * and translators, core's own words (locales/), and zoned time read and
 * written one way (@date-fns/tz). The machinery lives in plugin-api, since
 * plugins share it through the kit; core reads it here.
 */
export { coreMessages } from './core-messages.ts';
export {
  createTranslator,
  DEFAULT_LOCALE,
  intlLocale,
  isLocale,
  LOCALES,
  localesFor,
  SHIPPED_LOCALES,
  loadMessages,
  type MessageCatalog,
  type Translate,
} from '../plugin-api/messages.ts';
export { PSEUDO_LOCALE, pseudoText } from '../plugin-api/pseudo-locale.ts';
export {
  formatClockTime,
  formatDateTime,
  formatLocalDate,
  localInstant,
  wallClock,
  zoneName,
  type WallClock,
} from '../plugin-api/time-format.ts';
