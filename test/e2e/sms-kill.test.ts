import { describe, expect, it } from 'vitest';
import { startTwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { postgresReachable, provisionDatabase } from '../helpers/databases.ts';
import { killTestEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { spawnService, waitForDelivered } from '../helpers/killed-service.ts';
import { servicesOf } from '../../core/app.ts';

const SUBSCRIBERS = 2_000;

describe.runIf(await postgresReachable())('a kill -9 in the middle of an SMS fan-out', () => {
  it('loses nothing: a successor finishes it, and only texts in flight at the kill reach a phone twice', async () => {
    const database = await provisionDatabase('postgres');
    const [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    const gateway = await startTwilioGateway({ accountSid: 'ACkill', authToken: 'kill-token-0123456789', number: '+15005550006', publicBaseUrl: 'https://alerts.example.org' });
    const pluginsDir = realPluginsDir(['utility-power-outages', 'delivery-sms']);
    const env = killTestEnv(feed, push, database.env, {
      ...gateway.env,
      PublicBaseUrl: 'https://alerts.example.org',
      NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
      NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
    });
    const observer = await startTestApp({ database, pluginsDir, workers: false, env: { ...env, PowerOutages__Enabled: 'false' } });
    const knex = servicesOf(observer.app).database.knex;
    await knex.raw(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'sms-' || g, 'sms ' || g, 'utility.power-outages', '{}', 'Sms', '+9477' || lpad(g::text, 7, '0'), 'Anonymous', true FROM generate_series(1, ?) g`,
      [SUBSCRIBERS],
    );
    feed.setPowerOutages([{ id: 'PO-SMS-KILL', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    const service = spawnService(env, pluginsDir);
    try {
      await expect.poll(() => gateway.texts.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
      await service.kill();
      const atKill = gateway.texts.length;
      const inFlight = new Set(await knex('notification_delivery_ledger').where({ status: 'delivering' }).join('notification_subscriptions as s', 's.id', 'subscription_id').pluck('s.destination'));

      const successor = await startTestApp({ database, pluginsDir, env: { ...env, NotificationPipeline__DeliveryLeaseSeconds: '2' } });
      try {
        await waitForDelivered(knex, SUBSCRIBERS);
      } finally {
        await successor.close();
      }
      const perPhone = new Map<string, number>();
      for (const text of gateway.texts) perPhone.set(text.to, (perPhone.get(text.to) ?? 0) + 1);
      const twice = [...perPhone].filter(([, n]) => n > 1).map(([phone]) => phone);
      console.log(`sms kill: ${atKill} of ${SUBSCRIBERS} texts before the kill, ${inFlight.size} rows in flight then, ${twice.length} sent twice`);
      expect(perPhone.size).toBe(SUBSCRIBERS);
      expect(Math.max(...perPhone.values())).toBeLessThanOrEqual(2);
      for (const phone of twice) expect(inFlight.has(phone)).toBe(true);
      expect(await knex('notification_delivery_ledger').count({ n: '*' })).toEqual([{ n: SUBSCRIBERS }]);
      // Every text sent is recorded by its sid (those the dead instance sent before it recorded them are not).
      expect(Number((await knex('delivery_sms_messages').count({ n: '*' }))[0]!.n)).toBeGreaterThanOrEqual(SUBSCRIBERS - inFlight.size);
    } finally {
      await service.kill();
      await observer.close();
      await Promise.all([feed.close(), push.close(), gateway.close()]);
      await database.drop();
    }
  });
});
