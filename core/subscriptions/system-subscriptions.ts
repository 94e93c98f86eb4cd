import type { Knex } from 'knex';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { PluginRegistry } from '../plugins/registry.ts';

export interface SystemSubscriptionSetting {
  FeedId: string;
  PushTopic?: string;
  Provider: string;
  Destination?: string;
}

const ENV_PREFIX = 'env:';

/**
 * What a system subscription's settings say it delivers to: PushTopic (for
 * Push, the contract's key) or Destination, for its Provider. Throws naming
 * the keys when they disagree or neither is set.
 */
export function systemDelivery(setting: SystemSubscriptionSetting, where: string): { provider: string; destination: string; key: string } {
  if (setting.PushTopic !== undefined && setting.Destination !== undefined) throw new Error(`${where}: set __PushTopic or __Destination, not both`);
  if (setting.PushTopic !== undefined) {
    if (setting.Provider !== 'Push') throw new Error(`${where}__PushTopic is for Provider Push; for ${setting.Provider} set __Destination`);
    return { provider: 'Push', destination: setting.PushTopic, key: `${where}__PushTopic` };
  }
  if (setting.Destination === undefined) throw new Error(`${where}: set __Destination (or __PushTopic for Push)`);
  return { provider: setting.Provider, destination: setting.Destination, key: `${where}__Destination` };
}

/**
 * A configured destination as a System subscription's: checked by its
 * target's policy (the push topic policy); a bad one, or a provider not
 * installed, stops the start with a message naming the setting (`where`).
 */
export function systemDestination(provider: string, destination: string, targets: ReadonlyMap<string, DeliveryTarget>, where: string): string {
  const target = targets.get(provider);
  if (!target) throw new Error(`${where}: no ${provider} delivery target is installed (installed: ${[...targets.keys()].join(', ') || 'none'})`);
  try {
    return target.prepareDestination(destination, { scope: 'System' });
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
  readonly provider: string;
  readonly destination: string;
}

/** Inserts the System subscription, or makes the existing one of that name active on this feed, provider and destination, filter empty. */
export async function upsertSystemSubscription(db: Knex | Knex.Transaction, row: SystemSubscriptionRow): Promise<void> {
  await db.raw(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active, system_name)
     VALUES (?, ?, ?, '{}', ?, ?, 'System', true, ?)
     ON CONFLICT (system_name) DO UPDATE
       SET feed_id = EXCLUDED.feed_id, provider = EXCLUDED.provider, destination = EXCLUDED.destination, filter_json = '{}',
           is_active = true, updated_at = now()`,
    [row.publicId, row.displayName, row.feedId, row.provider, row.destination, row.systemName],
  );
}

/**
 * Upserts the system subscriptions configured in env
 * (NotificationPipeline__SystemSubscriptions__<Name>__FeedId with
 * __PushTopic, or with __Provider and __Destination): scope System, empty
 * filter, active (an operator's destination needs no confirmation). One
 * removed from env is deactivated. Rows seeded by migrations (other system
 * names) are left alone. A bad feed id, a provider not installed or a
 * destination its target refuses stops the start with a message naming
 * the subscription's key.
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
    const { provider, destination, key } = systemDelivery(setting, where);
    return {
      systemName: `${ENV_PREFIX}${name}`,
      publicId: `system-${name.toLowerCase()}`,
      displayName: `System: ${name}`,
      feedId: setting.FeedId,
      provider,
      destination: systemDestination(provider, destination, targets, key),
    };
  });
  await db.transaction(async (trx) => {
    for (const row of rows) await upsertSystemSubscription(trx, row);
    await trx('notification_subscriptions')
      .where('system_name', 'like', `${ENV_PREFIX}%`)
      .whereNotIn(
        'system_name',
        rows.map((row) => row.systemName),
      )
      .update({ is_active: false, updated_at: trx.fn.now() });
  });
}
