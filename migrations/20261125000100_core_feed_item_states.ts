import type { Knex } from 'knex';

/**
 * The keyed item store core offers feeds (the plugin API's itemStateStore):
 * one JSON state per item a feed has listed, so a feed that needs no more
 * than "what did I know of this item" writes no table and no migration.
 * Like a plugin's own feed store, retention leaves it alone: a detector
 * decides from it, and a forgotten item would be announced again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE feed_item_states (
      feed_id text NOT NULL,
      item_id text NOT NULL,
      state jsonb NOT NULL,
      in_feed boolean NOT NULL DEFAULT true,
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      PRIMARY KEY (feed_id, item_id)
    )`);
  // What the latest answer listed: the items an answer no longer lists are found among these.
  await knex.raw('CREATE INDEX feed_item_states_listed ON feed_item_states (feed_id) WHERE in_feed');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS feed_item_states');
}
