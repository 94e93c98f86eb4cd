import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { startPushServiceDouble } from '../../../demo/webpush-inbox/push-service.ts';
import { postgresReachable } from '../../../test/helpers/databases.ts';
import { killScene } from '../../../test/helpers/killed-service.ts';

const SUBSCRIBERS = 1_000;
const VAPID = webpush.generateVAPIDKeys();

describe.runIf(await postgresReachable())('a kill -9 in the middle of a Web Push fan-out', () => {
  it('loses nothing: a successor finishes it, and only pushes in flight at the kill reach a browser twice', async () => {
    const service = await startPushServiceDouble();
    const scene = await killScene(['utility-power-outages', 'delivery-webpush'], {
      WebPush__VapidPublicKey: VAPID.publicKey,
      WebPush__VapidPrivateKey: VAPID.privateKey,
      WebPush__AllowedEndpointHosts: '127.0.0.1',
    });
    const { feed, knex } = scene;
    const browsers = Array.from({ length: SUBSCRIBERS }, (_, i) => service.subscribe(`b${i}`));
    const ids: Array<{ id: string | number }> = await knex('notification_subscriptions')
      .insert(
        browsers.map((browser, i) => ({
          public_id: `wp-${i}`,
          display_name: `wp ${i}`,
          feed_id: 'utility.power-outages',
          filter_json: '{}',
          provider: 'WebPush',
          destination: browser.endpoint,
          scope: 'Anonymous',
          is_active: true,
        })),
      )
      .returning('id');
    await knex('delivery_webpush_keys').insert(
      ids.map(({ id }, i) => ({ subscription_id: id, p256dh: browsers[i]!.keys.p256dh, auth: browsers[i]!.keys.auth })),
    );
    feed.setPowerOutages([{ id: 'PO-WP-KILL', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    const killed = scene.spawn();
    try {
      await expect.poll(() => service.received.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
      await killed.kill();
      const atKill = service.received.length;
      const inFlight = new Set(
        await knex('notification_delivery_ledger')
          .where({ status: 'delivering' })
          .join('notification_subscriptions as s', 's.id', 'subscription_id')
          .pluck('s.destination'),
      );
      await scene.finish(knex, SUBSCRIBERS);
      const perBrowser = new Map<string, number>();
      for (const push of service.received) perBrowser.set(push.subscriber, (perBrowser.get(push.subscriber) ?? 0) + 1);
      const twice = [...perBrowser].filter(([, n]) => n > 1).map(([name]) => name);
      console.log(`webpush kill: ${atKill} of ${SUBSCRIBERS} pushes before the kill, ${inFlight.size} rows in flight then, ${twice.length} sent twice`);
      expect(perBrowser.size).toBe(SUBSCRIBERS);
      expect(Math.max(...perBrowser.values())).toBeLessThanOrEqual(2);
      for (const name of twice) expect(inFlight.has(`${service.url}/push/${name}`)).toBe(true);
      expect(service.refused).toEqual([]);
      expect(await knex('notification_delivery_ledger').count({ n: '*' })).toEqual([{ n: SUBSCRIBERS }]);
    } finally {
      await killed.kill();
      await scene.close();
      await service.close();
    }
  }, 120_000);
});
