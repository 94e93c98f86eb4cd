import type { ProvisionedDatabase } from './databases.ts';

/** A value for each secret of core and of the shipped plugins, to look for where none may appear. */
export const SECRETS = {
  Jwt__Secret: 'jwt-signing-secret-0123456789',
  Notifications__Push__PublishToken: 'tk_publishtokenabcdefghijklmnopq',
  EmailProvider__ApiKey: 'smtp-api-key-987654321',
  ExternalProvider__ApiKey: 'feed-api-key-555444333',
};

export const DB_PASSWORD = 'db-password-xyz123';

/** The database's env with DB_PASSWORD in a PostgreSQL connection string (trust auth ignores it, so it still connects). */
export function withDatabasePassword(database: ProvisionedDatabase): ProvisionedDatabase {
  if (!database.connectionString) return database;
  const url = new URL(database.connectionString);
  url.password = DB_PASSWORD;
  return { ...database, env: { ...database.env, ConnectionStrings__DefaultConnection: url.toString() } };
}
