import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_WORKER } from '../../core/retention/retention-worker.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const OLD_ROWS = 12_000;

describe.each(await databaseKinds())('retention on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  const knex = () => servicesOf(started.app).database.knex;
  const count = async (table: string, where: Record<string, unknown> = {}) => Number((await knex()(table).where(where).count({ n: '*' }))[0].n);
  /** Table sizes on disk (indexes included), in KiB: reported, since space returns to use through (auto)vacuum, not at once. */
  const sizes = async () =>
    Object.fromEntries(
      (
        await knex().raw(
          "SELECT relname, pg_total_relation_size(oid) / 1024 AS kib FROM pg_class WHERE relname IN ('notification_delivery_ledger', 'notification_events')",
        )
      ).rows.map((row: { relname: string; kib: string | number }) => [row.relname, Number(row.kib)]),
    );

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({
      database,
      pluginsDir: pipelinePluginsDir(),
      env: { Retention__Days: '30', Retention__BatchSize: '5000', PowerOutages__Enabled: 'false' },
    });
    // The run at start (nothing to remove yet) must be over before old rows appear.
    await servicesOf(started.app).workers.runNow(RETENTION_WORKER);
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('removes settled deliveries and unreferenced events past the window in bounded batches, and nothing that waits', async () => {
    const db = knex();
    // Ages on the service's clock, which retention measures by (not the database's: a run under faketime has them differ).
    const now = servicesOf(started.app).now().toISOString();
    await db.raw(`INSERT INTO notification_subscriptions (public_id, display_name, feed_id, provider, destination, scope, is_active)
                  SELECT 'ret-' || g, 'r', 'utility.power-outages', 'Push', 'fx-ret-' || g, 'Anonymous', true FROM generate_series(1, 3) g`);
    const [a, b, c] = await db('notification_subscriptions').where('public_id', 'like', 'ret-%').orderBy('id').pluck('id');
    const event = async (key: string, age: string) =>
      (
        await db.raw(
          `INSERT INTO notification_events (feed_id, event_type, source_key, item_key, fields, payload, rendered, created_at)
                     VALUES ('utility.power-outages', 'NewOutage', ?, ?, '{}', 'null', '{}', ?::timestamptz - ?::interval) RETURNING id`,
          [key, key, now, age],
        )
      ).rows[0].id;
    const [oldSettled, oldWaiting, oldAlone, recent] = [
      await event('OLD-1', '40 days'),
      await event('OLD-2', '40 days'),
      await event('OLD-3', '40 days'),
      await event('NEW-1', '1 day'),
    ];
    // An old event whose fan-out another instance is still working through: no ledger row yet, but its subscribers' rows are to come.
    const oldExpanding = await event('OLD-4', '40 days');
    // An old event held for an operator (it would reach too many): no fan-out, no ledger row, until someone decides.
    const oldHeld = await event('OLD-5', '40 days');
    await db('notification_events').where({ id: oldHeld }).update({ hold_status: 'held', hold_count: 250_000 });
    await db('notification_fanouts').insert({
      event_id: oldExpanding,
      provider: 'Push',
      cursor: 0,
      status: 'expanding',
      lease_token: 'another-instance',
      lease_until: db.raw("now() + interval '1 hour'"),
    });
    // Many old settled rows (one subscription each key), an old row still waiting, and recent settled rows.
    await db.raw(
      `INSERT INTO notification_delivery_ledger (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status, created_at)
       SELECT ?, 'OLD-' || g, 'NewOutage', 'utility.power-outages', 'OLD-' || g, ?, 'Push',
              (ARRAY['delivered', 'failed', 'superseded', 'skipped'])[1 + g % 4], ?::timestamptz - interval '40 days'
         FROM generate_series(1, ?) g`,
      [a, oldSettled, now, OLD_ROWS],
    );
    await db('notification_delivery_ledger').insert([
      {
        subscription_id: b,
        source_key: 'OLD-2',
        event_type: 'NewOutage',
        feed_id: 'utility.power-outages',
        item_key: 'OLD-2',
        event_id: oldWaiting,
        provider: 'Push',
        status: 'retrying',
        created_at: db.raw("?::timestamptz - interval '40 days'", [now]),
        next_attempt_at: db.raw("now() + interval '1 hour'"),
      },
      {
        subscription_id: c,
        source_key: 'NEW-1',
        event_type: 'NewOutage',
        feed_id: 'utility.power-outages',
        item_key: 'NEW-1',
        event_id: recent,
        provider: 'Push',
        status: 'delivered',
      },
    ]);
    // A retry logged for an old row and for the recent one; an old "still out?" report and a recent one.
    const [oldRow] = await db('notification_delivery_ledger').where({ event_id: oldSettled }).orderBy('id').limit(1).pluck('id');
    const [recentRow] = await db('notification_delivery_ledger').where({ event_id: recent }).pluck('id');
    await db('notification_delivery_attempts').insert([
      { ledger_id: oldRow, attempt: 1, status: 'retrying', error: 'push server 500' },
      { ledger_id: recentRow, attempt: 1, status: 'retrying', error: 'push server 500' },
    ]);
    await db('still_out_reports').insert([
      {
        subscription_id: a,
        feed_id: 'utility.power-outages',
        item_key: 'OLD-1',
        via: 'link',
        reported_at: db.raw("?::timestamptz - interval '40 days'", [now]),
      },
      { subscription_id: c, feed_id: 'utility.power-outages', item_key: 'NEW-1', via: 'reply' },
    ]);
    // The limits count per day of the service's clock (the day it writes counters with), and retention keeps today's.
    const today = servicesOf(started.app).now().toISOString().slice(0, 10);
    await db('subscription_rate_counters').insert([
      { client_ip: '192.0.2.1', day: '2026-01-01', count: 3 },
      { client_ip: '192.0.2.1', day: today, count: 1 },
    ]);
    const before = { ledger: await count('notification_delivery_ledger'), events: await count('notification_events'), sizes: await sizes() };

    await servicesOf(started.app).workers.runNow(RETENTION_WORKER, { force: true });

    const after = { ledger: await count('notification_delivery_ledger'), events: await count('notification_events'), sizes: await sizes() };
    await db.raw('VACUUM notification_delivery_ledger');
    console.log(
      `retention on ${kind}: ledger rows ${before.ledger} → ${after.ledger}, events ${before.events} → ${after.events}; ` +
        `KiB on disk before ${JSON.stringify(before.sizes)}, after ${JSON.stringify(after.sizes)}, after VACUUM ${JSON.stringify(await sizes())}`,
    );
    expect(before.ledger - after.ledger).toBe(OLD_ROWS);
    expect(await db('notification_delivery_ledger').orderBy('id').pluck('source_key')).toEqual(['OLD-2', 'NEW-1']);
    // The old events nothing references are gone; the one a waiting row references, the one still being fanned out, the one
    // held for an operator, and the recent one stay.
    expect(
      (await db('notification_events').whereIn('id', [oldSettled, oldWaiting, oldAlone, recent, oldExpanding, oldHeld]).orderBy('id').pluck('id')).map(Number),
    ).toEqual([Number(oldWaiting), Number(recent), Number(oldExpanding), Number(oldHeld)]);
    expect(await count('subscription_rate_counters')).toBe(1);
    // A removed delivery's logged attempts go with it; the recent one's stay. Old reports go, recent ones stay.
    expect((await db('notification_delivery_attempts').pluck('ledger_id')).map(Number)).toEqual([Number(recentRow)]);
    expect(await db('still_out_reports').pluck('item_key')).toEqual(['NEW-1']);
    // A settled row's SourceKey may come back once its row is gone: that is the window docs/performance.md explains.
    await servicesOf(started.app).workers.runNow(RETENTION_WORKER, { force: true });
    expect(await count('notification_delivery_ledger')).toBe(2);
  });

  it('keeps an old alert whose confirmation is still open (escalating, or not confirmed), and removes one confirmed', async () => {
    const db = knex();
    const now = servicesOf(started.app).now().toISOString();
    await db.raw(`INSERT INTO notification_subscriptions (public_id, display_name, feed_id, provider, destination, scope, is_active)
                  VALUES ('ret-confirm', 'r', 'utility.power-outages', 'Push', 'fx-ret-confirm', 'System', true)`);
    const subscription = await db('notification_subscriptions').where({ public_id: 'ret-confirm' }).first('id');
    const event = (
      await db.raw(
        `INSERT INTO notification_events (feed_id, event_type, source_key, item_key, fields, payload, rendered, created_at)
         VALUES ('utility.power-outages', 'NewOutage', 'CONF', 'CONF', '{}', 'null', '{}', ?::timestamptz - interval '40 days') RETURNING id`,
        [now],
      )
    ).rows[0].id;
    for (const [key, state] of [
      ['CONF-OPEN', 'awaiting'],
      ['CONF-LISTED', 'unconfirmed'],
      ['CONF-DONE', 'confirmed'],
    ] as const) {
      const id = (
        await db.raw(
          `INSERT INTO notification_delivery_ledger (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status, urgent, created_at)
           VALUES (?, ?, 'NewOutage', 'utility.power-outages', 'CONF', ?, 'Push', 'delivered', true, ?::timestamptz - interval '40 days') RETURNING id`,
          [subscription.id, key, event, now],
        )
      ).rows[0].id;
      await db('notification_confirmations').insert({
        ledger_id: id,
        subscription_id: subscription.id,
        event_id: event,
        state,
        created_at: db.raw("?::timestamptz - interval '40 days'", [now]),
      });
    }
    await servicesOf(started.app).workers.runNow(RETENTION_WORKER, { force: true });
    expect(await db('notification_delivery_ledger').where({ item_key: 'CONF' }).orderBy('id').pluck('source_key')).toEqual(['CONF-OPEN', 'CONF-LISTED']);
    expect(await db('notification_confirmations').orderBy('id').pluck('state')).toEqual(['awaiting', 'unconfirmed']);
  });
});
