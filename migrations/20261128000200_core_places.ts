import type { Knex } from 'knex';

/**
 * Places: an event keeps its item's shape (`geometry`, GeoJSON), and a
 * subscription whose "where" is places alone keeps the H3 cells its places'
 * disks touch (`place_cells`): a fan-out reads only the place subscriptions
 * whose cells meet the shape's, and judges their exact distance before
 * claiming. Why H3 cells and not PostGIS: the embedded database (PGlite)
 * and a PostgreSQL without the extension must both work, with one way of
 * matching; a GIN index answers "which subscriptions share a cell with
 * this shape" on every one of them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_events', (t) => {
    t.jsonb('geometry');
  });
  await knex.schema.alterTable('notification_subscriptions', (t) => {
    t.specificType('place_cells', 'bigint[]');
  });
  await knex.raw('CREATE INDEX notification_subscriptions_place_cells ON notification_subscriptions USING gin (place_cells) WHERE place_cells IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_subscriptions_place_cells');
  await knex.schema.alterTable('notification_subscriptions', (t) => t.dropColumn('place_cells'));
  await knex.schema.alterTable('notification_events', (t) => t.dropColumn('geometry'));
}
