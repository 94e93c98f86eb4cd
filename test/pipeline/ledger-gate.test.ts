import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { claimRows, removeOrphans, type ClaimTarget } from '../../core/ledger/index.ts';
import { deleteSubscription } from '../../core/subscriptions/subscription-repository.ts';
import { databaseKinds, provisionDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp } from '../helpers/test-app.ts';

/**
 * The ledger has no foreign keys: its gate keeps a row from outliving its
 * subscription. These cases interleave claims and deletes the ways a
 * fan-out and an unsubscribe can, and count the rows left behind.
 */
const kinds = await databaseKinds();

async function seedSubscriptions(knex: Knex, count: number): Promise<number[]> {
  const rows = await knex.raw(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, provider, destination, scope, is_active)
     SELECT 'gate-' || g, 'n', 'utility.power-outages', 'Ntfy', 'topic-' || g, 'System', true FROM generate_series(1, ?) g
     RETURNING id`,
    [count],
  );
  return (rows.rows as Array<{ id: string }>).map((row) => Number(row.id));
}

async function newEvent(knex: Knex, key: string): Promise<number> {
  const [row] = await knex('notification_events')
    .insert({ feed_id: 'utility.power-outages', event_type: 'NewOutage', source_key: key, item_key: key, fields: {}, payload: {}, rendered: {} })
    .returning('id');
  return Number(row.id);
}

const claimFor = (trx: Knex.Transaction, eventId: number, key: string, subscriptionIds: readonly number[]) =>
  claimRows(
    trx,
    [{ eventId, feedId: 'utility.power-outages', sourceKey: key, eventType: 'NewOutage', itemKey: key, urgent: false }],
    subscriptionIds.map((subscriptionId): ClaimTarget => ({ event: 0, subscriptionId, provider: 'Ntfy' })),
    ['Ntfy'],
  );

const orphanCount = async (knex: Knex) =>
  Number(
    (
      await knex.raw(
        `SELECT count(*) AS n FROM notification_delivery_ledger l
          WHERE NOT EXISTS (SELECT 1 FROM notification_subscriptions s WHERE s.id = l.subscription_id)
             OR NOT EXISTS (SELECT 1 FROM notification_events e WHERE e.id = l.event_id)`,
      )
    ).rows[0].n,
  );

describe.each(kinds)('the ledger without foreign keys (%s)', (kind) => {
  it('claims nothing for a subscription deleted after its page was read, and a delete waits for a claim under way, then takes its rows', async () => {
    const database = await provisionDatabase(kind);
    const started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false });
    try {
      const knex = servicesOf(started.app).database.knex;
      const [first, second, third] = await seedSubscriptions(knex, 3);
      // The page was read with all three; the first is deleted before the claim.
      const page = [first!, second!, third!];
      await deleteSubscription(knex, first!);
      const event = await newEvent(knex, 'o-1');
      const claimed = await knex.transaction((trx) => claimFor(trx, event, 'o-1', page));
      expect(claimed.map((row) => row.subscriptionId).sort()).toEqual([second, third].sort());

      // A claim under way holds the gate: the second's delete waits for its commit, then removes what it claimed.
      const later = await newEvent(knex, 'o-2');
      const trx = await knex.transaction();
      await claimFor(trx, later, 'o-2', page);
      let deleted = false;
      const deleting = deleteSubscription(knex, second!).then(() => {
        deleted = true;
      });
      if (kind === 'postgres') {
        await expect
          .poll(async () => Number((await knex.raw(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0].n))
          .toBe(1);
      }
      expect(deleted).toBe(false);
      await trx.commit();
      await deleting;
      const left = await knex('notification_delivery_ledger').select('subscription_id');
      expect(left.map((row) => Number(row.subscription_id)).sort()).toEqual([third, third]);
      expect(await orphanCount(knex)).toBe(0);
    } finally {
      await started.close();
      await database.drop();
    }
  });

  it('leaves no row behind when claims and deletes interleave at random, and the consistency check finds one written around the ledger', async () => {
    const database = await provisionDatabase(kind);
    const started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false });
    try {
      const knex = servicesOf(started.app).database.knex;
      let alive = await seedSubscriptions(knex, 120);
      for (let round = 0; round < 12; round++) {
        const page = [...alive];
        const doomed = page.filter((_, index) => (index + round) % 10 === 0);
        const key = `r-${round}`;
        const event = await newEvent(knex, key);
        // Each round's claim works from the page read before the deletes, as a fan-out does.
        await Promise.all([knex.transaction((trx) => claimFor(trx, event, key, page)), ...doomed.map((id) => deleteSubscription(knex, id))]);
        alive = alive.filter((id) => !doomed.includes(id));
      }
      expect(alive.length).toBeLessThan(120);
      expect(await orphanCount(knex)).toBe(0);
      expect(await removeOrphans(knex, 1000)).toBe(0);
      // Every subscription still alive got each round's row.
      const rows = Number((await knex('notification_delivery_ledger').count({ n: '*' }))[0]!.n);
      expect(rows).toBeGreaterThanOrEqual(alive.length * 12);

      // A row written around the ledger module, for a subscription that is not there: the check removes it.
      const event = await newEvent(knex, 'planted');
      await knex('notification_delivery_ledger').insert({
        subscription_id: 9_999_999,
        source_key: 'planted',
        event_type: 'NewOutage',
        feed_id: 'utility.power-outages',
        item_key: 'planted',
        event_id: event,
        provider: 'Ntfy',
        status: 'pending',
      });
      expect(await orphanCount(knex)).toBe(1);
      expect(await removeOrphans(knex, 1000)).toBe(1);
      expect(await orphanCount(knex)).toBe(0);
    } finally {
      await started.close();
      await database.drop();
    }
  });
});
