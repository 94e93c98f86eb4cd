import type { Knex } from 'knex';

/**
 * A text sent as an escalation step went to a carer's number, not the
 * subscriber's: its carrier's word (21610, the number opted out) says
 * nothing of the subscription, which must not stop for it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('delivery_sms_messages', (t) => {
    t.boolean('escalation_step').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('delivery_sms_messages', (t) => {
    t.dropColumn('escalation_step');
  });
}
