import { describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../../../demo/webhook-inbox/webhook-receiver.ts';
import { postgresReachable } from '../../../test/helpers/databases.ts';
import { killScene } from '../../../test/helpers/killed-service.ts';

const SUBSCRIBERS = 2_000;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe.runIf(await postgresReachable())('a kill -9 in the middle of a webhook fan-out', () => {
  it('loses nothing: a successor finishes it, and only deliveries in flight at the kill arrive twice (with the same webhook-id)', async () => {
    const receiver = await startWebhookReceiver();
    const scene = await killScene(['utility-power-outages', 'delivery-webhook'], { Webhook__AllowedHosts: '127.0.0.1' });
    const { feed, knex } = scene;
    await knex.raw(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'wh-' || g, 'wh ' || g, 'utility.power-outages', '{}', 'Webhook', ? || '/hooks/h' || g, 'Anonymous', true FROM generate_series(1, ?) g`,
      [receiver.url, SUBSCRIBERS],
    );
    await knex.raw(
      `INSERT INTO delivery_webhook_secrets (subscription_id, secret, encrypted) SELECT id, ?, false FROM notification_subscriptions WHERE provider = 'Webhook'`,
      [SECRET],
    );
    feed.setPowerOutages([{ id: 'PO-WH-KILL', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    const service = scene.spawn();
    try {
      await expect.poll(() => receiver.received.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
      await service.kill();
      const atKill = receiver.received.length;
      const inFlight = new Set(
        await knex('notification_delivery_ledger')
          .where({ status: 'delivering' })
          .join('notification_subscriptions as s', 's.id', 'subscription_id')
          .pluck('s.destination'),
      );
      await scene.finish(knex, SUBSCRIBERS);
      const perHook = new Map<string, Set<string>>();
      let total = 0;
      for (const hook of receiver.received) {
        total++;
        perHook.set(hook.name, (perHook.get(hook.name) ?? new Set()).add(hook.headers['webhook-id']!));
      }
      const twice = [...perHook.keys()].filter((name) => receiver.to(name).length > 1);
      console.log(`webhook kill: ${atKill} of ${SUBSCRIBERS} deliveries before the kill, ${inFlight.size} rows in flight then, ${twice.length} sent twice`);
      expect(perHook.size).toBe(SUBSCRIBERS);
      expect(total).toBe(SUBSCRIBERS + twice.length);
      for (const name of twice) {
        expect(inFlight.has(receiver.hookUrl(name))).toBe(true);
        // A receiver can drop the repeat: it carries the same webhook-id.
        expect(perHook.get(name)!.size).toBe(1);
      }
      expect(await knex('notification_delivery_ledger').count({ n: '*' })).toEqual([{ n: SUBSCRIBERS }]);
    } finally {
      await service.kill();
      await scene.close();
      await receiver.close();
    }
  }, 120_000);
});
