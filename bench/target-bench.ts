/**
 * What bench:sms and bench:webhook share: a target in the real service on
 * PostgreSQL (or PGlite), requests shaped as the dispatcher hands them
 * over, batches run as the dispatcher runs them, and rounds alternating
 * the target with its raw baseline, medians compared.
 */
import type { DeliveryRequest } from '../core/plugin-api/index.ts';
import { preferredKind, provisionDatabase } from '../test/helpers/databases.ts';
import { servicesOf, startTestApp } from '../test/helpers/test-app.ts';
import { benchPluginsDir, median, removeDir } from './bench-support.ts';

export const TOTAL = Number(process.env.N ?? 10_000);
export const BATCH = 500;
/** NotificationPipeline__DispatchBatchesInFlight's default. */
export const BATCHES_IN_FLIGHT = 3;
const ROUNDS = 5;

/** The real service with these plugins and settings, workers off; its targets and database. */
export async function benchService(plugins: string[], env: Record<string, string>) {
  const database = await provisionDatabase(await preferredKind());
  const pluginsDir = benchPluginsDir([], plugins);
  const harness = await startTestApp({ database, pluginsDir, workers: false, env: { Logging__Level: 'warn', ...env } });
  const services = servicesOf(harness.app);
  return {
    database,
    knex: services.database.knex,
    target: (provider: string) => services.targets.get(provider)!,
    async close() {
      await harness.close();
      await database.drop();
      removeDir(pluginsDir);
    },
  };
}

/** `TOTAL` requests of one subscription, rendered like a power outage. */
export function benchRequests(subscription: DeliveryRequest['subscription'], destinationOf: (i: number) => string): DeliveryRequest[] {
  return Array.from({ length: TOTAL }, (_, i) => ({
    ledgerId: i + 1,
    attempt: 1,
    subscription: { ...subscription, destination: destinationOf(i) },
    event: {
      feedId: 'utility.power-outages',
      eventType: 'NewOutage',
      sourceKey: `PO-${i}`,
      itemKey: `PO-${i}`,
      fields: { feeder: `F${i % 40}`, areas: 'Kandy, Peradeniya' },
      sourcePayload: {},
    },
    rendered: {
      title: `Power outage: Kandy ${i}`,
      body: `Feeder: F${i % 40}\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 UTC\nCause: Fallen line`,
      sequenceId: `po-PO-${i}`,
      tags: ['warning'],
      priority: 'High',
    },
  }));
}

/** Runs the batches with at most `BATCHES_IN_FLIGHT` at once, as the dispatcher does; answers how many went through. */
export async function inFlight(work: (start: number) => Promise<number>): Promise<number> {
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < TOTAL) {
      const start = next;
      next += BATCH;
      const count = await work(start);
      done += count;
    }
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, lane));
  return done;
}

/** One warm-up each, then `ROUNDS` alternating rounds: the median rate of each, per second. */
export async function compareRates(viaTarget: () => Promise<number>, raw: () => Promise<number>): Promise<{ target: number; raw: number; rounds: number }> {
  const timed = async (run: () => Promise<number>) => {
    const started = performance.now();
    const count = await run();
    if (count !== TOTAL) throw new Error(`only ${count} of ${TOTAL} went through`);
    return (performance.now() - started) / 1000;
  };
  await timed(viaTarget);
  await timed(raw);
  const targetTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    targetTimes.push(await timed(viaTarget));
    rawTimes.push(await timed(raw));
  }
  return { target: TOTAL / median(targetTimes), raw: TOTAL / median(rawTimes), rounds: ROUNDS };
}
