import { describe, expect, it } from 'vitest';
import { expectSound, faultScene } from './fault-scene.ts';

describe("one instance's clock 5 minutes ahead (faketime)", () => {
  it("leases judge by the database's clock, and the instance follows it: nothing lost, failed or sent twice", async () => {
    const scene = await faultScene({
      audience: { push: 4_000, sms: 1_000, email: 400 },
      // Shared rates: about 15 s of fan-out, both instances leasing all along it.
      env: { NotificationPipeline__Rates__Push: '300', NotificationPipeline__Rates__Sms: '70', NotificationPipeline__Rates__Email: '30' },
    });
    try {
      scene.spawn('on-time');
      scene.spawn('ahead', {}, 300);
      scene.startOutage();
      await scene.finished(120_000);
      const tally = await scene.tally('one of two instances 5 min ahead');
      expectSound(tally);
      expect(tally.duplicates).toBe(0);
      // Quiet hours, retries and schedules read the service's clock, which follows the database's: 5 minutes back.
      const noted = scene.logOf('ahead').find((line) => typeof line.offsetMs === 'number');
      expect(Math.round(Number(noted?.offsetMs) / 1000)).toBe(-300);
      expect(scene.logOf('on-time').some((line) => typeof line.offsetMs === 'number')).toBe(false);
    } finally {
      await scene.close();
    }
  });
});
