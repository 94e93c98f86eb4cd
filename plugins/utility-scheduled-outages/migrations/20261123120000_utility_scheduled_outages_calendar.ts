import type { Knex } from 'knex';

/**
 * The calendar's view of each planned outage: a SEQUENCE raised on every
 * change of what the calendar shows, and when that last happened. Items
 * stored before this migration start from their recorded history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scheduled_outages', (t) => {
    t.integer('calendar_sequence').notNullable().defaultTo(0);
    t.timestamp('changed_at', { useTz: true });
  });
  await knex.raw(
    `UPDATE scheduled_outages AS s
        SET calendar_sequence = h.changes, changed_at = h.last_change
       FROM (SELECT outage_id, count(*)::int AS changes, max(detected_at) AS last_change
               FROM scheduled_outage_changes WHERE kind <> 'NewEntry' GROUP BY outage_id) AS h
      WHERE h.outage_id = s.id`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scheduled_outages', (t) => {
    t.dropColumn('changed_at');
    t.dropColumn('calendar_sequence');
  });
}
