import { Errors, type DeliveryTarget } from '#plugin-api';
import { mailboxOf, normaliseEmailAddress } from './email-address.ts';
import { notificationSubject, VERIFICATION_TEMPLATE, verificationSubject } from './email-composer.ts';
import type { EmailRuntime } from './email-runtime.ts';
import { hashToken, newVerificationToken } from './link-tokens.ts';
import { insertOutboxItems, insertVerificationTokens, type NewOutboxItem } from './outbox-repository.ts';
import { lookKey } from './templates/event-look.ts';

/** Why email cannot be chosen on the subscribe page yet. */
const NO_RELAY = 'No SMTP relay is configured (EmailProvider__Host is unset), so emails, the confirmation link first, would wait in the outbox until one is.';

/**
 * The Email delivery target: a transactional target. Core hands it the
 * claimed deliveries inside the ledger claim's transaction and it queues
 * one outbox item each, in that transaction; nothing is sent here. A new
 * subscription starts inactive with a verification email queued the same way.
 */
export async function createEmailTarget(runtime: EmailRuntime): Promise<DeliveryTarget> {
  const { context } = runtime;
  // With a relay, emails are composed from the first minute: MJML is loaded and every template compiled before the
  // service listens (readiness waits), never on the event loop while requests and deliveries wait behind it.
  if (runtime.sender.configured) {
    const ms = await runtime.composer.warmUp();
    context.log.info({ ms }, 'email templates compiled');
  }
  const ttlHours = context.config.EmailOutbox.VerificationTtlHours;
  const baseUrl = context.coreConfig.PublicBaseUrl;
  if (context.coreConfig.NODE_ENV === 'production' && !baseUrl.startsWith('https://')) {
    context.log.warn('PublicBaseUrl is not https: mail providers expect an https List-Unsubscribe link');
  }

  return {
    provider: 'Email',
    startsActive: false,

    prepareDestination(requested) {
      const address = requested === undefined ? null : normaliseEmailAddress(requested);
      if (address === null) throw new Errors.InvalidField('body/delivery/destination must be an email address');
      return address;
    },

    verificationKey: mailboxOf,

    unavailableReason: () => (runtime.sender.configured ? undefined : NO_RELAY),

    subscribeUrl: () => null,
    subscribeUrlUnavailableReason: () => 'Email subscriptions have no subscribe link: notifications arrive by email once the address is confirmed.',

    async enqueue(trx, requests) {
      if (requests.length === 0) return;
      const items: NewOutboxItem[] = requests.map((request) => ({
        kind: 'notification',
        subscriptionId: request.subscription.id,
        ledgerId: request.ledgerId,
        recipient: request.subscription.destination,
        subject: notificationSubject(request.rendered.title),
        template: lookKey(request.event.feedId, request.event.eventType),
        thread: { feedId: request.event.feedId, itemKey: request.event.itemKey ?? request.event.sourceKey },
        params: {
          title: request.rendered.title,
          body: request.rendered.body,
          name: request.subscription.displayName,
          publicId: request.subscription.publicId,
          language: request.subscription.language,
        },
      }));
      await insertOutboxItems(trx, items, context.now());
      await runtime.outbox.notify(trx);
    },

    // Creates that arrive together are written together: one statement for their tokens, one for their emails.
    async onSubscriptionsCreated(trx, subscriptions) {
      const now = context.now();
      const created = subscriptions.map((subscription) => ({ subscription, token: newVerificationToken() }));
      await insertVerificationTokens(
        trx,
        created.map(({ subscription, token }) => ({ subscriptionId: subscription.id, tokenHash: hashToken(token) })),
        new Date(now.getTime() + ttlHours * 3600 * 1000),
        now,
      );
      const emails: NewOutboxItem[] = created.map(({ subscription, token }) => ({
        kind: 'verification',
        subscriptionId: subscription.id,
        ledgerId: null,
        recipient: subscription.destination,
        subject: verificationSubject(subscription.displayName, subscription.language),
        template: VERIFICATION_TEMPLATE,
        params: {
          name: subscription.displayName,
          publicId: subscription.publicId,
          feedId: subscription.feedId,
          token,
          ttlHours,
          language: subscription.language,
        },
      }));
      await insertOutboxItems(trx, emails, now);
      await runtime.outbox.notify(trx);
    },

    close: () => runtime.close(),
  };
}
