import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { expectSound, faultScene } from './fault-scene.ts';
import { startOwnPostgres } from './own-postgres.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const SUBSCRIBERS = 20_000;

describe('one of two instances cut off from the database for 30 s', () => {
  it('the other takes its leases over; back, the cut-off one settles nothing it no longer holds', async () => {
    const postgres = await startOwnPostgres();
    const proxy = await startTcpProxy(postgres.port);
    // A shared rate of 400 a second: the fan-out lasts about 50 s, so the cut-off instance comes back in the middle of it.
    const scene = await faultScene({ databaseUrl: postgres.url, audience: { push: SUBSCRIBERS }, env: { NotificationPipeline__Rates__Push: '400' } });
    try {
      scene.spawn('steady');
      scene.spawn('cut-off', { ConnectionStrings__DefaultConnection: `postgres://postgres@127.0.0.1:${proxy.port}/faults` });
      scene.startOutage();
      await expect.poll(() => scene.reached(), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 10);
      await scene.inFlight();
      proxy.stall();
      const atCut = scene.reached();
      // What the cut-off instance held then stays leased to it until its leases lapse (10 s): note it before and after.
      await sleep(2_000);
      await scene.inFlight();
      await sleep(28_000);
      const duringCut = scene.reached();
      proxy.heal();
      await scene.finished(180_000);
      const tally = await scene.tally(`one of two instances cut off for 30 s after ${atCut} (${duringCut - atCut} reached meanwhile)`);
      expectSound(tally);
      // The other instance kept going meanwhile.
      expect(duringCut - atCut).toBeGreaterThan(SUBSCRIBERS / 10);
    } finally {
      await scene.close();
      await proxy.close();
      await postgres.stop();
    }
  });
});
