import type { Knex } from 'knex';
import { createVerificationTables } from '#plugin-api';

/**
 * The voice target's tables. Rows belong to a subscription and go with it.
 * - delivery_voice_codes and delivery_voice_outbox: the verification
 *   calls to place (never inside the create request) and their codes,
 *   hashed (the kit's verification tables).
 * - delivery_voice_calls: each call placed (its sid), what it was for (an
 *   alert's delivery, or a verification), its last status and the key pressed.
 */
export async function up(knex: Knex): Promise<void> {
  await createVerificationTables(knex, { outbox: 'delivery_voice_outbox', codes: 'delivery_voice_codes' });
  await knex.schema.createTable('delivery_voice_calls', (t) => {
    t.text('sid').primary();
    t.text('purpose').notNullable();
    t.bigInteger('ledger_id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('queued');
    t.text('key_pressed');
    // What it answers a key in: the subscriber's language.
    t.text('language').notNullable().defaultTo('en');
    t.timestamp('placed_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.raw("ALTER TABLE delivery_voice_calls ADD CONSTRAINT delivery_voice_calls_purpose CHECK (purpose IN ('alert', 'verification'))");
  await knex.raw('CREATE INDEX delivery_voice_calls_subscription ON delivery_voice_calls (subscription_id)');
  await knex.raw('CREATE INDEX delivery_voice_calls_updated ON delivery_voice_calls (updated_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('delivery_voice_calls');
  await knex.schema.dropTableIfExists('delivery_voice_outbox');
  await knex.schema.dropTableIfExists('delivery_voice_codes');
}
