import type { Knex } from 'knex';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { PluginRegistry } from '../plugins/registry.ts';

export interface SystemSubscriptionSetting {
  FeedId: string;
  PushTopic: string;
}

const ENV_PREFIX = 'env:';

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
    const push = targets.get('Push');
    if (!push) throw new Error(`${where}: system subscriptions deliver by Push, and no Push delivery target is installed`);
    let destination: string;
    try {
      destination = push.prepareDestination(setting.PushTopic, { scope: 'System' });
    } catch (cause) {
      throw new Error(`${where}__PushTopic: ${(cause as Error).message}`, { cause });
    }
    return { name: `${ENV_PREFIX}${name}`, feedId: setting.FeedId, destination };
  });
  await db.transaction(async (trx) => {
    for (const row of rows) {
      await trx.raw(
        `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active, system_name)
         VALUES (?, ?, ?, '{}', 'Push', ?, 'System', true, ?)
         ON CONFLICT (system_name) DO UPDATE
           SET feed_id = EXCLUDED.feed_id, destination = EXCLUDED.destination, filter_json = '{}', is_active = true, updated_at = now()`,
        [`system-${row.name.slice(ENV_PREFIX.length).toLowerCase()}`, `System: ${row.name.slice(ENV_PREFIX.length)}`, row.feedId, row.destination, row.name],
      );
    }
    await trx('notification_subscriptions')
      .where('system_name', 'like', `${ENV_PREFIX}%`)
      .whereNotIn('system_name', rows.map((row) => row.name))
      .update({ is_active: false, updated_at: trx.fn.now() });
  });
}
