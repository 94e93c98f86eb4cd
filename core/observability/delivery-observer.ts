import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { DeliveryObservation, ServiceMetrics } from './service-metrics.ts';
import { pgArray as array } from '../plugin-api/pg-array.ts';

/** A dispatcher outcome: `event` is the leased row's event, one object for the rows of one event. */
export type DispatchedDelivery = DeliveryObservation & { readonly ledgerId: number; readonly event: object };

/** Where delivery outcomes are recorded, told to the metrics. */
export interface DeliveryObserver {
  /** A dispatcher batch, once the ledger holds its outcomes. */
  dispatched(outcomes: readonly DispatchedDelivery[]): void;
  /** Rows a transactional target (the email outbox) settled through the ledger port, with their event's age at delivery. */
  settled(rows: ReadonlyArray<DeliveryObservation & { readonly latencySeconds: number | null }>): void;
  /** What peers said later of deliveries (a carrier's `undelivered` report), once the ledger holds it. */
  reported(rows: ReadonlyArray<{ readonly provider: string; readonly outcome: 'undelivered' | 'gone' }>): void;
  /** Resolves when the latency reads under way have ended (shutdown, before the database closes). */
  idle(): Promise<void>;
}

/**
 * Counts outcomes and observes the latency of delivered rows: from the
 * event's creation (the database's clock) to the delivery. An event's age
 * is read from the database once, by one of its rows, and carried forward
 * on this process's monotonic clock for its later deliveries, so a fan-out
 * of 100,000 rows costs one read, done beside the dispatcher, never in its
 * way: a failed read costs histogram samples, not a delivery.
 */
export function createDeliveryObserver(db: Knex, metrics: ServiceMetrics, log: FastifyBaseLogger): DeliveryObserver {
  const ages = new WeakMap<object, { readonly seconds: number; readonly at: number }>();
  const ageOf = (event: object, now: number) => {
    const age = ages.get(event);
    return age && age.seconds + (now - age.at) / 1000;
  };
  const reads = new Set<Promise<void>>();
  const readAges = (unknown: ReadonlyMap<object, number>, delivered: readonly object[]) => {
    const read: Promise<void> = db
      .raw(
        `SELECT l.id, EXTRACT(EPOCH FROM now() - e.created_at) AS seconds
           FROM notification_delivery_ledger l JOIN notification_events e ON e.id = l.event_id
          WHERE l.id = ANY(?::bigint[])`,
        [array([...unknown.values()])],
      )
      .then((result: { rows: Array<{ id: string | number; seconds: string | number }> }) => {
        const at = performance.now();
        const byId = new Map(result.rows.map((row) => [Number(row.id), Number(row.seconds)]));
        for (const [event, ledgerId] of unknown) if (byId.has(ledgerId)) ages.set(event, { seconds: byId.get(ledgerId)!, at });
        metrics.observeDeliveryLatency(delivered.flatMap((event) => ageOf(event, at) ?? []));
      })
      .catch((err: unknown) => log.warn({ err }, 'delivery latency could not be read'))
      .finally(() => reads.delete(read));
    reads.add(read);
  };
  return {
    dispatched(outcomes) {
      if (!metrics.enabled) return;
      metrics.countDeliveries(outcomes);
      const now = performance.now();
      const known: number[] = [];
      const unknown = new Map<object, number>();
      const waiting: object[] = [];
      for (const outcome of outcomes) {
        if (outcome.status !== 'delivered') continue;
        const age = ageOf(outcome.event, now);
        if (age !== undefined) known.push(age);
        else {
          if (!unknown.has(outcome.event)) unknown.set(outcome.event, outcome.ledgerId);
          waiting.push(outcome.event);
        }
      }
      metrics.observeDeliveryLatency(known);
      if (unknown.size > 0) readAges(unknown, waiting);
    },
    settled(rows) {
      if (!metrics.enabled) return;
      metrics.countDeliveries(rows);
      metrics.observeDeliveryLatency(rows.flatMap((row) => (row.status === 'delivered' && row.latencySeconds !== null ? [row.latencySeconds] : [])));
    },
    reported(rows) {
      if (!metrics.enabled) return;
      metrics.countDeliveries(rows.map((row) => ({ provider: row.provider, status: row.outcome })));
    },
    async idle() {
      await Promise.all([...reads]);
    },
  };
}
