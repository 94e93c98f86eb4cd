import type { Knex } from 'knex';

/**
 * The attempts of a delivery that did not end it well: each retry and the
 * final failure, with its time and the peer's words, for the trace of a
 * subscriber ("why didn't I get it?"). A delivery made at its first
 * attempt writes nothing here (its row says when); rows go with their
 * delivery when retention removes it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_delivery_attempts', (t) => {
    t.bigInteger('ledger_id').notNullable().references('id').inTable('notification_delivery_ledger').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.text('status').notNullable();
    t.text('error');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['ledger_id'], 'notification_delivery_attempts_ledger');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('notification_delivery_attempts');
}
