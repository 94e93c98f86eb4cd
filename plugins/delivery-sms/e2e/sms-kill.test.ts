import { describe, expect, it } from 'vitest';
import { startTwilioGateway } from '../../../demo/sms-gateway/twilio-gateway.ts';
import { postgresReachable } from '../../../test/helpers/databases.ts';
import { killScene } from '../../../test/helpers/killed-service.ts';

const SUBSCRIBERS = 2_000;

describe.runIf(await postgresReachable())('a kill -9 in the middle of an SMS fan-out', () => {
  it.each([
    ['at full speed', {}],
    // A lane with a rate: its rows are leased a second's worth at a time and wait for their slots.
    ['in a lane with a rate (300 a second)', { NotificationPipeline__Rates__Sms: '300' }],
  ])(
    '%s: loses nothing: a successor finishes it, and only texts in flight at the kill reach a phone twice',
    async (_name, laneEnv) => {
      const gateway = await startTwilioGateway({
        accountSid: 'ACkill',
        authToken: 'kill-token-0123456789',
        number: '+15005550006',
        publicBaseUrl: 'https://alerts.example.org',
      });
      const scene = await killScene(['utility-power-outages', 'delivery-sms'], { ...gateway.env, PublicBaseUrl: 'https://alerts.example.org', ...laneEnv });
      const { feed, knex } = scene;
      await knex.raw(
        `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'sms-' || g, 'sms ' || g, 'utility.power-outages', '{}', 'Sms', '+9477' || lpad(g::text, 7, '0'), 'Anonymous', true FROM generate_series(1, ?) g`,
        [SUBSCRIBERS],
      );
      feed.setPowerOutages([{ id: 'PO-SMS-KILL', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
      const service = scene.spawn();
      try {
        await expect.poll(() => gateway.texts.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(SUBSCRIBERS / 5);
        await service.kill();
        const atKill = gateway.texts.length;
        const inFlight = new Set(
          await knex('notification_delivery_ledger')
            .where({ status: 'delivering' })
            .join('notification_subscriptions as s', 's.id', 'subscription_id')
            .pluck('s.destination'),
        );

        await scene.finish(knex, SUBSCRIBERS);
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
        await scene.close();
        await gateway.close();
      }
    },
    120_000,
  );
});
