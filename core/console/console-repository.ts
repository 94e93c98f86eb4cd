import type { Knex } from 'knex';
import { REACHED_STATES, SETTLED_STATES, UNSETTLED_STATES, sqlList } from '../ledger/index.ts';
import { TEST_EVENT_TYPE } from '../pipeline/test-event.ts';
import { CATCH_UP_EVENT_TYPE } from '../pipeline/quiet-hours/catch-up-release.ts';

/** What the console reads of the ledger, events and subscriptions: set-based, one statement each, bounded. */

const WAITING: readonly string[] = UNSETTLED_STATES;

type Counted = Record<string, unknown>;

/** Deliveries still to go, per provider and status. */
export async function backlogByProvider(db: Knex): Promise<Array<{ provider: string; status: string; count: number }>> {
  const rows = await db('notification_delivery_ledger')
    .whereIn('status', [...WAITING])
    .select('provider', 'status')
    .count({ n: '*' })
    .groupBy('provider', 'status')
    .orderBy(['provider', 'status']);
  return (rows as Counted[]).map((row) => ({ provider: String(row.provider), status: String(row.status), count: Number(row.n) }));
}

/**
 * Deliveries of the last 24 hours (claimed then, by the database's clock) that have an outcome, per
 * outcome: read through the settled rows' index (retention's), so a console refreshing every 15 s
 * never scans the whole ledger.
 */
export async function deliveriesOfLastDay(db: Knex): Promise<Array<{ status: string; count: number }>> {
  const rows = await db('notification_delivery_ledger')
    .whereIn('status', [...SETTLED_STATES])
    .where('created_at', '>=', db.raw("now() - interval '24 hours'"))
    .select('status')
    .count({ n: '*' })
    .groupBy('status')
    .orderBy('status');
  return (rows as Counted[]).map((row) => ({ status: String(row.status), count: Number(row.n) }));
}

/** Active subscriptions per feed and provider. */
export async function activeSubscriptions(db: Knex): Promise<Array<{ feedId: string; provider: string; count: number }>> {
  const rows = await db('notification_subscriptions')
    .where({ is_active: true })
    .select('feed_id', 'provider')
    .count({ n: '*' })
    .groupBy('feed_id', 'provider')
    .orderBy(['feed_id', 'provider']);
  return (rows as Counted[]).map((row) => ({ feedId: String(row.feed_id), provider: String(row.provider), count: Number(row.n) }));
}

export interface ConsoleEvent {
  /** The event's id as a string: a bigint, exact at any size (a JSON number is rounded above 2^53). */
  readonly id: string;
  readonly feedId: string;
  readonly eventType: string;
  readonly sourceKey: string;
  readonly title: string;
  readonly createdAt: string;
  readonly hold: {
    readonly status: string;
    readonly count: number | null;
    /** Its reach by provider, as counted when it was held (at least these many each). */
    readonly byProvider: Readonly<Record<string, number>>;
    readonly decidedBy: string | null;
  } | null;
  readonly matched: number;
  readonly delivered: number;
  readonly failed: number;
  readonly waiting: number;
}

/** The latest events (a feed's, or every feed's; never a test or a catch-up), each with its deliveries counted by outcome; held ones only when asked. */
export async function latestEvents(db: Knex, options: { feedId?: string; heldOnly?: boolean; limit: number }): Promise<ConsoleEvent[]> {
  const result = await db.raw(
    `SELECT e.id, e.feed_id, e.event_type, e.source_key, e.rendered->>'title' AS title, e.created_at, e.hold_status, e.hold_count, e.hold_by_provider, e.hold_decided_by,
            count(l.id)::int AS matched,
            count(l.id) FILTER (WHERE l.status IN (${sqlList(REACHED_STATES)}))::int AS delivered,
            count(l.id) FILTER (WHERE l.status = 'failed')::int AS failed,
            count(l.id) FILTER (WHERE l.status = ANY(?::text[]))::int AS waiting
       FROM (SELECT * FROM notification_events
              WHERE event_type NOT IN (?, ?) ${options.feedId ? 'AND feed_id = ?' : ''} ${options.heldOnly ? "AND hold_status = 'held'" : ''}
              ORDER BY id DESC LIMIT ?) e
       LEFT JOIN notification_delivery_ledger l ON l.event_id = e.id
      GROUP BY e.id, e.feed_id, e.event_type, e.source_key, e.rendered, e.created_at, e.hold_status, e.hold_count, e.hold_by_provider, e.hold_decided_by
      ORDER BY e.id DESC`,
    [[...WAITING], TEST_EVENT_TYPE, CATCH_UP_EVENT_TYPE, ...(options.feedId ? [options.feedId] : []), options.limit],
  );
  return (result.rows as Array<Record<string, unknown>>).map((row) => ({
    id: String(row.id),
    feedId: String(row.feed_id),
    eventType: String(row.event_type),
    sourceKey: String(row.source_key),
    title: String(row.title ?? ''),
    createdAt: new Date(row.created_at as string).toISOString(),
    hold: row.hold_status
      ? {
          status: String(row.hold_status),
          count: row.hold_count === null ? null : Number(row.hold_count),
          byProvider: (row.hold_by_provider ?? {}) as Record<string, number>,
          decidedBy: (row.hold_decided_by as string | null) ?? null,
        }
      : null,
    matched: Number(row.matched),
    delivered: Number(row.delivered),
    failed: Number(row.failed),
    waiting: Number(row.waiting),
  }));
}
