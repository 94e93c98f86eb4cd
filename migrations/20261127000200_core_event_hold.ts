import type { Knex } from 'knex';

/**
 * Events held for an operator (NotificationPipeline__HoldAboveSubscriptions):
 * an event that would reach more subscriptions than the threshold is stored
 * `held` with the count and claims nothing, until the console releases it
 * (its fan-out starts then, from the first subscription) or discards it.
 * And the console's audit log (who did what, when) and its signed-out sessions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_events', (t) => {
    t.text('hold_status');
    t.integer('hold_count');
    t.text('hold_decided_by');
    t.timestamp('hold_decided_at', { useTz: true });
  });
  await knex.raw(
    "ALTER TABLE notification_events ADD CONSTRAINT notification_events_hold_status_check CHECK (hold_status IN ('held', 'released', 'discarded'))",
  );
  await knex.raw("CREATE INDEX notification_events_held ON notification_events (id) WHERE hold_status = 'held'");
  await knex.schema.createTable('console_audit_log', (t) => {
    t.bigIncrements('id');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('actor').notNullable();
    t.text('action').notNullable();
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.index(['at'], 'console_audit_log_at');
  });
  // Console sessions signed out before their end: their cookie, even copied, no longer signs anyone in.
  await knex.schema.createTable('console_ended_sessions', (t) => {
    t.text('sid').primary();
    t.timestamp('ended_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('console_ended_sessions');
  await knex.schema.dropTableIfExists('console_audit_log');
  await knex.raw('DROP INDEX IF EXISTS notification_events_held');
  await knex.raw('ALTER TABLE notification_events DROP CONSTRAINT IF EXISTS notification_events_hold_status_check');
  await knex.schema.alterTable('notification_events', (t) => {
    t.dropColumn('hold_decided_at');
    t.dropColumn('hold_decided_by');
    t.dropColumn('hold_count');
    t.dropColumn('hold_status');
  });
}
