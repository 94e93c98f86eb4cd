import type { MessageCatalog } from '../plugin-api/messages.ts';
import { coreMessages, createTranslator, DEFAULT_LOCALE } from '../i18n/index.ts';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import { stillOutLink } from './still-out-token.ts';

export interface StillOutInviteOptions {
  /** The service's key of the links. */
  readonly key: string;
  readonly publicBaseUrl: string;
  /** Each feed's types that ask "still out?" (its manifest `stillOutEventTypes`). */
  readonly types: ReadonlyMap<string, ReadonlySet<string>>;
  /** A feed's messages (its `locales/`): its own words for the question. */
  readonly messagesOf: (feedId: string) => MessageCatalog;
}

const WORDS = { link: 'stillOut.link', reply: 'stillOut.reply' } as const;

/**
 * The line a message that ends an item carries to ask "still out?", in its
 * subscriber's language: the link to report by (its delivery's token in
 * the fragment), or, on a target whose subscribers reply, the word to
 * reply. The feed's own words (`stillOut.link`, `stillOut.reply`), core's
 * without them. Null for every other message.
 */
export function createStillOutInvite(options: StillOutInviteOptions) {
  const words = (feedId: string, key: string): MessageCatalog =>
    options.messagesOf(feedId).get(DEFAULT_LOCALE)?.[key] === undefined ? coreMessages : options.messagesOf(feedId);
  return (delivery: { readonly ledgerId: number; readonly event: NotificationEvent; readonly language?: string }, byReply: boolean): string | null => {
    if (!options.types.get(delivery.event.feedId)?.has(delivery.event.eventType)) return null;
    const key = byReply ? WORDS.reply : WORDS.link;
    const t = createTranslator(words(delivery.event.feedId, key), delivery.language);
    return byReply ? t(key) : t(key, { url: stillOutLink(options.publicBaseUrl, options.key, delivery.ledgerId) });
  };
}

export type StillOutInvite = ReturnType<typeof createStillOutInvite>;
