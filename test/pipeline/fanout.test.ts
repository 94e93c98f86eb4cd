import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../core/plugin-api/index.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const POWER = 'utility.power-outages';
const PAGE = 100;
const SUBSCRIBERS = 350;
const outage = (id: string): NotificationEvent => ({
  feedId: POWER,
  eventType: 'NewOutage',
  sourceKey: id,
  fields: { feeder: 'F1', areas: 'Kandy' },
  sourcePayload: { id, feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null },
});

describe.each(await databaseKinds())('fan-out beyond the first page, on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  const knex = () => servicesOf(started.app).database.knex;
  const deliveredTo = async (sourceKey: string) =>
    (await knex()('fixture_push_deliveries').where({ source_key: sourceKey }).pluck('subscription_public_id')) as string[];

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false, env: { NotificationPipeline__FanoutPageSize: String(PAGE) } });
    await knex().raw(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'fan-' || g, 'fan ' || g, ?, CASE WHEN g % 2 = 0 THEN '{}'::jsonb ELSE '{"feeders":["F1"]}'::jsonb END, 'Push', 'fx-fan-' || g, 'Anonymous', true
         FROM generate_series(1, ?) AS g`,
      [POWER, SUBSCRIBERS],
    );
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_delivery_ledger').delete();
    await knex()('fixture_push_deliveries').delete();
  });

  it('claims one page with the hand-over and streams the rest after it commits: every subscriber once', async () => {
    const result = await servicesOf(started.app).pipeline.processNotificationEvents([outage('PO-FAN-1')]);
    expect(result).toMatchObject({ matchedSubscriptionCount: PAGE, claimedCount: PAGE });
    await servicesOf(started.app).dispatcher.settle();
    const delivered = await deliveredTo('PO-FAN-1');
    expect(delivered).toHaveLength(SUBSCRIBERS);
    expect(new Set(delivered).size).toBe(SUBSCRIBERS);
    // Every lane's fan-out of it is done: none is left to resume.
    const [{ id }] = await knex()('notification_events').where({ source_key: 'PO-FAN-1' }).select('id');
    expect(await knex()('notification_fanouts').where({ event_id: id })).toEqual([]);
  });

  it('a caller that waits (an announcement) waits for the whole fan-out', async () => {
    const result = await servicesOf(started.app).pipeline.processNotificationEvents([outage('PO-FAN-2')], { awaitDelivery: true });
    expect(result).toMatchObject({ matchedSubscriptionCount: SUBSCRIBERS, claimedCount: SUBSCRIBERS, deliveredCount: SUBSCRIBERS });
    expect(await deliveredTo('PO-FAN-2')).toHaveLength(SUBSCRIBERS);
  });

  it('a hand-over whose claim fails gives back its room in the dispatcher: later fan-outs still stream past the first page', async () => {
    // Every claim of these events fails inside the hand-over's transaction (after the room for its first page was taken).
    await knex().raw(`CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.source_key LIKE 'PO-BOOM-%' THEN RAISE EXCEPTION 'claim refused for the test'; END IF; RETURN NEW; END $$`);
    await knex().raw('CREATE TRIGGER refuse_boom BEFORE INSERT ON notification_delivery_ledger FOR EACH ROW EXECUTE FUNCTION refuse_boom()');
    try {
      // More failures than the dispatcher has room (DispatchBatchesInFlight, 3 by default): a slot lost per failure would leave none.
      for (let i = 0; i < 5; i++) {
        await expect(servicesOf(started.app).pipeline.processNotificationEvents([outage(`PO-BOOM-${i}`)])).rejects.toThrow(/claim refused for the test/);
      }
    } finally {
      await knex().raw('DROP TRIGGER refuse_boom ON notification_delivery_ledger');
      await knex().raw('DROP FUNCTION refuse_boom()');
    }
    await servicesOf(started.app).pipeline.processNotificationEvents([outage('PO-FAN-3')]);
    // The expander waits for room before each page: with the room lost, this would never end.
    await servicesOf(started.app).dispatcher.settle();
    expect(new Set(await deliveredTo('PO-FAN-3')).size).toBe(SUBSCRIBERS);
    // The failed hand-overs stored nothing (their events rolled back with the claims).
    expect(Number((await knex()('notification_events').where('source_key', 'like', 'PO-BOOM-%').count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it('resumes a fan-out whose instance died mid-way from its cursor: nothing lost, nothing twice', async () => {
    // What a dead instance left: the event leased to it (lapsed), 150 subscribers claimed, the cursor after the 150th.
    const ids: number[] = await knex()('notification_subscriptions').where('public_id', 'like', 'fan-%').orderBy('id').pluck('id');
    const [{ id: eventId }] = await knex()('notification_events')
      .insert({
        feed_id: POWER,
        event_type: 'NewOutage',
        source_key: 'PO-FAN-3',
        item_key: 'PO-FAN-3',
        fields: JSON.stringify(outage('PO-FAN-3').fields),
        payload: JSON.stringify(outage('PO-FAN-3').sourcePayload),
        rendered: JSON.stringify({ title: 'Power outage: Kandy', body: 'Feeder: F1', sequenceId: 'po-PO-FAN-3', tags: [], priority: 'High' }),
      })
      .returning('id');
    await knex().raw(
      "INSERT INTO notification_fanouts (event_id, provider, cursor, status, lease_token, lease_until) VALUES (?, 'Push', ?, 'expanding', 'dead-instance', now() - interval '1 second')",
      [eventId, ids[149]],
    );
    await knex()('notification_delivery_ledger').insert(
      ids.slice(0, 150).map((id) => ({
        subscription_id: id,
        source_key: 'PO-FAN-3',
        event_type: 'NewOutage',
        feed_id: POWER,
        item_key: 'PO-FAN-3',
        event_id: eventId,
        provider: 'Push',
        status: 'pending',
      })),
    );
    await servicesOf(started.app).dispatcher.settle();
    const delivered = await deliveredTo('PO-FAN-3');
    expect(delivered).toHaveLength(SUBSCRIBERS);
    expect(new Set(delivered).size).toBe(SUBSCRIBERS);
    expect(await knex()('notification_delivery_ledger').where({ source_key: 'PO-FAN-3' }).count({ n: '*' })).toEqual([{ n: SUBSCRIBERS }]);
  });
});
