import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import type { NotificationEvent } from '../../core/plugin-api/index.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET } from '../helpers/e2e-env.ts';
import { advanceLedgerClock } from '../helpers/ledger-clock.ts';
import { jwtFor, pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const POWER = 'utility.power-outages';
const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
const outage = (id: string, feeder: string, eventType = 'NewOutage'): NotificationEvent => ({
  feedId: POWER,
  eventType,
  sourceKey: id,
  itemKey: id,
  fields: { feeder, areas: 'Kandy' },
  sourcePayload: {
    id,
    feeder,
    areas: ['Kandy'],
    timeOff: '2026-11-22T08:15:00+05:30',
    timeRestored: eventType === 'NewOutage' ? null : '2026-11-22T10:00:00+05:30',
  },
});

interface TraceEvent {
  sourceKey: string;
  eventType: string;
  matched: boolean;
  criterion: string | null;
  deliveries: Array<{ status: string; attempts: Array<{ attempt: number; outcome: string; error: string | null; at: string | null }> }>;
}

describe.each(await databaseKinds())('the trace of a subscriber on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  const knex = () => servicesOf(started.app).database.knex;
  const pipeline = () => servicesOf(started.app).pipeline;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false, env: { Jwt__Secret: E2E_JWT_SECRET } });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  async function subscribe(filter: object): Promise<string> {
    const response = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'F12 at home', feedId: POWER, filter, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().publicId;
  }
  const trace = async (publicId: string) => {
    const response = await started.app.inject({ url: `/api/admin/subscriptions/${publicId}/trace`, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { subscription: { publicId: string; provider: string }; events: TraceEvent[] };
  };

  it('says which events matched, the criterion that decided each other one, and every attempt of each delivery', async () => {
    const publicId = await subscribe({ feeders: ['F12'] });
    // The first attempt fails for now; the retry delivers it.
    await knex()('fixture_push_control').update({ mode: 'retry', remaining: 1 });
    await pipeline().processNotificationEvents([outage('PO-T1', 'F12')], { awaitDelivery: true });
    await advanceLedgerClock(knex(), 3600);
    await servicesOf(started.app).dispatcher.drain();
    await pipeline().processNotificationEvents([outage('PO-T2', 'F7')], { awaitDelivery: true });

    const { subscription, events } = await trace(publicId);
    expect(subscription).toMatchObject({ publicId, provider: 'Push' });
    const byKey = new Map(events.map((event) => [event.sourceKey, event]));
    // Newest first.
    expect(events.map((event) => event.sourceKey).slice(0, 2)).toEqual(['PO-T2', 'PO-T1']);
    expect(byKey.get('PO-T2')).toMatchObject({ matched: false, criterion: 'feeders', deliveries: [] });
    const matched = byKey.get('PO-T1')!;
    expect(matched).toMatchObject({ matched: true, criterion: null });
    expect(matched.deliveries).toHaveLength(1);
    expect(matched.deliveries[0]!.status).toBe('delivered');
    expect(matched.deliveries[0]!.attempts.map((a) => [a.attempt, a.outcome, a.error])).toEqual([
      [1, 'retrying', 'fixture busy'],
      [2, 'delivered', null],
    ]);
    for (const attempt of matched.deliveries[0]!.attempts) expect(Date.parse(attempt.at!)).not.toBeNaN();
  });

  it('finds a subscriber by public id or push topic, never showing the destination, and answers 404 for an unknown id', async () => {
    const publicId = await subscribe({});
    const { destination } = await knex()('notification_subscriptions').where({ public_id: publicId }).first('destination');
    for (const find of [publicId, destination, ` ${destination} `]) {
      const response = await started.app.inject({ url: `/api/admin/subscriptions?find=${encodeURIComponent(find)}`, headers: admin });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().items.map((item: { publicId: string }) => item.publicId)).toEqual([publicId]);
      expect(response.body).not.toContain(destination);
    }
    const missing = await started.app.inject({ url: '/api/admin/subscriptions/no-such-id/trace', headers: admin });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('params/publicId');
    const anonymous = await started.app.inject({ url: `/api/admin/subscriptions/${publicId}/trace` });
    expect(anonymous.statusCode).toBe(401);
  });
});
