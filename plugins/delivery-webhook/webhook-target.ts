import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  checkOutboundUrl,
  createOutboundClient,
  Errors,
  judgeHttpAnswer,
  pgArray,
  type DeliveryOutcome,
  type DeliveryPluginContext,
  type DeliveryTarget,
  type HttpAnswerWords,
} from '#plugin-api';
import type { webhookConfig } from './config.ts';
import { secretBox } from './secret-box.ts';
import { webhookBody, webhookId } from './webhook-message.ts';

export type WebhookContext = DeliveryPluginContext<typeof webhookConfig>;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The Webhook delivery target: a direct target. Each delivery is one POST
 * of a JSON body to the subscription's URL, signed per Standard Webhooks
 * (`webhook-id` stable across retries, `webhook-timestamp`,
 * `webhook-signature`) with the subscription's own secret, made at create
 * and shown once in its answer.
 */
/**
 * A receiver's answer: 410 Gone ends the subscription (core stops it); a
 * 429 is that subscriber's receiver alone, so it defers that delivery, not
 * the lane (the others go to other hosts).
 */
const RECEIVER: HttpAnswerWords = { peer: 'receiver', goneStatuses: [410], goneMeans: 'the receiver ended the subscription', slowDownScope: 'delivery' };

export function createWebhookTarget(context: WebhookContext): DeliveryTarget {
  const settings = context.config.Webhook;
  const policy = { allowedHosts: settings.AllowedHosts, listedOnly: false };
  const box = secretBox(settings.EncryptionKey);
  if (!box.encrypts) context.log.info('Webhook__EncryptionKey is not set: webhook signing secrets are stored unencrypted');
  const sender = createOutboundClient({
    allowedHosts: settings.AllowedHosts,
    timeoutSeconds: settings.TimeoutSeconds,
    connectionsPerHost: settings.ConnectionsPerHost,
  });
  // Secrets never change: each is read once, then signs from memory.
  const signers = new Map<number, Webhook>();

  async function signersFor(subscriptionIds: readonly number[]): Promise<Map<number, Webhook>> {
    const missing = [...new Set(subscriptionIds)].filter((id) => !signers.has(id));
    if (missing.length > 0) {
      const rows: Array<{ subscription_id: string | number; secret: string; encrypted: boolean }> = await context
        .db('delivery_webhook_secrets')
        .whereRaw('subscription_id = ANY(?::bigint[])', [pgArray(missing)]);
      for (const row of rows) {
        try {
          signers.set(Number(row.subscription_id), new Webhook(box.open(row.secret, row.encrypted)));
        } catch (err) {
          // A secret sealed under another key fails its own deliveries ("no signing secret"), not the batch's.
          context.log.warn({ err: { message: (err as Error).message } }, 'a webhook signing secret cannot be read (Webhook__EncryptionKey changed?)');
        }
      }
    }
    return signers;
  }

  return {
    provider: 'Webhook',
    startsActive: true,

    prepareDestination(requested, { scope }) {
      if (scope === 'System')
        throw new Errors.InvalidField(
          'Webhook subscriptions are made through the API (each gets its own signing secret in the answer), not as system subscriptions',
        );
      if (requested === undefined) throw new Errors.InvalidField('body/delivery/destination is required: the https URL to post to');
      return checkOutboundUrl(requested.trim(), policy, 'body/delivery/destination').href;
    },

    subscribeUrl: () => null,
    subscribeUrlUnavailableReason: () =>
      'Webhook subscriptions have no subscribe link: every alert is posted to the URL, signed with the secret of the create answer.',

    async onSubscriptionsCreated(trx, subscriptions) {
      const secrets = subscriptions.map(() => newSigningSecret());
      await trx('delivery_webhook_secrets').insert(
        subscriptions.map((subscription, index) => ({ subscription_id: subscription.id, secret: box.seal(secrets[index]!), encrypted: box.encrypts })),
      );
      return secrets.map((webhookSecret) => ({ webhookSecret }));
    },

    async deliver(requests, signal, onOutcome) {
      const now = context.now();
      const signerOf = await signersFor(requests.map((r) => r.subscription.id));
      return Promise.all(
        requests.map(async (request, index): Promise<DeliveryOutcome> => {
          const signer = signerOf.get(request.subscription.id);
          let outcome: DeliveryOutcome;
          if (!signer) outcome = { kind: 'failed', reason: 'no signing secret for this subscription' };
          else {
            const id = webhookId(request.ledgerId);
            const body = webhookBody(request, now);
            const headers = {
              'content-type': 'application/json',
              'user-agent': 'notification-pipeline-webhooks',
              'webhook-id': id,
              'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
              'webhook-signature': signer.sign(id, now, body),
            };
            outcome = judgeHttpAnswer(await sender.post({ url: request.subscription.destination, body, headers }, signal), RECEIVER);
          }
          onOutcome?.(index, outcome);
          return outcome;
        }),
      );
    },

    close: () => sender.close(),
  };
}
