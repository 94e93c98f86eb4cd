import type { Knex } from 'knex';

/**
 * - `delivery_sms_opt_outs`: numbers that replied STOP. No verification
 *   text goes to one until the number itself replies START, whoever
 *   subscribes it meanwhile.
 * - `delivery_sms_inbound`: the MessageSid of each reply taken, so a signed
 *   reply posted again (a replay) changes nothing; forgotten after
 *   Retention__Days.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('delivery_sms_opt_outs', (t) => {
    t.text('phone').primary();
    t.timestamp('stopped_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('delivery_sms_inbound', (t) => {
    t.text('sid').primary();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.index(['received_at'], 'delivery_sms_inbound_received');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('delivery_sms_inbound');
  await knex.schema.dropTableIfExists('delivery_sms_opt_outs');
}
