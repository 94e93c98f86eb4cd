import type { Knex } from 'knex';

/** A verification text is written in its subscriber's language (their preferences.language when they subscribed). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('delivery_sms_outbox', (t) => {
    t.text('language').notNullable().defaultTo('en');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('delivery_sms_outbox', (t) => {
    t.dropColumn('language');
  });
}
