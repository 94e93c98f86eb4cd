import type { Knex } from 'knex';
import { readLanes } from '../delivery/index.ts';
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
export function registerDatabaseGauges(metrics: ServiceMetrics, db: Knex, rates: ReadonlyMap<string, number>): void {
  const providers = [...rates.keys()];
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
  // The three lane gauges of one scrape share one read.
  let lanes: { at: number; read: ReturnType<typeof readLanes> } | undefined;
  const lanesNow = () => {
    if (!lanes || performance.now() - lanes.at > 1000) lanes = { at: performance.now(), read: readLanes(db, rates) };
    return lanes.read;
  };
  metrics.scrapedGauge({
    name: 'notification_lane_waiting',
    help: 'Deliveries waiting in each lane (claimed, not yet handed to the peer), read from the database.',
    labelNames: ['provider'],
    read: async () => (await lanesNow()).map((lane) => ({ labels: { provider: lane.provider }, value: lane.waiting })),
  });
  metrics.scrapedGauge({
    name: 'notification_lane_oldest_waiting_seconds',
    help: 'Seconds since the oldest delivery waiting in each lane was claimed.',
    labelNames: ['provider'],
    read: async () => (await lanesNow()).map((lane) => ({ labels: { provider: lane.provider }, value: lane.oldestWaitingSeconds })),
  });
  metrics.scrapedGauge({
    name: 'notification_lane_paused',
    help: '1 while a lane is paused (its peer said to slow down), else 0.',
    labelNames: ['provider'],
    read: async () => (await lanesNow()).map((lane) => ({ labels: { provider: lane.provider }, value: lane.pausedUntil ? 1 : 0 })),
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
