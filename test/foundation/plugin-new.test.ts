import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { childEnv } from '../helpers/child-env.ts';
import { preferredKind, provisionDatabase, tmpRoot, type ProvisionedDatabase } from '../helpers/databases.ts';
import { startTestApp } from '../helpers/test-app.ts';

const run = promisify(execFile);
const pluginNew = (pluginsDir: string, ...args: string[]) =>
  run(process.execPath, [path.join(projectRoot, 'core', 'cli', 'plugin-new.ts'), ...args], {
    cwd: projectRoot,
    env: { ...childEnv(), PLUGINS_DIR: pluginsDir },
  });

/** `npm run plugin:new`: the folders it writes type-check against the plugin API and start as they are. */
describe('npm run plugin:new', () => {
  let database: ProvisionedDatabase;
  let pluginsDir: string;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    pluginsDir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    await pluginNew(pluginsDir, 'feed', 'river-levels');
    await pluginNew(pluginsDir, 'target', 'delivery-pager');
  });
  afterAll(async () => database?.drop());

  it('writes a feed and a target that type-check against the plugin API', async () => {
    const config = path.join(pluginsDir, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: path.join(projectRoot, 'tsconfig.json'),
        include: [],
        files: [path.join(pluginsDir, 'river-levels', 'index.ts'), path.join(pluginsDir, 'delivery-pager', 'index.ts')],
      }),
    );
    await expect(
      run(process.execPath, [path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { cwd: projectRoot }),
    ).resolves.toBeDefined();
  });

  it("writes them as the project formats code: npm test's Biome check would pass them in plugins/", async () => {
    for (const folder of ['river-levels', 'delivery-pager']) {
      const written = readFileSync(path.join(pluginsDir, folder, 'index.ts'), 'utf8');
      const formatted = spawnSync(path.join(projectRoot, 'node_modules', '.bin', 'biome'), ['format', `--stdin-file-path=plugins/${folder}/index.ts`], {
        cwd: projectRoot,
        input: written,
        encoding: 'utf8',
      });
      expect(formatted.status, formatted.stderr).toBe(0);
      expect(formatted.stdout).toBe(written);
    }
  });

  it('starts with them: the catalog lists the feed, the providers list the target', async () => {
    const started = await startTestApp({ database, pluginsDir, workers: false, env: { Pager__BaseUrl: 'http://127.0.0.1:9/pager' } });
    try {
      const feeds = (await started.app.inject({ url: '/api/notification-feeds' })).json();
      expect(feeds).toEqual([expect.objectContaining({ id: 'example.river-levels', eventTypes: ['ItemAdded'] })]);
      const providers = (await started.app.inject({ url: '/api/notification-providers' })).json();
      expect(providers).toEqual([expect.objectContaining({ provider: 'Pager', available: true, destination: expect.objectContaining({ required: true }) })]);
      const created = await started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'River', feedId: 'example.river-levels', delivery: { provider: 'Pager', destination: 'ops-1' } },
      });
      expect(created.statusCode, created.body).toBe(201);
    } finally {
      await started.close();
    }
  });

  it('refuses a folder that exists, and a name that is not kebab-case', async () => {
    await expect(pluginNew(pluginsDir, 'feed', 'river-levels')).rejects.toMatchObject({ stderr: expect.stringContaining('exists already; nothing written') });
    await expect(pluginNew(pluginsDir, 'feed', 'River_Levels')).rejects.toMatchObject({
      stderr: expect.stringContaining('expected feed or target and a kebab-case name'),
    });
  });
});
