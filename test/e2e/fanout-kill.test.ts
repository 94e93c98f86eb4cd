import { describe, expect, it } from 'vitest';
import { postgresReachable } from '../helpers/databases.ts';
import { killScene } from '../helpers/killed-service.ts';

const SUBSCRIBERS = 10_000;

describe.runIf(await postgresReachable())('a kill -9 in the middle of a 10,000-subscriber fan-out', () => {
  it('loses nothing: a successor finishes it, and only publishes in flight at the kill reach the push server twice', async () => {
    const scene = await killScene(['utility-power-outages', 'delivery-push']);
    const { feed, push, knex } = scene;
    await knex.raw(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'kill-' || g, 'kill ' || g, 'utility.power-outages', '{}', 'Push', 'alerts-kill-' || g, 'Anonymous', true FROM generate_series(1, ?) g`,
      [SUBSCRIBERS],
    );
    feed.setPowerOutages([{ id: 'PO-KILL', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    const service = scene.spawn();
    try {
      // Killed once a fifth has arrived: the fan-out and the deliveries are both under way.
      await expect.poll(() => push.allMessages().length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
      await service.kill();
      const atKill = push.allMessages().length;
      const inFlight = new Set((await knex('notification_delivery_ledger').where({ status: 'delivering' }).pluck('subscription_id')).map(Number));

      await scene.finish(knex, SUBSCRIBERS);
      const messages = push.allMessages();
      const byTopic = new Map<string, number>();
      for (const message of messages) byTopic.set(message.topic, (byTopic.get(message.topic) ?? 0) + 1);
      const twice = [...byTopic].filter(([, n]) => n > 1).map(([topic]) => topic);
      const subscriptionOf = new Map(
        (await knex('notification_subscriptions').whereIn('destination', twice).select('id', 'destination')).map((row: { id: number; destination: string }) => [
          row.destination,
          Number(row.id),
        ]),
      );
      console.log(`fan-out kill: ${atKill} of ${SUBSCRIBERS} messages before the kill, ${inFlight.size} rows in flight then, ${twice.length} sent twice`);
      expect(byTopic.size).toBe(SUBSCRIBERS);
      expect(Math.max(...byTopic.values())).toBeLessThanOrEqual(2);
      // Every message sent twice was a delivery in flight (leased, unrecorded) when the process died.
      for (const topic of twice) expect(inFlight.has(subscriptionOf.get(topic)!)).toBe(true);
      expect(await knex('notification_delivery_ledger').count({ n: '*' })).toEqual([{ n: SUBSCRIBERS }]);
    } finally {
      await service.kill();
      await scene.close();
    }
  }, 120_000);
});
