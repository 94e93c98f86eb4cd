import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The email outbox and the tokens of the links emails carry. Rows belong to
 * a subscription and go with it (ON DELETE CASCADE): a deleted subscription
 * gets no more mail and leaves no tokens behind.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_outbox', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    // The ledger row this email settles (none for a verification email).
    t.bigInteger('ledger_id');
    t.text('recipient').notNullable();
    t.text('subject').notNullable();
    t.text('template').notNullable();
    // What the message is composed from at send time; emptied once sent (it may hold a verification token).
    t.jsonb('params').notNullable();
    t.text('state').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    // pending/failed: when the next attempt may start; processing: when the lease lapses.
    t.timestamp('due_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('claim_token');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });
  await knex.raw("ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_state_check CHECK (state IN ('pending', 'processing', 'sent', 'failed', 'dead'))");
  await knex.raw("ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check CHECK (kind IN ('notification', 'verification'))");
  await knex.raw("CREATE INDEX email_outbox_due ON email_outbox (due_at) WHERE state IN ('pending', 'failed', 'processing')");
  await knex.raw("CREATE INDEX email_outbox_dead ON email_outbox (updated_at) WHERE state = 'dead'");
  await knex.raw('CREATE INDEX email_outbox_subscription ON email_outbox (subscription_id)');
  // One email per ledger row, whatever happens to the enqueueing transaction's caller.
  await knex.raw('CREATE UNIQUE INDEX email_outbox_ledger ON email_outbox (ledger_id) WHERE ledger_id IS NOT NULL');

  await knex.schema.createTable('email_verification_tokens', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // The key unsubscribe links are signed with: made once here, so every instance shares it and links outlive restarts.
  await knex.schema.createTable('email_link_keys', (t) => {
    t.text('name').primary();
    t.text('secret').notNullable();
  });
  await knex('email_link_keys').insert({ name: 'unsubscribe', secret: randomBytes(32).toString('base64url') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('email_link_keys');
  await knex.schema.dropTableIfExists('email_verification_tokens');
  await knex.schema.dropTableIfExists('email_outbox');
}
