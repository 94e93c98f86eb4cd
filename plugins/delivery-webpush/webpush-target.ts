import webpush from 'web-push';
import {
  createOutboundClient,
  Errors,
  judgeHttpAnswer,
  pgArray,
  type DeliveryOutcome,
  type DeliveryPluginContext,
  type DeliveryTarget,
  type HttpAnswerWords,
} from '#plugin-api';
import { checkBrowserSubscription, type BrowserKeys } from './browser-subscription.ts';
import type { webPushConfig } from './config.ts';
import { pushPayload, pushTopic, pushUrgency } from './push-message.ts';
import { vapidHeaders } from './vapid-cache.ts';

export type WebPushContext = DeliveryPluginContext<typeof webPushConfig>;

/** Why Web Push cannot deliver, naming what to set; undefined when it can. */
export function missingKeys(config: WebPushContext['config']): string | undefined {
  const { VapidPublicKey, VapidPrivateKey } = config.WebPush;
  return VapidPublicKey && VapidPrivateKey
    ? undefined
    : 'No VAPID keys are configured (WebPush__VapidPublicKey and WebPush__VapidPrivateKey are unset; `npm run webpush:keys` makes a pair).';
}

/**
 * The WebPush delivery target: a direct target. Each message is encrypted
 * for the browser (RFC 8291 `aes128gcm`, by the web-push library) and
 * POSTed to its push service with a VAPID token (RFC 8292), a TTL, an
 * Urgency and a Topic, through the guarded client (allowed push services,
 * public addresses). 404 or 410 means the browser dropped the subscription:
 * the delivery fails as gone, and core stops the subscription.
 */
/**
 * A push service's answer: 404 and 410 say the browser's subscription is
 * gone (unsubscribed, expired); a 429 is that push service's alone (the
 * browsers of one lane use several), so it defers that delivery, not the lane.
 */
const PUSH_SERVICE: HttpAnswerWords = {
  peer: 'push service',
  goneStatuses: [404, 410],
  goneMeans: "the browser's subscription is gone",
  slowDownScope: 'delivery',
};

export function createWebPushTarget(context: WebPushContext): DeliveryTarget {
  const settings = context.config.WebPush;
  const policy = { allowedHosts: settings.AllowedEndpointHosts, listedOnly: true };
  const base = context.coreConfig.PublicBaseUrl.replace(/\/+$/, '');
  const client = createOutboundClient({
    allowedHosts: settings.AllowedEndpointHosts,
    timeoutSeconds: settings.TimeoutSeconds,
    connectionsPerHost: settings.ConnectionsPerHost,
  });
  const authorization = missingKeys(context.config)
    ? undefined
    : vapidHeaders({ publicKey: settings.VapidPublicKey!, privateKey: settings.VapidPrivateKey!, subject: settings.Subject }, context.now);
  // A browser's keys never change: each is read once.
  const keysOf = new Map<number, BrowserKeys>();

  async function loadKeys(subscriptionIds: readonly number[]): Promise<void> {
    const missing = [...new Set(subscriptionIds)].filter((id) => !keysOf.has(id));
    if (missing.length === 0) return;
    const rows: Array<{ subscription_id: string | number; p256dh: string; auth: string }> = await context
      .db('delivery_webpush_keys')
      .whereRaw('subscription_id = ANY(?::bigint[])', [pgArray(missing)]);
    for (const row of rows) keysOf.set(Number(row.subscription_id), { p256dh: row.p256dh, auth: row.auth });
  }

  return {
    provider: 'WebPush',
    startsActive: true,

    prepareDestination() {
      throw new Errors.InvalidField(
        "body/delivery/subscription is required: the browser's push subscription (PushSubscription.toJSON()); Web Push cannot be a system subscription",
      );
    },

    prepareDelivery(delivery) {
      const { endpoint, keys } = checkBrowserSubscription(delivery.subscription, policy);
      return { destination: endpoint, details: keys };
    },

    unavailableReason: () => missingKeys(context.config),
    subscribeUrl: () => null,
    subscribeUrlUnavailableReason: () => 'Browser subscriptions have no subscribe link: the browser that subscribed shows the alerts.',

    async onSubscriptionsCreated(trx, subscriptions, details) {
      await trx('delivery_webpush_keys').insert(
        subscriptions.map((subscription, index) => {
          const keys = details?.[index] as BrowserKeys | undefined;
          if (!keys) throw new Error('a WebPush subscription was created without its browser keys');
          return { subscription_id: subscription.id, p256dh: keys.p256dh, auth: keys.auth };
        }),
      );
    },

    async deliver(requests, signal, onOutcome) {
      if (!authorization) return requests.map(() => ({ kind: 'retry', reason: 'no VAPID keys are configured' }) as const);
      await loadKeys(requests.map((r) => r.subscription.id));
      return Promise.all(
        requests.map(async (request, index): Promise<DeliveryOutcome> => {
          const keys = keysOf.get(request.subscription.id);
          let outcome: DeliveryOutcome;
          if (!keys) outcome = { kind: 'failed', reason: "no keys for this browser's subscription" };
          else {
            const endpoint = request.subscription.destination;
            let encrypted: ReturnType<typeof webpush.encrypt> | undefined;
            try {
              // The web-push library encrypts (RFC 8291 aes128gcm: its body carries the salt, record size and key id).
              encrypted = webpush.encrypt(keys.p256dh, keys.auth, pushPayload(request, `${base}/manage/${request.subscription.publicId}`), 'aes128gcm');
            } catch {
              // One browser's unusable keys fail its delivery alone, never the batch (whose other pushes are on the wire).
              encrypted = undefined;
            }
            if (!encrypted) outcome = { kind: 'failed', reason: "the browser's keys cannot encrypt a message" };
            else {
              const headers = {
                authorization: authorization(endpoint),
                ttl: String(settings.TtlSeconds),
                urgency: pushUrgency(request.rendered.priority),
                topic: pushTopic(request.rendered.sequenceId),
                'content-encoding': 'aes128gcm',
                'content-type': 'application/octet-stream',
              };
              outcome = judgeHttpAnswer(await client.post({ url: endpoint, headers, body: encrypted.cipherText }, signal), PUSH_SERVICE);
            }
          }
          // Gone (the browser dropped it): core stops the subscription; its keys are of no more use here.
          if (outcome.kind === 'failed' && outcome.gone) keysOf.delete(request.subscription.id);
          onOutcome?.(index, outcome);
          return outcome;
        }),
      );
    },

    close: () => client.close(),
  };
}
