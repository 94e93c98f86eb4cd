import type { Knex } from 'knex';

/** Finished items by age, for the outbox's retention. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX email_outbox_finished ON email_outbox (updated_at) WHERE state IN ('sent', 'dead')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS email_outbox_finished');
}
