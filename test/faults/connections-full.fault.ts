import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../demo/web/loopback.ts';
import { expectSound, faultScene } from './fault-scene.ts';
import { startOwnPostgres } from './own-postgres.ts';

const SUBSCRIBERS = 10_000;

describe('PostgreSQL at max_connections for 30 s', () => {
  it('the service says it is not ready, keeps trying, and recovers without losing or failing anything', async () => {
    const postgres = await startOwnPostgres({ maxConnections: 40 });
    // 300 a second: the fan-out lasts about 33 s, and the full connection table comes in the middle of it.
    const scene = await faultScene({ databaseUrl: postgres.url, audience: { push: SUBSCRIBERS }, env: { NotificationPipeline__Rates__Push: '300' } });
    const port = await freeLoopbackPort();
    const hog: pg.Client[] = [];
    let hogging = true;
    let refused = 0;
    try {
      scene.spawn('one', { Server__Port: String(port) });
      scene.startOutage();
      await expect.poll(() => scene.reached(), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      await scene.inFlight();
      const atFull = scene.reached();
      // Another client takes every free connection, the service's own are cut, and whatever frees up is taken again: 30 s.
      const grab = async () => {
        while (hogging) {
          const client = new pg.Client({ connectionString: postgres.url });
          client.on('error', () => undefined);
          try {
            await client.connect();
            hog.push(client);
          } catch (error) {
            if ((error as { code?: string }).code === '53300') refused++;
            await sleep(20);
          }
        }
      };
      const grabbers = Array.from({ length: 8 }, grab);
      // Full: the server says "too many clients already".
      await expect.poll(() => refused, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
      // Whatever connection the service gets back is cut again at once, for the 30 s: the table stays full.
      const hogPids = () => hog.map((client) => (client as unknown as { processID: number }).processID);
      const cutter = (async () => {
        while (hogging) {
          // What the service got out before its connection was cut is on its way at the fault, too.
          await scene.inFlight(hog[0]!);
          await hog[0]!.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE datname = 'faults' AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND pid <> ALL($1::int[])`,
            [hogPids()],
          );
          await sleep(100);
        }
      })();
      const readiness: number[] = [];
      const fullUntil = Date.now() + 30_000;
      while (Date.now() < fullUntil) {
        readiness.push((await fetch(`http://127.0.0.1:${port}/health/ready`)).status);
        await sleep(1_000);
      }
      const duringFull = scene.reached();
      hogging = false;
      await Promise.all([...grabbers, cutter]);
      await scene.inFlight(hog[0]!);
      await Promise.all(hog.map((client) => client.end().catch(() => undefined)));
      await scene.finished(120_000);
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status, { timeout: 30_000 }).toBe(200);
      const tally = await scene.tally(
        `max_connections taken for 30 s after ${atFull} (readiness 503 ${readiness.filter((status) => status === 503).length} times of ${readiness.length} meanwhile, ${duringFull - atFull} reached meanwhile)`,
      );
      expectSound(tally);
      // Not ready while the database could not be reached: most of the time it was full.
      expect(readiness.filter((status) => status === 503).length).toBeGreaterThan(readiness.length / 2);
    } finally {
      hogging = false;
      await Promise.all(hog.map((client) => client.end().catch(() => undefined)));
      await scene.close();
      await postgres.stop();
    }
  });
});
