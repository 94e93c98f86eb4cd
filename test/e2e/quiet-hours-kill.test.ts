import { describe, expect, it } from 'vitest';
import { postgresReachable } from '../helpers/databases.ts';
import { killScene } from '../helpers/killed-service.ts';
import { startTestApp } from '../helpers/test-app.ts';

const SUBSCRIBERS = 300;
const OFF = '2026-11-22T08:15:00+05:30';

/** `HH:MM` in UTC, `hours` from an instant. */
const utcTime = (instant: Date, hours: number) => new Date(instant.getTime() + hours * 3_600_000).toISOString().slice(11, 16);

describe.runIf(await postgresReachable())('a kill -9 while quiet hours hold deliveries', () => {
  it('loses nothing held: after a restart past the window each subscriber gets one catch-up, once', async () => {
    const scene = await killScene(['utility-power-outages', 'delivery-push'], { PowerOutages__PollingIntervalSeconds: '5' });
    const { feed, push, knex } = scene;
    // The killed service runs on the real clock: quiet hours from two hours before it to two hours after, whatever time the test runs at.
    const now = new Date();
    const quiet = { quietHours: { start: utcTime(now, -2), end: utcTime(now, 2), timeZone: 'UTC' } };
    await knex.raw(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, preferences, provider, destination, scope, is_active)
       SELECT 'q-' || g, 'q ' || g, 'utility.power-outages', '{}', ?::jsonb, 'Push', 'alerts-quiet-' || g, 'Anonymous', true FROM generate_series(1, ?) g`,
      [JSON.stringify(quiet), SUBSCRIBERS],
    );
    const count = async (status: string, eventType?: string) =>
      Number(
        (
          await knex('notification_delivery_ledger')
            .where({ status, ...(eventType ? { event_type: eventType } : {}) })
            .count({ n: '*' })
        )[0]!.n,
      );
    feed.setPowerOutages([{ id: 'PO-QK', feeder: 'F1', areas: ['Kandy'], timeOff: OFF, timeRestored: null }]);
    const service = scene.spawn();
    try {
      // The new outage is urgent: it goes at once. Its restoration is held, for every subscriber.
      await expect.poll(() => count('delivered', 'NewOutage'), { timeout: 60_000, interval: 100 }).toBe(SUBSCRIBERS);
      feed.setPowerOutages([{ id: 'PO-QK', feeder: 'F1', areas: ['Kandy'], timeOff: OFF, timeRestored: '2026-11-22T09:15:00+05:30' }]);
      await expect.poll(() => count('held', 'Restoration'), { timeout: 60_000, interval: 100 }).toBe(SUBSCRIBERS);
      await service.kill();
      expect(await count('held')).toBe(SUBSCRIBERS);

      // The hours pass (the held rows' end comes), and a successor starts: its release sends one catch-up per subscriber.
      await knex('notification_delivery_ledger')
        .where({ status: 'held' })
        .update({ held_until: knex.raw("now() - interval '1 second'") });
      const successor = await startTestApp({ database: scene.database, pluginsDir: scene.pluginsDir, env: { ...scene.env, PowerOutages__Enabled: 'false' } });
      try {
        await expect.poll(() => count('delivered', 'CatchUp'), { timeout: 120_000, interval: 200 }).toBe(SUBSCRIBERS);
      } finally {
        await successor.close();
      }
      expect(await count('merged', 'Restoration')).toBe(SUBSCRIBERS);
      expect(await count('held')).toBe(0);
      for (const topic of ['alerts-quiet-1', `alerts-quiet-${SUBSCRIBERS}`]) {
        expect(push.messages(topic).map((message) => message.title)).toEqual(['Power outage: Kandy', 'While you were away: 1 update']);
      }
      expect(push.allMessages().filter((message) => message.title === 'While you were away: 1 update')).toHaveLength(SUBSCRIBERS);
    } finally {
      await service.kill();
      await scene.close();
    }
  }, 240_000);
});
