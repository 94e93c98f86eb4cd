import type { Knex } from 'knex';

/**
 * The SMS target's tables. Rows belong to a subscription and go with it.
 * - delivery_sms_codes: the verification code of a subscription waiting
 *   for one, hashed, with its expiry and the tries used.
 * - delivery_sms_outbox: verification texts to send (never sent inside the
 *   create request); the code is drawn when the text is sent, so no
 *   readable code is ever stored.
 * - delivery_sms_messages: what the gateway said of each text a delivery
 *   sent (its sid, then the delivery report's status and error code).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('delivery_sms_codes', (t) => {
    t.bigInteger('subscription_id').primary().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('code_hash');
    t.timestamp('expires_at', { useTz: true });
    t.integer('tries').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('delivery_sms_outbox', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('recipient').notNullable();
    // Named in the text (`Your code for Power outages alerts`).
    t.text('feed_id').notNullable();
    t.text('state').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.text('lease_token');
    t.text('last_error');
    t.text('sid');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true });
  });
  await knex.raw("ALTER TABLE delivery_sms_outbox ADD CONSTRAINT delivery_sms_outbox_state CHECK (state IN ('pending', 'processing', 'sent', 'dead'))");
  await knex.raw("CREATE INDEX delivery_sms_outbox_due ON delivery_sms_outbox (due_at) WHERE state IN ('pending', 'processing')");
  await knex.raw('CREATE INDEX delivery_sms_outbox_subscription ON delivery_sms_outbox (subscription_id)');
  await knex.schema.createTable('delivery_sms_messages', (t) => {
    t.text('sid').primary();
    t.bigInteger('ledger_id').notNullable();
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('sent');
    t.integer('error_code');
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX delivery_sms_messages_ledger ON delivery_sms_messages (ledger_id)');
  await knex.raw('CREATE INDEX delivery_sms_messages_subscription ON delivery_sms_messages (subscription_id)');
  // What retention reads: the oldest reports and settled verification texts first.
  await knex.raw('CREATE INDEX delivery_sms_messages_updated ON delivery_sms_messages (updated_at)');
  await knex.raw("CREATE INDEX delivery_sms_outbox_settled ON delivery_sms_outbox (created_at) WHERE state IN ('sent', 'dead')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('delivery_sms_messages');
  await knex.schema.dropTableIfExists('delivery_sms_outbox');
  await knex.schema.dropTableIfExists('delivery_sms_codes');
}
