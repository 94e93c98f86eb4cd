import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const secrets = {
  Jwt__Secret: 'jwt-signing-secret-0123456789',
  Notifications__Push__PublishToken: 'tk_publishtokenabcdefghijklmnopq',
  EmailProvider__ApiKey: 'smtp-api-key-987654321',
  ExternalProvider__ApiKey: 'feed-api-key-555444333',
};
const DB_PASSWORD = 'db-password-xyz123';

describe('secrets never reach the logs', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    // Trust auth ignores the password, so a real connection string can carry one.
    const env = { ...database.env };
    if (database.connectionString) {
      const url = new URL(database.connectionString);
      url.password = DB_PASSWORD;
      env.ConnectionStrings__DefaultConnection = url.toString();
    }
    started = await startTestApp({ database: { ...database, env }, env: { ...secrets, Logging__Level: 'debug' } });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('redacts configured secrets, auth headers and link tokens everywhere', async () => {
    const { app, logs } = started;
    await app.inject({
      method: 'GET',
      url: '/api/notification-feeds?token=link-token-abcdef',
      headers: { authorization: `Bearer ${secrets.Jwt__Secret}`, 'x-api-key': secrets.ExternalProvider__ApiKey, 'x-subscription-token': 'manage-token-qwerty' },
    });
    // A careless log call with the whole configuration and a secret in a message.
    app.log.info({ config: servicesOf(app).fullConfig }, `token is ${secrets.Notifications__Push__PublishToken}`);
    app.log.error({ err: new Error(`connect failed for ${database.connectionString ?? 'x'} key=${secrets.EmailProvider__ApiKey}`) }, 'failure');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = logs.join('');
    expect(logs.length).toBeGreaterThan(3);
    for (const value of [...Object.values(secrets), DB_PASSWORD, 'link-token-abcdef']) expect(text).not.toContain(value);
    expect(text).toContain('[REDACTED]');
    expect(text).toContain('/api/notification-feeds?token=[REDACTED]');
  });

  it('keeps secrets out of API answers', async () => {
    const bodies = await Promise.all(['/', '/health', '/health/ready', '/api/notification-feeds'].map((url) => started.app.inject({ method: 'GET', url })));
    const text = bodies.map((response) => response.body).join('');
    for (const value of [...Object.values(secrets), DB_PASSWORD]) expect(text).not.toContain(value);
  });
});
