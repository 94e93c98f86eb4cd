import { describe, expect, it } from 'vitest';
import { loadMessages, PSEUDO_LOCALE } from '#plugin-api';
import { untranslated } from '../../test/helpers/pseudo-check.ts';
import { replyWords, verificationText } from './sms-text.ts';

/** Every text this target sends of its own, read in the pseudo-locale: a word not accented would reach a Sinhala or Tamil reader in English. */
describe('the text-message target in the pseudo-locale en-XA', () => {
  it('every reply and verification text of the text-message target (each of its messages, its arguments given)', () => {
    const english = loadMessages(new URL('./locales/', import.meta.url)).get('en') ?? {};
    const t = replyWords(PSEUDO_LOCALE);
    const said = Object.entries(english)
      .filter(([key]) => key.startsWith('reply.'))
      .map(([key, pattern]) => t(key, Object.fromEntries([...pattern.matchAll(/\{\s*([A-Za-z]\w*)/g)].map((match) => [match[1]!, 7]))));
    expect(said.length).toBeGreaterThan(5);
    expect(untranslated([...said, verificationText('123456', 'Kandy', 15, PSEUDO_LOCALE)], ['Kandy', 'YES', 'STOP', 'START', 'HELP', 'STATUS', 'OUT'])).toEqual(
      [],
    );
  });
});
