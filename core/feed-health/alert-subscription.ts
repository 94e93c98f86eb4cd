import type { Knex } from 'knex';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { systemDestination, upsertSystemSubscription } from '../subscriptions/system-subscriptions.ts';
import { FEED_HEALTH_FEED_ID } from './feed-health-feed.ts';

/** The system subscription behind FeedHealth__AlertTopic (not an `env:` one: the env system subscriptions leave it alone). */
const ALERT_SYSTEM_NAME = 'core:feed-health';

/**
 * FeedHealth__AlertTopic as a push destination: checked by the Push
 * target's topic policy like any system topic; a bad one stops the start
 * with a message naming the key. Null when unset.
 */
export function alertDestination(topic: string | undefined, targets: ReadonlyMap<string, DeliveryTarget>): string | null {
  return topic === undefined ? null : systemDestination('Push', topic, targets, 'FeedHealth__AlertTopic');
}

/** The alert subscription, active on `destination`, or deactivated when there is none (kept: the ledger refers to it). */
export async function syncAlertSubscription(db: Knex, destination: string | null): Promise<void> {
  if (destination === null) {
    await db('notification_subscriptions').where({ system_name: ALERT_SYSTEM_NAME }).update({ is_active: false, updated_at: db.fn.now() });
    return;
  }
  await upsertSystemSubscription(db, {
    systemName: ALERT_SYSTEM_NAME,
    publicId: 'system-feed-health',
    displayName: 'System: feed health alerts',
    feedId: FEED_HEALTH_FEED_ID,
    provider: 'Push',
    destination,
  });
}
