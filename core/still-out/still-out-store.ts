import type { Knex } from 'knex';
import { audit } from '../audit/audit-log.ts';
import { TOLD_STATES, sqlList } from '../ledger/index.ts';
import { pgArray as array } from '../plugin-api/pg-array.ts';

/** How a report came: the link in a message, or a reply to it (OUT by SMS). */
export type ReportVia = 'link' | 'reply';

/** How long after a message that ended an item a reply still reports on it. */
export const REPLY_WINDOW_HOURS = 72;

/** What became of a report: recorded, already recorded for that subscription and item, or not about an item's end. */
export type ReportVerdict = { readonly kind: 'recorded' | 'already'; readonly areas: string } | { readonly kind: 'notAnEnd' } | { readonly kind: 'unknown' };

/** The event types of each feed whose message asks "still out?": (feed id, event type) pairs. */
export type StillOutTypes = ReadonlyArray<{ readonly feedId: string; readonly eventType: string }>;

/**
 * Records that the item a delivery told the end of has not ended for its
 * subscriber: once per subscription and item (a second report changes
 * nothing), with the item's areas as its event gave them, and an audit
 * entry. Only a delivery of a type that asks counts. Nothing of the feed's
 * own state is read or changed.
 */
export async function reportByDelivery(db: Knex, ledgerId: number, via: ReportVia, types: StillOutTypes): Promise<ReportVerdict> {
  return db.transaction(async (trx) => {
    const row = await trx('notification_delivery_ledger as l')
      .join('notification_events as e', 'e.id', 'l.event_id')
      .join('notification_subscriptions as s', 's.id', 'l.subscription_id')
      .where('l.id', ledgerId)
      .first(
        'l.subscription_id',
        'l.feed_id',
        'l.item_key',
        'l.event_type',
        's.public_id',
        trx.raw("COALESCE(e.fields->>'areas', e.fields->>'area', '') AS areas"),
      );
    if (!row) return { kind: 'unknown' };
    if (!types.some((type) => type.feedId === row.feed_id && type.eventType === row.event_type)) return { kind: 'notAnEnd' };
    const inserted = await trx('still_out_reports')
      .insert({ subscription_id: row.subscription_id, feed_id: row.feed_id, item_key: row.item_key, areas: row.areas, via, ledger_id: ledgerId })
      .onConflict(['subscription_id', 'feed_id', 'item_key'])
      .ignore()
      .returning('id');
    if (inserted.length === 0) return { kind: 'already', areas: row.areas };
    await audit(trx, `subscriber:${row.public_id}`, 'still-out report', { feedId: row.feed_id, item: row.item_key, areas: row.areas, via });
    return { kind: 'recorded', areas: row.areas };
  });
}

/**
 * The latest delivery of an item's end (of a type that asks "still out?")
 * told to each of these subscriptions in the last REPLY_WINDOW_HOURS: what
 * a reply reports on.
 */
export async function latestEndDeliveries(db: Knex, subscriptionIds: readonly number[], types: StillOutTypes): Promise<number[]> {
  if (subscriptionIds.length === 0 || types.length === 0) return [];
  const result = await db.raw(
    `SELECT DISTINCT ON (l.subscription_id) l.id
       FROM notification_delivery_ledger l
       JOIN unnest(?::text[], ?::text[]) AS t(feed_id, event_type) ON t.feed_id = l.feed_id AND t.event_type = l.event_type
      WHERE l.subscription_id = ANY(?::bigint[]) AND l.status IN (${sqlList(TOLD_STATES)})
        AND l.created_at > now() - make_interval(hours => ?)
      ORDER BY l.subscription_id, l.id DESC`,
    [array(types.map((t) => t.feedId)), array(types.map((t) => t.eventType)), array(subscriptionIds), REPLY_WINDOW_HOURS],
  );
  return (result.rows as Array<{ id: string | number }>).map((row) => Number(row.id));
}

export interface StillOutItem {
  readonly feedId: string;
  readonly itemKey: string;
  readonly reports: number;
  /** The areas the reports were about, as the item's messages named them. */
  readonly areas: string[];
  readonly lastReportAt: string;
}

/** Reports of the last week per item, the item with the newest report first (the console). */
export async function stillOutItems(db: Knex, limit: number): Promise<StillOutItem[]> {
  const result = await db.raw(
    `SELECT feed_id, item_key, count(*)::int AS reports, array_agg(DISTINCT areas) AS areas, max(reported_at) AS last
       FROM still_out_reports WHERE reported_at > now() - interval '7 days'
      GROUP BY feed_id, item_key ORDER BY max(reported_at) DESC, item_key LIMIT ?`,
    [limit],
  );
  return (result.rows as Array<{ feed_id: string; item_key: string; reports: number; areas: string[]; last: Date | string }>).map((row) => ({
    feedId: row.feed_id,
    itemKey: row.item_key,
    reports: Number(row.reports),
    areas: row.areas.filter((area) => area !== ''),
    lastReportAt: new Date(row.last).toISOString(),
  }));
}

/** Reports made before the cutoff, at most `limit` of them (retention); returns how many were removed. */
export async function purgeStillOutReports(db: Knex, cutoff: Date, limit: number): Promise<number> {
  const result = await db.raw(
    'DELETE FROM still_out_reports WHERE id IN (SELECT id FROM still_out_reports WHERE reported_at < ? ORDER BY reported_at LIMIT ?)',
    [cutoff, limit],
  );
  return Number(result.rowCount ?? 0);
}

/** The service's key of "still out?" links (made by the migration). */
export async function stillOutKey(db: Knex): Promise<string> {
  const row = await db('service_keys').where({ name: 'still-out' }).first('key');
  if (!row) throw new Error('the still-out key is missing: run the migrations');
  return row.key as string;
}
