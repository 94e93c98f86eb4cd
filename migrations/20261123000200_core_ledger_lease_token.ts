import type { Knex } from 'knex';

/**
 * The ledger as a leased queue: a batch's lease is a token, so only the
 * instance that holds a row may renew or settle it (a row taken over after
 * a lapsed lease is never overwritten by its first, late holder).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.text('lease_token');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_delivery_ledger', (t) => t.dropColumn('lease_token'));
}
