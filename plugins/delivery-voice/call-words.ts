import { createTranslator, loadMessages, type Translate } from '#plugin-api';
import { callLanguage } from './voices.ts';
import type { Spoken } from './twiml.ts';

/** The plugin's own messages (locales/): what the calls say, and the words of the subscribe page. */
const messages = loadMessages(new URL('./locales/', import.meta.url));

/** What a call says in one language: each line tagged with the voice the gateway reads it in. */
export interface CallWords {
  readonly t: Translate;
  spoken(text: string): Spoken;
}

/** The words of a call to someone who chose `language`: theirs where the gateway has a voice for it, else English. */
export function callWords(voices: ReadonlyMap<string, string>, language: string | undefined): CallWords {
  const { code, tag } = callLanguage(voices, language);
  return { t: createTranslator(messages, code), spoken: (text) => ({ text, language: tag }) };
}

/**
 * A notification as it is read (pure): the title, then the body, without
 * the lines that carry a link (a web address read aloud helps nobody, and
 * neither does the question that leads to it: "Not over for you? Tell us:").
 */
export function spokenNotification(title: string, body: string): string {
  return (
    [title, ...body.split('\n')]
      .filter((line) => !/\bhttps?:\/\//.test(line))
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter((line) => line !== '')
      // Each line a sentence of its own, so the voice pauses between them.
      .map((line) => (/[.!?।]$/.test(line) ? line : `${line}.`))
      .join(' ')
  );
}
