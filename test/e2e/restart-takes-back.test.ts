import { describe, expect, it } from 'vitest';
import { postgresReachable } from '../helpers/databases.ts';
import { killScene } from '../helpers/killed-service.ts';

const SUBSCRIBERS = 2_000;

describe.runIf(await postgresReachable())('an instance restarted after a kill -9', () => {
  it('takes back at once the deliveries its killed run held, instead of waiting out their lease', async () => {
    // Leases of 10 minutes: without the take-back, the restarted run could not finish within the wait below.
    const scene = await killScene(['utility-power-outages', 'delivery-push'], {
      Server__InstanceName: 'restart-test',
      NotificationPipeline__DeliveryLeaseSeconds: '600',
    });
    const { feed, push, knex } = scene;
    await knex.raw(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'back-' || g, 'back ' || g, 'utility.power-outages', '{}', 'Push', 'alerts-back-' || g, 'Anonymous', true FROM generate_series(1, ?) g`,
      [SUBSCRIBERS],
    );
    feed.setPowerOutages([{ id: 'PO-BACK', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    push.delayNext(SUBSCRIBERS, 20);
    let service = scene.spawn();
    try {
      await expect.poll(() => push.allMessages().length, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
      await service.kill();
      const held = Number((await knex('notification_delivery_ledger').where({ status: 'delivering' }).whereRaw('lease_until > now()').count({ n: '*' }))[0]!.n);
      expect(held).toBeGreaterThan(0);
      expect(
        await knex('notification_delivery_ledger').where({ status: 'delivering' }).whereRaw("NOT starts_with(lease_token, 'restart-test/')").count({ n: '*' }),
      ).toEqual([{ n: 0 }]);

      service = scene.spawn();
      await expect
        .poll(async () => Number((await knex('notification_delivery_ledger').where({ status: 'delivered' }).count({ n: '*' }))[0]!.n), {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(SUBSCRIBERS);
      const topics = new Set(push.allMessages().map((message) => message.topic));
      expect(topics.size).toBe(SUBSCRIBERS);
    } finally {
      await service.kill();
      await scene.close();
    }
  }, 150_000);
});
