import type { Knex } from 'knex';

/**
 * Verification emails per destination address per UTC day (contracts §5),
 * whoever asks. The address is kept as a SHA-256 of its lower-cased form:
 * the counter needs to recognise an address, not to know it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('subscription_verification_counters', (t) => {
    t.text('address_sha256').notNullable();
    t.date('day').notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['address_sha256', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('subscription_verification_counters');
}
