import type { Knex } from 'knex';

/** What the endpoint checker last saw of each polled endpoint (spec: "stores the last seen data"). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('endpoint_checks', (t) => {
    t.text('key').primary();
    t.text('url').notNullable();
    t.text('etag');
    t.text('last_modified');
    t.text('content_sha256');
    t.integer('last_status');
    t.timestamp('last_checked_at', { useTz: true });
    t.timestamp('last_changed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('endpoint_checks');
}
