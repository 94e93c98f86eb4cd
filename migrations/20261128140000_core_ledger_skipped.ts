import type { Knex } from 'knex';

const BEFORE = ['pending', 'delivering', 'retrying', 'queued', 'delivered', 'failed', 'superseded', 'held', 'merged'];
const AFTER = [...BEFORE, 'skipped'];
const list = (states: readonly string[]) => states.map((s) => `'${s}'`).join(', ');

/**
 * Rows claimed but never sent, and why (`skipped`): the subscriber's
 * budget of messages for the item was spent, or the feed said the event
 * is no news to them (an estimate that moved too little). `skipped_because`
 * names the criterion (`budget`, `feed`); `last_error` says it in words.
 * A skipped row is settled: retention removes it like the others.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE notification_delivery_ledger DROP CONSTRAINT IF EXISTS notification_delivery_ledger_status_check');
  await knex.raw(`ALTER TABLE notification_delivery_ledger ADD CONSTRAINT notification_delivery_ledger_status_check CHECK (status IN (${list(AFTER)}))`);
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.text('skipped_because');
  });
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_settled');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_settled ON notification_delivery_ledger (created_at) WHERE status IN ('delivered', 'failed', 'superseded', 'merged', 'skipped')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DELETE FROM notification_delivery_ledger WHERE status = 'skipped'");
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_settled');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_settled ON notification_delivery_ledger (created_at) WHERE status IN ('delivered', 'failed', 'superseded', 'merged')",
  );
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.dropColumn('skipped_because');
  });
  await knex.raw('ALTER TABLE notification_delivery_ledger DROP CONSTRAINT IF EXISTS notification_delivery_ledger_status_check');
  await knex.raw(`ALTER TABLE notification_delivery_ledger ADD CONSTRAINT notification_delivery_ledger_status_check CHECK (status IN (${list(BEFORE)}))`);
}
