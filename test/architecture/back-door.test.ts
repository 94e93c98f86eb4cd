import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { preferredKind, provisionDatabase, tmpRoot, type ProvisionedDatabase } from '../helpers/databases.ts';
import { DB_PASSWORD, SECRETS, withDatabasePassword } from '../helpers/secret-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Core's secrets and two plugins' own: none of them is any business of a third plugin. */
const secrets = SECRETS;

/**
 * Contracts §14: a plugin's routes and workers reach only what the plugin
 * API hands them. The probe (test/fixtures/back-door) is a plugin that
 * walks everything reachable from its route scope, its requests and its
 * context, and answers what it found of core.
 */
describe('the plugin boundary has no back door', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    const pluginsDir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    for (const folder of readdirSync(path.join(projectRoot, 'plugins')))
      cpSync(path.join(projectRoot, 'plugins', folder), path.join(pluginsDir, folder), { recursive: true });
    cpSync(path.join(projectRoot, 'test', 'fixtures', 'back-door', 'back-door-probe'), path.join(pluginsDir, 'back-door-probe'), { recursive: true });
    started = await startTestApp({
      database: withDatabasePassword(database),
      pluginsDir,
      // Workers on, so the probe's workers() runs; no feed monitor polls.
      workers: true,
      env: {
        ...secrets,
        NotificationPipeline__Enabled: 'false',
        ExternalProvider__BaseUrl: 'http://feed.invalid',
        PublicBaseUrl: 'https://alerts.example.org',
      },
    });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('finds nothing of core from its scope, its requests or its context, and no secret of core or of another plugin', async () => {
    const answer = await started.app.inject({
      method: 'POST',
      url: '/back-door/probe',
      payload: { secrets: [...Object.values(secrets), ...(database.connectionString ? [DB_PASSWORD] : [])] },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ scope: [], request: [], context: [], workerContext: [], decorations: [] });
  });

  it('the probe does see what it is handed (a walk that finds nothing by not looking is no proof)', async () => {
    // Its own context holds core's public settings, not the secrets; the walk reads them.
    const answer = await started.app.inject({ method: 'POST', url: '/back-door/probe', payload: { secrets: ['https://alerts.example.org'] } });
    expect(answer.json().context).toContain('context.coreConfig.PublicBaseUrl holds a secret');
  });
});
