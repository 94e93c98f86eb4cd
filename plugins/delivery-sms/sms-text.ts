import { createTranslator, loadMessages } from '#plugin-api';
import { fitsIn, shortenToFit } from './sms-segments.ts';

/**
 * A notification as one text (pure): the title, a line break, the body,
 * shortened on a word boundary to fit `maxSegments`; the link to the manage
 * page ends it only when it still fits whole. The line asking to confirm
 * (`asks`, the body's last paragraph) is kept whole: what is before it is
 * shortened instead, since a person who must confirm has to read how.
 */
export function notificationText(title: string, body: string, link: string | null, maxSegments: number, asks?: string): string {
  const trimmed = body.trim();
  const text = trimmed === '' ? title.trim() : `${title.trim()}\n${trimmed}`;
  if (link !== null) {
    const withLink = `${text}\n${link}`;
    if (fitsIn(withLink, maxSegments)) return withLink;
  }
  const ask = asks?.trim();
  if (ask && trimmed.endsWith(ask) && fitsIn(`...\n\n${ask}`, maxSegments)) {
    const before = trimmed.slice(0, -ask.length).trim();
    return shortenToFit(before === '' ? title.trim() : `${title.trim()}\n${before}`, maxSegments, `\n\n${ask}`);
  }
  return shortenToFit(text, maxSegments);
}

/** The plugin's own messages (locales/): what the texts say, in each subscriber's language. */
const messages = loadMessages(new URL('./locales/', import.meta.url));

/** The verification text in the subscriber's language: the code, and that YES confirms too. */
export function verificationText(code: string, feedName: string, ttlMinutes: number, language?: string): string {
  return shortenToFit(createTranslator(messages, language)('verify.text', { feed: feedName, code, minutes: ttlMinutes }), 2);
}

/** The texts the service sends back to a reply, in a language: the plugin's own messages, English where it has none. */
export const replyWords = (language: string | undefined) => createTranslator(messages, language);
