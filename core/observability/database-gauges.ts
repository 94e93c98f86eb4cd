import type { Knex } from 'knex';
import { listFeedHealth } from '../feed-health/feed-health-repository.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** Each part of the backlog is counted up to this many rows: the read stays bounded however far behind delivery is. */
const BACKLOG_COUNT_CAP = 100_000;

/**
 * Deliveries waiting, by provider: pending or retrying, and in flight
 * (being sent, or queued in a transactional target such as the email
 * outbox). Two index scans (the due index and the queued one), each
 * stopped at `cap` rows.
 */
async function deliveryBacklog(db: Knex, cap = BACKLOG_COUNT_CAP): Promise<Map<string, number>> {
  const result = await db.raw(
    `SELECT provider, count(*) AS n FROM (
       (SELECT provider FROM notification_delivery_ledger WHERE status IN ('pending', 'retrying', 'delivering') LIMIT ?)
       UNION ALL
       (SELECT provider FROM notification_delivery_ledger WHERE status = 'queued' LIMIT ?)
     ) waiting GROUP BY provider`,
    [cap, cap],
  );
  return new Map((result.rows as Array<{ provider: string; n: string | number }>).map((row) => [row.provider, Number(row.n)]));
}

/**
 * The gauges core reads from its own tables when scraped, so every
 * instance reports the same figures: the delivery backlog (every
 * installed provider, 0 included) and the last successful poll of each
 * feed polled so far.
 */
export function registerDatabaseGauges(metrics: ServiceMetrics, db: Knex, providers: readonly string[]): void {
  metrics.scrapedGauge({
    name: 'notification_delivery_backlog',
    help: `Deliveries waiting (pending, retrying, or in flight), read from the database; each part counted up to ${BACKLOG_COUNT_CAP}.`,
    labelNames: ['provider'],
    async read() {
      const backlog = await deliveryBacklog(db);
      for (const provider of providers) if (!backlog.has(provider)) backlog.set(provider, 0);
      return [...backlog].map(([provider, value]) => ({ labels: { provider }, value }));
    },
  });
  metrics.scrapedGauge({
    name: 'notification_feed_last_success_timestamp_seconds',
    help: 'When the last successful poll of each feed started (Unix time), read from the database.',
    labelNames: ['feed'],
    async read() {
      const records = [...(await listFeedHealth(db)).values()];
      return records.flatMap((record) => (record.lastSuccessAt ? [{ labels: { feed: record.feedId }, value: record.lastSuccessAt.getTime() / 1000 }] : []));
    },
  });
}
