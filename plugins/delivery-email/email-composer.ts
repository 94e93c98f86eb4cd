import { createTranslator, DEFAULT_LOCALE, isLocale, loadMessages, plainLines, singleLine, type FeedCatalogPort, type Translate } from '#plugin-api';
import { headerText } from './email-address.ts';
import { subscriptionLink } from './link-tokens.ts';
import { eventLook } from './templates/event-look.ts';
import { bodyHtml, escapeHtml } from './templates/html.ts';
import { notificationMjml, SLOT_PATTERN, verificationMjml, type SlotName } from './templates/layout.ts';

export const VERIFICATION_TEMPLATE = 'verification';
const NOTIFICATION_LAYOUT = 'notification';

/** The plugin's own words (locales/): an email's small print, its verification, in each subscriber's language. */
const messages = loadMessages(new URL('./locales/', import.meta.url));
const languageOf = (language: string | undefined) => (isLocale(language) ? language : DEFAULT_LOCALE);
const wordsIn = (language: string | undefined): Translate => createTranslator(messages, language);

/** What an outbox item keeps to compose its email when it is sent. */
export interface NotificationParams {
  readonly title: string;
  readonly body: string;
  readonly name: string;
  readonly publicId: string;
  /** The subscriber's language (absent in items queued before languages: English). */
  readonly language?: string;
}

export interface VerificationParams {
  readonly name: string;
  readonly publicId: string;
  readonly feedId: string;
  readonly token: string;
  readonly ttlHours: number;
  readonly language?: string;
}

export interface ComposableItem {
  readonly kind: 'notification' | 'verification';
  readonly template: string;
  readonly params: NotificationParams | VerificationParams;
}

export interface ComposedEmail {
  readonly html: string;
  readonly text: string;
  /** Extra headers: List-Unsubscribe and its one-click companion on notifications. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface LinkSettings {
  readonly publicBaseUrl: string;
  /** The unsubscribe link's token of a subscription. */
  unsubscribeToken(publicId: string): string | Promise<string>;
  /** The feeds as people see them: each email's banner, words and colour come from its feed. */
  readonly feeds: FeedCatalogPort;
  /** Told each time a template is compiled (`notification:si`): the runtime logs it, so a compile on a send shows. */
  readonly onCompile?: (template: string) => void;
}

export const notificationSubject = (title: string) => headerText(title);
export const verificationSubject = (displayName: string, language?: string) => headerText(wordsIn(language)('verify.subject', { name: displayName }));

type Mjml2Html = typeof import('mjml')['default'];
let mjmlModule: Promise<Mjml2Html> | undefined;
// Imported once per process, at start when a relay is configured (EmailComposer.warmUp): ~400 ms that a start without email need not pay.
const loadMjml = () => (mjmlModule ??= import('mjml').then((module) => module.default));

/**
 * Composes emails at send time. Why then and not at enqueue: the compiled
 * layout is cached per template, so composing is one string substitution
 * (microseconds); the outbox row stays small (its inputs, not ~10 KB of
 * HTML per recipient), the enqueueing transaction (a feed monitor's, or a
 * create request's) never waits for MJML, and links use the current
 * PublicBaseUrl.
 */
export class EmailComposer {
  readonly #links: LinkSettings;
  readonly #compiled = new Map<string, Promise<string>>();

  constructor(links: LinkSettings) {
    this.#links = links;
  }

  async compose(item: ComposableItem): Promise<ComposedEmail> {
    if (item.kind === 'verification') return this.#verification(item.params as VerificationParams);
    return this.#notification(item.template, item.params as NotificationParams);
  }

