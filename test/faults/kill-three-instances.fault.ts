import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { expectSound, faultScene, type Instance } from './fault-scene.ts';
import { seededRandom } from './seeded.ts';

const KILLS = 20;

describe('kill -9 at 20 random points across three instances', () => {
  it('push, SMS and email subscribers: nothing lost or failed, duplicates only of what was on its way at a kill', async () => {
    const random = seededRandom('kill -9 ×20, three instances');
    // Shared rates stretch the fan-out over about 20 s, so the kills land all along it.
    const scene = await faultScene({
      audience: { push: 6_000, sms: 1_500, email: 400 },
      env: { NotificationPipeline__Rates__Push: '300', NotificationPipeline__Rates__Sms: '75', NotificationPipeline__Rates__Email: '20' },
    });
    try {
      const names = ['one', 'two', 'three'];
      const running: Instance[] = names.map((name) => scene.spawn(name));
      await scene.inFlight();
      scene.startOutage();
      // The first message out: the fan-out is under way.
      await waitFor(() => scene.reached() > 0, 60_000);
      for (let kill = 0; kill < KILLS; kill++) {
        await sleep(200 + random() * 1_000);
        const slot = Math.floor(random() * names.length);
        await scene.inFlight();
        await running[slot]!.kill();
        await scene.inFlight();
        running[slot] = scene.spawn(names[slot]!);
      }
      await scene.finished(120_000);
      expectSound(await scene.tally(`kill -9 ×${KILLS} across three instances (${scene.reached()} reached at the end)`));
    } finally {
      await scene.close();
    }
  }, 300_000);
});

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await sleep(20);
  }
}
