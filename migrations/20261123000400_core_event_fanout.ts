import type { Knex } from 'knex';

/**
 * Fan-out streams after the hand-over commits: an event whose subscribers
 * do not fit the first page is `pending` here, and the expander (a leased
 * queue over these rows) claims the rest page by page, each page in its own
 * short transaction with the cursor (the last subscription id claimed), so
 * a crash resumes where it stopped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_events', (t) => {
    t.text('fanout_status').notNullable().defaultTo('done');
    t.bigInteger('fanout_cursor').notNullable().defaultTo(0);
    t.text('fanout_lease_token');
    t.timestamp('fanout_lease_until', { useTz: true });
  });
  await knex.raw(
    "ALTER TABLE notification_events ADD CONSTRAINT notification_events_fanout_status_check CHECK (fanout_status IN ('pending', 'expanding', 'done'))",
  );
  await knex.raw("CREATE INDEX notification_events_fanout_due ON notification_events (id) WHERE fanout_status <> 'done'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_events_fanout_due');
  await knex.schema.alterTable('notification_events', (t) => {
    t.dropColumn('fanout_lease_until');
    t.dropColumn('fanout_lease_token');
    t.dropColumn('fanout_cursor');
    t.dropColumn('fanout_status');
  });
}
