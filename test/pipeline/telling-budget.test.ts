import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import type { NotificationEvent } from '../../core/plugin-api/index.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const POWER = 'utility.power-outages';
const OFF = '2026-11-22T08:00:00+05:30';
/** An estimate `minutes` after 14:00 that day. */
const at = (minutes: number) => new Date(Date.parse('2026-11-22T14:00:00+05:30') + minutes * 60_000).toISOString();

let changes = 0;
const outageEvent = (id: string, eventType: string, estimate: string | null): NotificationEvent => ({
  feedId: POWER,
  eventType,
  sourceKey: eventType === 'EstimateUpdated' ? `${id}:etr:${++changes}` : id,
  itemKey: id,
  fields: { feeder: 'F9', areas: 'Ampara' },
  sourcePayload: {
    id,
    feeder: 'F9',
    areas: ['Ampara'],
    timeOff: OFF,
    timeRestored: eventType === 'Restoration' ? at(90) : null,
    estimatedRestoration: estimate,
  },
});

describe.each(await databaseKinds())('what a subscriber is told of one outage, on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  const knex = () => servicesOf(started.app).database.knex;
  const send = (event: NotificationEvent) => servicesOf(started.app).pipeline.processNotificationEvents([event], { awaitDelivery: true });
  /** The subscriber's ledger rows, oldest first: source key, state, criterion. */
  const rowsOf = async (subscriptionId: number) =>
    (await knex()('notification_delivery_ledger').where({ subscription_id: subscriptionId }).orderBy('id')).map((row) => ({
      key: row.source_key as string,
      status: row.status as string,
      because: row.skipped_because as string | null,
    }));
  const pushed = async () => (await knex()('fixture_push_deliveries').orderBy('id')).map((row) => row.title as string);

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({
      database,
      pluginsDir: pipelinePluginsDir(),
      workers: false,
      env: {
        // No cooldown: each estimate is judged at once, by the threshold alone.
        NotificationPipeline__CooldownSeconds: '0',
        NotificationPipeline__MaxMessagesPerItem: '3',
        PowerOutages__EstimateChangeMinutes: '30',
      },
    });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_delivery_ledger').delete();
    await knex()('notification_subscriptions').delete();
    await knex()('fixture_push_deliveries').delete();
  });

  async function subscribe(): Promise<number> {
    const response = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Ampara', feedId: POWER, filter: { locationKeywords: ['Ampara'] }, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return Number((await knex()('notification_subscriptions').where({ public_id: response.json().publicId }).first()).id);
  }

  it('tells an estimate only once it moved PowerOutages__EstimateChangeMinutes from the last one told', async () => {
    const subscription = await subscribe();
    await send(outageEvent('PO-E', 'NewOutage', at(0)));
    await send(outageEvent('PO-E', 'EstimateUpdated', at(10))); // 10 min from 14:00: not told
    await send(outageEvent('PO-E', 'EstimateUpdated', at(25))); // still 25 from the 14:00 told: not told
    await send(outageEvent('PO-E', 'EstimateUpdated', at(40))); // 40 from 14:00: told
    await send(outageEvent('PO-E', 'EstimateUpdated', at(55))); // 15 from the 14:40 told: not told
    expect((await rowsOf(subscription)).map((row) => [row.status, row.because])).toEqual([
      ['delivered', null],
      ['skipped', 'feed'],
      ['skipped', 'feed'],
      ['delivered', null],
      ['skipped', 'feed'],
    ]);
    expect(await pushed()).toEqual(['Power outage: Ampara', 'Power outage, new estimate: Ampara']);
    const skipped = await knex()('notification_delivery_ledger').where({ subscription_id: subscription, status: 'skipped' }).orderBy('id').first();
    expect(skipped.last_error).toBe('the estimate moved 10 min from the one last told, less than 30');
  });

  it('sends at most NotificationPipeline__MaxMessagesPerItem messages about an item, and the restoration still', async () => {
    const subscription = await subscribe();
    await send(outageEvent('PO-B', 'NewOutage', null));
    await send(outageEvent('PO-B', 'EstimateUpdated', at(0))); // none to one: told (2)
    await send(outageEvent('PO-B', 'EstimateUpdated', at(60))); // told (3): the budget is spent
    await send(outageEvent('PO-B', 'EstimateUpdated', at(120))); // past the budget
    await send(outageEvent('PO-B', 'Restoration', null)); // the item's end always goes
    expect((await rowsOf(subscription)).map((row) => [row.status, row.because])).toEqual([
      ['delivered', null],
      ['delivered', null],
      ['delivered', null],
      ['skipped', 'budget'],
      ['delivered', null],
    ]);
    expect(await pushed()).toEqual([
      'Power outage: Ampara',
      'Power outage, new estimate: Ampara',
      'Power outage, new estimate: Ampara',
      'Power restored: Ampara',
    ]);
  });

  it('does not count an update that was never sent: a superseded one leaves the budget alone', async () => {
    const subscription = await subscribe();
    await send(outageEvent('PO-S', 'NewOutage', at(0)));
    // Two updates in one claim: the first is superseded by the second before it goes, and only the second counts.
    await servicesOf(started.app).pipeline.processNotificationEvents(
      [outageEvent('PO-S', 'EstimateUpdated', at(60)), outageEvent('PO-S', 'EstimateUpdated', at(120))],
      {
        awaitDelivery: true,
      },
    );
    await send(outageEvent('PO-S', 'EstimateUpdated', at(180))); // the third message
    await send(outageEvent('PO-S', 'EstimateUpdated', at(240))); // past the budget
    expect((await rowsOf(subscription)).map((row) => row.status)).toEqual(['delivered', 'superseded', 'delivered', 'delivered', 'skipped']);
  });
});
