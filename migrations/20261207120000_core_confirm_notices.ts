import type { Knex } from 'knex';

/**
 * Notices that must be confirmed (a planned outage's, to the people on the
 * utility's register):
 * - `notification_events.confirm_by`: the event asks those who confirm to
 *   confirm it by then (the outage's start); only they get it;
 * - `notification_confirmations.until`: a notice's confirmation runs its
 *   daily reminders until then (null for an urgent alert's);
 *   `reminded`: the reminders sent;
 * - the state `withdrawn`: the thing to confirm will not happen (the
 *   outage was cancelled): nothing more is asked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_events', (t) => {
    t.timestamp('confirm_by', { useTz: true });
  });
  await knex.schema.alterTable('notification_confirmations', (t) => {
    t.timestamp('until', { useTz: true });
    t.integer('reminded').notNullable().defaultTo(0);
  });
  await knex.raw('ALTER TABLE notification_confirmations DROP CONSTRAINT notification_confirmations_state_check');
  await knex.raw(
    "ALTER TABLE notification_confirmations ADD CONSTRAINT notification_confirmations_state_check CHECK (state IN ('awaiting', 'confirmed', 'unconfirmed', 'reached', 'withdrawn'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("UPDATE notification_confirmations SET state = 'confirmed' WHERE state = 'withdrawn'");
  await knex.raw('ALTER TABLE notification_confirmations DROP CONSTRAINT notification_confirmations_state_check');
  await knex.raw(
    "ALTER TABLE notification_confirmations ADD CONSTRAINT notification_confirmations_state_check CHECK (state IN ('awaiting', 'confirmed', 'unconfirmed', 'reached'))",
  );
  await knex.schema.alterTable('notification_confirmations', (t) => {
    t.dropColumn('reminded');
    t.dropColumn('until');
  });
  await knex.schema.alterTable('notification_events', (t) => {
    t.dropColumn('confirm_by');
  });
}
