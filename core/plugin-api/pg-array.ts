import type { Knex } from 'knex';

/** A JavaScript array bound as one PostgreSQL array parameter (pg and PGlite both serialise it): `= ANY(?::bigint[])`, `unnest(?::text[])`. */
export const pgArray = (values: readonly unknown[]) => [...values] as unknown as Knex.Value;