  async #notification(templateKey: string, params: NotificationParams): Promise<ComposedEmail> {
    const language = languageOf(params.language);
    const t = wordsIn(language);
    const look = eventLook(this.#links.feeds, templateKey, language, t);
    const skeleton = await this.#skeleton(`${NOTIFICATION_LAYOUT}:${language}`, () => notificationMjml(t));
    const token = await this.#links.unsubscribeToken(params.publicId);
    const unsubscribe = subscriptionLink(this.#links.publicBaseUrl, params.publicId, 'unsubscribe', token);
    // Every user value (a display name, feed text) is one line, or, for the body, its own lines only: none adds a line of its own.
    const title = singleLine(params.title);
    const body = plainLines(params.body);
    const name = singleLine(params.name);
    const html = fill(skeleton, {
      title: escapeHtml(title),
      preview: escapeHtml(body.split('\n')[0] ?? ''),
      body: bodyHtml(body, this.#links.publicBaseUrl),
      name: escapeHtml(name),
      link: escapeHtml(unsubscribe),
      label: escapeHtml(look.label.toLocaleUpperCase(language)),
      intro: escapeHtml(look.intro),
      accent: escapeHtml(look.accent),
    });
    const text = `${title}\n\n${body}\n\n--\n${t('notice.textBecause', { name })}\n${t('notice.unsubscribe')}: ${unsubscribe}\n`;
    return {
      html,
      text,
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  async #verification(params: VerificationParams): Promise<ComposedEmail> {
    const language = languageOf(params.language);
    const t = wordsIn(language);
    const skeleton = await this.#skeleton(`${VERIFICATION_TEMPLATE}:${language}`, () => verificationMjml(t));
    const link = subscriptionLink(this.#links.publicBaseUrl, params.publicId, 'verify', params.token);
    const feed = singleLine(this.#links.feeds.get(params.feedId, language)?.displayName ?? params.feedId);
    const name = singleLine(params.name);
    const html = fill(skeleton, {
      title: escapeHtml(t('verify.title')),
      preview: escapeHtml(t('verify.preview')),
      name: escapeHtml(name),
      feed: escapeHtml(feed),
      link: escapeHtml(link),
      hours: String(params.ttlHours),
    });
    const text =
      `${t('verify.title')}\n\n${t('verify.intro')}\n` +
      `${t('verify.subscription')} ${name}\n${t('verify.feed')} ${feed}\n\n${t('verify.textOpen', { hours: params.ttlHours })}\n${link}\n\n` +
      `${t('verify.ignore')}\n`;
    return { html, text, headers: {} };
  }

  /**
   * Loads MJML and compiles every template now, at start, so that no email
   * pays for it later on the event loop (loading MJML blocks it for most of
   * a second, and each first compile for tens of milliseconds). Returns how
   * long it took.
   */
  async warmUp(): Promise<number> {
    const started = performance.now();
    // English at start; another language's layouts are compiled on their first email (tens of ms each).
    await this.#skeleton(`${VERIFICATION_TEMPLATE}:${DEFAULT_LOCALE}`, () => verificationMjml(wordsIn(DEFAULT_LOCALE)));
    await this.#skeleton(`${NOTIFICATION_LAYOUT}:${DEFAULT_LOCALE}`, () => notificationMjml(wordsIn(DEFAULT_LOCALE)));
    return Math.round(performance.now() - started);
  }

  /** The compiled HTML of a template, compiled once (a failed compile is tried again next time). */
  #skeleton(key: string, source: () => string): Promise<string> {
    let compiled = this.#compiled.get(key);
    if (!compiled) {
      this.#links.onCompile?.(key);
      compiled = compileMjml(source());
      this.#compiled.set(key, compiled);
      compiled.catch(() => this.#compiled.delete(key));
    }
    return compiled;
  }
}

async function compileMjml(source: string): Promise<string> {
  const mjml2html = await loadMjml();
  const result = await mjml2html(source, { validationLevel: 'strict' });
  if (result.errors.length > 0) throw new Error(`email template does not compile: ${result.errors[0].formattedMessage}`);
  return result.html;
}

/** One pass over the compiled template: a value that happens to contain a placeholder is not expanded again. */
function fill(skeleton: string, values: Partial<Record<SlotName, string>>): string {
  return skeleton.replace(SLOT_PATTERN, (match, slot: string | undefined) =>
    slot === undefined ? (values.accent ?? match) : (values[slot.toLowerCase() as SlotName] ?? ''),
  );
}
