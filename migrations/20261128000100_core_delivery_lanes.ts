import type { Knex } from 'knex';

const STATES = ['pending', 'delivering', 'retrying', 'queued', 'delivered', 'failed', 'superseded', 'held', 'merged'];

/**
 * Delivery lanes: each provider's deliveries are fanned out, leased and
 * sent apart, so a slow or paused provider never delays another's.
 * - The ledger's states are held by a CHECK; a row knows whether it is
 *   urgent (leased first in its lane), which events of its item it
 *   replaced (latest state only: `replaces`), and which row replaced it.
 * - One index per question a lane asks: its due rows, urgent first; its
 *   rows whose lease lapsed; its rows in a transactional target.
 * - `delivery_lanes`: each lane's shared rate (the next free send slot,
 *   on the database's clock, so every instance keeps to one rate) and its
 *   pause (a peer said to slow down).
 * - `delivery_lane_minutes`: each lane's outcomes per minute (the
 *   console's chart, the estimates).
 * - An event may say it is urgent (`notification_events.urgent`).
 * - `notification_fanouts`: an event's fan-out after its first page, one
 *   row per lane, each with its own cursor, so one lane's fan-out never
 *   waits for another's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `ALTER TABLE notification_delivery_ledger ADD CONSTRAINT notification_delivery_ledger_status_check CHECK (status IN (${STATES.map((s) => `'${s}'`).join(', ')}))`,
  );
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.boolean('urgent').notNullable().defaultTo(false);
    t.specificType('replaces', 'bigint[]');
    t.bigInteger('superseded_by');
  });
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_waiting');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_leased');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_lane ON notification_delivery_ledger (provider, urgent, next_attempt_at, id) WHERE status IN ('pending', 'retrying')",
  );
  await knex.raw("CREATE INDEX notification_delivery_ledger_lane_leased ON notification_delivery_ledger (provider, lease_until) WHERE status = 'delivering'");
  await knex.raw("CREATE INDEX notification_delivery_ledger_lane_queued ON notification_delivery_ledger (provider, created_at) WHERE status = 'queued'");
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_settled');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_settled ON notification_delivery_ledger (created_at) WHERE status IN ('delivered', 'failed', 'superseded', 'merged')",
  );

  await knex.schema.createTable('delivery_lanes', (t) => {
    t.text('provider').primary();
    t.timestamp('next_slot_at', { useTz: true });
    t.timestamp('paused_until', { useTz: true });
    t.float('pause_seconds', 53).notNullable().defaultTo(0);
    t.text('paused_because');
  });
  await knex.schema.createTable('delivery_lane_minutes', (t) => {
    t.text('provider').notNullable();
    t.timestamp('minute', { useTz: true }).notNullable();
    t.integer('delivered').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.primary(['provider', 'minute']);
  });

  await knex.schema.createTable('notification_fanouts', (t) => {
    t.bigInteger('event_id').notNullable().references('id').inTable('notification_events').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.bigInteger('cursor').notNullable().defaultTo(0);
    t.text('status').notNullable().defaultTo('pending');
    t.text('lease_token');
    t.timestamp('lease_until', { useTz: true });
    t.primary(['event_id', 'provider']);
  });
  await knex.raw("ALTER TABLE notification_fanouts ADD CONSTRAINT notification_fanouts_status_check CHECK (status IN ('pending', 'expanding'))");
  await knex.raw('CREATE INDEX notification_fanouts_lane ON notification_fanouts (provider, event_id)');
  await knex.raw('CREATE INDEX notification_fanouts_token ON notification_fanouts (lease_token) WHERE lease_token IS NOT NULL');
  // Fan-outs under way when this runs go on in every lane that has subscriptions of the feed.
  await knex.raw(
    `INSERT INTO notification_fanouts (event_id, provider, cursor)
     SELECT e.id, p.provider, e.fanout_cursor FROM notification_events e
       JOIN LATERAL (SELECT DISTINCT provider FROM notification_subscriptions s WHERE s.feed_id = e.feed_id) p ON true
      WHERE e.fanout_status <> 'done'`,
  );
  await knex.raw('DROP INDEX IF EXISTS notification_events_fanout_due');
  await knex.raw('ALTER TABLE notification_events DROP CONSTRAINT IF EXISTS notification_events_fanout_status_check');
  await knex.schema.alterTable('notification_events', (t) => {
    t.dropColumn('fanout_lease_until');
    t.dropColumn('fanout_lease_token');
    t.dropColumn('fanout_cursor');
    t.dropColumn('fanout_status');
  });
  // An event may say it is urgent whatever its type: its later pages claim it so too. A held event keeps
  // its reach by provider, so the console can say how long each lane will take once it is released.
  await knex.schema.alterTable('notification_events', (t) => {
    t.boolean('urgent').notNullable().defaultTo(false);
    t.jsonb('hold_by_provider');
  });
  // A lane's page of a feed's subscriptions, in id order.
  await knex.raw('CREATE INDEX notification_subscriptions_feed_lane ON notification_subscriptions (feed_id, provider, id) WHERE is_active');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_subscriptions_feed_lane');
  await knex.schema.alterTable('notification_events', (t) => {
    t.dropColumn('hold_by_provider');
    t.dropColumn('urgent');
    t.text('fanout_status').notNullable().defaultTo('done');
    t.bigInteger('fanout_cursor').notNullable().defaultTo(0);
    t.text('fanout_lease_token');
    t.timestamp('fanout_lease_until', { useTz: true });
  });
  await knex.raw(
    `UPDATE notification_events e SET fanout_status = 'pending', fanout_cursor = f.cursor
       FROM (SELECT event_id, min(cursor) AS cursor FROM notification_fanouts GROUP BY event_id) f WHERE e.id = f.event_id`,
  );
  await knex.raw(
    "ALTER TABLE notification_events ADD CONSTRAINT notification_events_fanout_status_check CHECK (fanout_status IN ('pending', 'expanding', 'done'))",
  );
  await knex.raw("CREATE INDEX notification_events_fanout_due ON notification_events (id) WHERE fanout_status <> 'done'");
  await knex.schema.dropTableIfExists('notification_fanouts');
  await knex.schema.dropTableIfExists('delivery_lane_minutes');
  await knex.schema.dropTableIfExists('delivery_lanes');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_settled');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_settled ON notification_delivery_ledger (created_at) WHERE status IN ('delivered', 'failed', 'superseded')",
  );
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_lane_queued');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_lane_leased');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_lane');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_waiting ON notification_delivery_ledger (next_attempt_at, id) WHERE status IN ('pending', 'retrying')",
  );
  await knex.raw("CREATE INDEX notification_delivery_ledger_leased ON notification_delivery_ledger (lease_until) WHERE status = 'delivering'");
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.dropColumn('superseded_by');
    t.dropColumn('replaces');
    t.dropColumn('urgent');
  });
  await knex.raw('ALTER TABLE notification_delivery_ledger DROP CONSTRAINT IF EXISTS notification_delivery_ledger_status_check');
}
