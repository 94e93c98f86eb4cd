import type { PluginQueue } from '#plugin-api';
import type { EmailContext } from './config.ts';
import { EmailComposer } from './email-composer.ts';
import { unsubscribeToken } from './link-tokens.ts';
import { defineOutboxQueue } from './outbox-queue.ts';
import { loadLinkKey, stateCountsUpTo } from './outbox-repository.ts';
import { createSmtpSender, type SmtpSender } from './smtp-sender.ts';

/**
 * What the target and the routes of one plugin context share: one SMTP
 * pool, one composer (compiled templates), the outbox queue and the link
 * key. Made on first use, closed with the target.
 */
export interface EmailRuntime {
  readonly context: EmailContext;
  readonly sender: SmtpSender;
  readonly outbox: PluginQueue;
  readonly composer: EmailComposer;
  /** The key unsubscribe links are signed with (read from the database once). */
  linkKey(): Promise<string>;
  close(): Promise<void>;
}

/** The outbox gauge counts each state up to this many items: the read stays bounded as sent items pile up. */
const OUTBOX_GAUGE_CAP = 100_000;

export function createEmailRuntime(context: EmailContext): EmailRuntime {
  const sender = createSmtpSender(context.config.EmailProvider);
  if (!sender.configured) context.log.warn('EmailProvider__Host is not set: emails wait in the outbox until it is');
  let key: string | undefined;
  let keyLoad: Promise<string> | undefined;
  const linkKey = async () => {
    if (key) return key;
    keyLoad ??= loadLinkKey(context.db).finally(() => (keyLoad = undefined));
    return (key = await keyLoad);
  };
  context.metrics.gauge({
    name: 'notification_email_outbox_items',
    help: `Email outbox items by state (pending, processing, sent, failed, dead); each counted up to ${OUTBOX_GAUGE_CAP}.`,
    labelNames: ['state'],
    read: async () => Object.entries(await stateCountsUpTo(context.db, OUTBOX_GAUGE_CAP)).map(([state, value]) => ({ labels: { state }, value })),
  });
  const composer = new EmailComposer({
    publicBaseUrl: context.coreConfig.PublicBaseUrl,
    unsubscribeToken: async (publicId) => unsubscribeToken(await linkKey(), publicId),
    feeds: context.feeds,
    onCompile: (template) => context.log.debug({ template }, 'email template compiled'),
  });
  return {
    context,
    sender,
    outbox: defineOutboxQueue(context, sender, composer),
    composer,
    linkKey,
    close: () => sender.close(),
  };
}
