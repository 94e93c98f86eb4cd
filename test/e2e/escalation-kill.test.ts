import { describe, expect, it } from 'vitest';
import { startTwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { postgresReachable } from '../helpers/databases.ts';
import { killScene } from '../helpers/killed-service.ts';
import { newOutage } from '../helpers/outage-event.ts';

const PEOPLE = 1_000;
const number = (prefix: string, n: number) => `${prefix}${String(n).padStart(7, '0')}`;

/**
 * The escalation of unconfirmed alerts under a kill -9: a thousand people
 * who must confirm did not; their carers' texts are due when the service
 * is killed in the middle of sending them. A successor finishes: every
 * carer gets the step, each step is one ledger row, and only a text in
 * flight at the kill reaches a carer twice.
 */
describe.runIf(await postgresReachable())('a kill -9 in the middle of an escalation', () => {
  it('loses no step and makes none twice: a successor finishes, and only texts in flight at the kill reach a carer twice', async () => {
    const gateway = await startTwilioGateway({
      accountSid: 'ACkill',
      authToken: 'kill-token-0123456789',
      number: '+15005550006',
      publicBaseUrl: 'https://alerts.example.org',
    });
    const scene = await killScene(['utility-power-outages', 'delivery-sms'], {
      ...gateway.env,
      PublicBaseUrl: 'https://alerts.example.org',
      Confirmation__IntervalSeconds: '1',
    });
    const { knex } = scene;
    try {
      await knex.raw(
        `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active, preferences)
         SELECT 'life-' || g, 'life ' || g, 'utility.power-outages', '{}', 'Sms', '+9477' || lpad(g::text, 7, '0'), 'Anonymous', true,
                json_build_object('confirm', true,
                  'escalation', json_build_array(json_build_object('provider', 'Sms', 'destination', '+9471' || lpad(g::text, 7, '0'), 'afterMinutes', 1)))
           FROM generate_series(1, ?) g`,
        [PEOPLE],
      );
      // The alert goes to each of them (through the observer), asking them to confirm; nobody does.
      const handed = await scene.pipeline.processNotificationEvents([newOutage('PO-ESC-KILL')], { awaitDelivery: true });
      expect(handed.deliveredCount).toBe(PEOPLE);
      expect(await knex('notification_confirmations').where({ state: 'awaiting', step: 0 }).count({ n: '*' })).toEqual([{ n: PEOPLE }]);
      // Every first step is due now.
      await knex('notification_confirmations').update({ next_at: knex.raw("now() - interval '1 minute'") });
      const toCarers = () => gateway.texts.filter((text) => text.to.startsWith('+9471'));

      const service = scene.spawn();
      try {
        await expect.poll(() => toCarers().length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(PEOPLE / 5);
      } finally {
        await service.kill();
      }
      const atKill = toCarers().length;
      const inFlight = new Set(await knex('notification_delivery_ledger').where({ status: 'delivering' }).whereNotNull('destination').pluck('destination'));

      await scene.finish(knex, 2 * PEOPLE);
      const perCarer = new Map<string, number>();
      for (const text of toCarers()) perCarer.set(text.to, (perCarer.get(text.to) ?? 0) + 1);
      const twice = [...perCarer].filter(([, n]) => n > 1).map(([carer]) => carer);
      console.log(`escalation kill: ${atKill} of ${PEOPLE} carers' texts before the kill, ${inFlight.size} in flight then, ${twice.length} sent twice`);
      expect([...perCarer.keys()].sort()).toEqual(Array.from({ length: PEOPLE }, (_, i) => number('+9471', i + 1)).sort());
      expect(Math.max(...perCarer.values())).toBeLessThanOrEqual(2);
      for (const carer of twice) expect(inFlight.has(carer)).toBe(true);
      // One step row per confirmation, and every confirmation moved on past it.
      expect(await knex('notification_delivery_ledger').where('source_key', 'PO-ESC-KILL#confirm-1').count({ n: '*' })).toEqual([{ n: PEOPLE }]);
      expect(await knex('notification_confirmations').where({ step: 1 }).count({ n: '*' })).toEqual([{ n: PEOPLE }]);
    } finally {
      await scene.close();
      await gateway.close();
    }
  }, 180_000);
});
