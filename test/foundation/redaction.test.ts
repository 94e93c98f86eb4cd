import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { DB_PASSWORD, SECRETS, withDatabasePassword } from '../helpers/secret-env.ts';
import { startTestApp, type TestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const secrets = SECRETS;

describe('secrets never reach the logs', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({
      pluginsDir: EVERY_INSTALLED_PLUGIN,
      database: withDatabasePassword(database),
      env: { ...secrets, Logging__Level: 'debug' },
    });
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
    await expect.poll(() => logs.some((line) => line.includes('"msg":"failure"'))).toBe(true);
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
