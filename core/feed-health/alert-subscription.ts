import type { Knex } from 'knex';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { FEED_HEALTH_FEED_ID } from './feed-health-feed.ts';

/** The system subscription behind FeedHealth__AlertTopic (not an `env:` one: the env system subscriptions leave it alone). */
const ALERT_SYSTEM_NAME = 'core:feed-health';

/**
 * FeedHealth__AlertTopic as a push destination: checked by the Push
 * target's topic policy like any system topic; a bad one stops the start
 * with a message naming the key. Null when unset.
 */
export function alertDestination(topic: string | undefined, targets: ReadonlyMap<string, DeliveryTarget>): string | null {
  if (topic === undefined) return null;
  const push = targets.get('Push');
  if (!push) throw new Error('FeedHealth__AlertTopic: alerts are pushed, and no Push delivery target is installed');
  try {
    return push.prepareDestination(topic, { scope: 'System' });
  } catch (cause) {
    throw new Error(`FeedHealth__AlertTopic: ${(cause as Error).message}`, { cause });
  }
}

/** The alert subscription, active on `destination`, or deactivated when there is none (kept: the ledger refers to it). */
export async function syncAlertSubscription(db: Knex, destination: string | null): Promise<void> {
  if (destination === null) {
    await db('notification_subscriptions').where({ system_name: ALERT_SYSTEM_NAME }).update({ is_active: false, updated_at: db.fn.now() });
    return;
  }
  await db.raw(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active, system_name)
     VALUES ('system-feed-health', 'System: feed health alerts', ?, '{}', 'Push', ?, 'System', true, ?)
     ON CONFLICT (system_name) DO UPDATE SET destination = EXCLUDED.destination, is_active = true, updated_at = now()`,
    [FEED_HEALTH_FEED_ID, destination, ALERT_SYSTEM_NAME],
  );
}
