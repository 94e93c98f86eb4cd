import type { Knex } from 'knex';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { PluginRegistry } from '../plugins/registry.ts';

export interface SystemSubscriptionSetting {
  FeedId: string;
  PushTopic: string;
}

const ENV_PREFIX = 'env:';

/**
 * A configured topic as a System subscription's push destination: checked
 * by the Push target's topic policy; a bad one, or no Push target, stops
 * the start with a message naming the setting (`where`).
 */
export function systemPushDestination(topic: string, targets: ReadonlyMap<string, DeliveryTarget>, where: string): string {
  const push = targets.get('Push');
  if (!push) throw new Error(`${where}: system subscriptions deliver by Push, and no Push delivery target is installed`);
  try {
    return push.prepareDestination(topic, { scope: 'System' });
  } catch (cause) {
    throw new Error(`${where}: ${(cause as Error).message}`, { cause });
  }
}

export interface SystemSubscriptionRow {
  /** Unique among system subscriptions: `env:<Name>`, or core's own (`core:feed-health`). */
  readonly systemName: string;
  readonly publicId: string;
  readonly displayName: string;
  readonly feedId: string;
  readonly destination: string;
}

/** Inserts the System subscription, or makes the existing one of that name active on this feed and topic, filter empty. */
export async function upsertSystemSubscription(db: Knex | Knex.Transaction, row: SystemSubscriptionRow): Promise<void> {
  await db.raw(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active, system_name)
     VALUES (?, ?, ?, '{}', 'Push', ?, 'System', true, ?)
     ON CONFLICT (system_name) DO UPDATE
       SET feed_id = EXCLUDED.feed_id, destination = EXCLUDED.destination, filter_json = '{}', is_active = true, updated_at = now()`,
    [row.publicId, row.displayName, row.feedId, row.destination, row.systemName],
  );
}

/**
 * Upserts the system subscriptions configured in env
 * (NotificationPipeline__SystemSubscriptions__<Name>__FeedId/PushTopic):
 * scope System, empty filter, active, provider Push. One removed from env
 * is deactivated. Rows seeded by migrations (other system names) are left
 * alone. A bad feed id or a topic the push policy refuses stops the start
 * with a message naming the subscription.
 */
export async function syncSystemSubscriptions(
  db: Knex,
  settings: Readonly<Record<string, SystemSubscriptionSetting>>,
  registry: PluginRegistry,
  targets: ReadonlyMap<string, DeliveryTarget>,
): Promise<void> {
  const rows = Object.entries(settings).map(([name, setting]) => {
    const where = `NotificationPipeline__SystemSubscriptions__${name}`;
    if (!registry.feed(setting.FeedId)) throw new Error(`${where}__FeedId: unknown feed "${setting.FeedId}"`);
    if (!targets.has('Push')) throw new Error(`${where}: system subscriptions deliver by Push, and no Push delivery target is installed`);
    return {
      systemName: `${ENV_PREFIX}${name}`,
      publicId: `system-${name.toLowerCase()}`,
      displayName: `System: ${name}`,
      feedId: setting.FeedId,
      destination: systemPushDestination(setting.PushTopic, targets, `${where}__PushTopic`),
    };
  });
  await db.transaction(async (trx) => {
    for (const row of rows) await upsertSystemSubscription(trx, row);
    await trx('notification_subscriptions')
      .where('system_name', 'like', `${ENV_PREFIX}%`)
      .whereNotIn('system_name', rows.map((row) => row.systemName))
      .update({ is_active: false, updated_at: trx.fn.now() });
  });
}
