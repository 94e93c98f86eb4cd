import { describe, expect, it } from 'vitest';
import { expectSound, faultScene } from './fault-scene.ts';
import { startOwnPostgres } from './own-postgres.ts';

describe('the database restarted during a 20,000-subscriber fan-out', () => {
  it('two instances ride it out: nothing lost or failed, duplicates only of what was on its way at the restart', async () => {
    const postgres = await startOwnPostgres();
    const scene = await faultScene({ databaseUrl: postgres.url, audience: { push: 20_000 } });
    try {
      scene.spawn('one');
      scene.spawn('two');
      scene.startOutage();
      await expect.poll(() => scene.reached(), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(6_000);
      await scene.inFlight();
      const atRestart = scene.reached();
      await postgres.restart();
      await scene.inFlight();
      await scene.finished(120_000);
      expectSound(await scene.tally(`database restarted (pg_ctl restart -m fast) after ${atRestart} of 20,000`));
    } finally {
      await scene.close();
      await postgres.stop();
    }
  });
});
