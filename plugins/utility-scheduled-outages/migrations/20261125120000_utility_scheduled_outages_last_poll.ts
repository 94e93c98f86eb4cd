import type { Knex } from 'knex';

/**
 * When the feed's list was last stored, as its own row: the digests and the
 * calendar list what that poll showed. An empty list stores no outage, so
 * the newest `last_seen_at` alone would keep showing outages the utility
 * has withdrawn. Starts from the newest `last_seen_at` already stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduled_outages_last_poll', (t) => {
    t.boolean('id').primary().defaultTo(true);
    t.timestamp('seen_at', { useTz: true }).notNullable();
  });
  await knex.raw('ALTER TABLE scheduled_outages_last_poll ADD CONSTRAINT scheduled_outages_last_poll_one_row CHECK (id)');
  await knex.raw(
    'INSERT INTO scheduled_outages_last_poll (id, seen_at) SELECT true, max(last_seen_at) FROM scheduled_outages HAVING max(last_seen_at) IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scheduled_outages_last_poll');
}
