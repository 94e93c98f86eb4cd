import type { Knex } from 'knex';

/**
 * The outage lifecycle beyond the spec's three events: each outage's last
 * seen estimate and its count of announced estimate changes (the n of
 * EstimateUpdated `<id>:etr:<n>`), whether it is in the feed's latest
 * answer (an outage waiting for PowerOutages__MinOutageMinutes is decided
 * only while the feed still lists it), and the estimate a change announced,
 * in the history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('power_outages', (t) => {
    t.timestamp('estimated_restoration', { useTz: true });
    t.integer('estimate_changes').notNullable().defaultTo(0);
    // Rows from before this migration: the next changed answer sets it right; none of them waits (every ongoing one was announced).
    t.boolean('in_feed').notNullable().defaultTo(true);
  });
  // The outages still waiting for their announcement: looked for on every unchanged poll.
  await knex.raw('CREATE INDEX power_outages_waiting ON power_outages (time_off) WHERE in_feed AND time_restored IS NULL AND outage_notified_at IS NULL');
  await knex.schema.alterTable('power_outage_changes', (t) => {
    t.timestamp('estimated_restoration', { useTz: true });
  });
  // The estimate ongoing outages already carried (the feed may have sent it before it was read): taken as known,
  // so the first poll after the upgrade does not announce every one of them as changed.
  const ongoing: Array<{ id: string; estimate: unknown }> = await knex('power_outages')
    .whereNull('time_restored')
    .select('id', knex.raw(`payload->'estimatedRestoration' AS estimate`));
  for (const { id, estimate } of ongoing) {
    const at = typeof estimate === 'string' ? new Date(estimate) : null;
    if (at && !Number.isNaN(at.getTime())) await knex('power_outages').where({ id }).update({ estimated_restoration: at });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('power_outage_changes', (t) => {
    t.dropColumn('estimated_restoration');
  });
  await knex.raw('DROP INDEX IF EXISTS power_outages_waiting');
  await knex.schema.alterTable('power_outages', (t) => {
    t.dropColumn('in_feed');
    t.dropColumn('estimate_changes');
    t.dropColumn('estimated_restoration');
  });
}
