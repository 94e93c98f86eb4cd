import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../../core/app.ts';
import { preferredKind, provisionDatabase, tmpRoot, type ProvisionedDatabase } from '../helpers/databases.ts';
import { projectRoot } from '../../core/paths.ts';
import { childEnv } from '../helpers/child-env.ts';
import { shippedPluginsDir } from '../helpers/shipped-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const run = promisify(execFile);
const monitors = (names: readonly string[]) => names.filter((name) => name.endsWith('.monitor'));

/** A plugins folder holding the shipped plugins plus the fixture feed, as an operator would drop it in. */
function pluginsDirWithFixture(): string {
  const dir = shippedPluginsDir();
  cpSync(path.join(fixtures, 'plugins', 'fixture-feed'), path.join(dir, 'fixture-feed'), { recursive: true });
  return dir;
}

describe('plugin discovery', () => {
  let database: ProvisionedDatabase;
  let pluginsDir: string;
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const started = await startTestApp({ database, pluginsDir, env });
    apps.push(started);
    return started;
  };

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    pluginsDir = pluginsDirWithFixture();
  });
  afterAll(async () => {
    for (const started of apps) await started.close();
    await database.drop();
  });

  it('lists a dropped-in plugin in the catalog, applies its migration and runs its worker when enabled', async () => {
    const { app } = await start({ FixtureFeed__Enabled: 'true' });
    const feeds = (await app.inject({ method: 'GET', url: '/api/notification-feeds' })).json();
    expect(feeds).toContainEqual({
      id: 'fixture.items',
      displayName: 'Fixture items',
      eventTypes: ['ItemAdded'],
      filterableFields: ['Keywords'],
      filterProperties: { keywords: 'Keywords' },
      // A feed that declares no presentation still reads in words, in UTC, without a calendar.
      eventTypeDetails: [{ type: 'ItemAdded', label: 'Item added', hint: '' }],
      urgentEventTypes: [],
      timeZone: 'UTC',
      hasCalendar: false,
    });
    expect(feeds.map((f: { id: string }) => f.id)).toEqual(['fixture.items', 'utility.power-outages', 'utility.scheduled-outages']);
    expect(monitors(servicesOf(app).workers.names)).toEqual(['fixture-feed.monitor']);
    // runImmediately: the first iteration writes a row into the plugin's own table.
    await expect.poll(async () => (await servicesOf(app).database.knex('fixture_feed_runs').count({ n: '*' }))[0].n, { timeout: 5000 }).toBe(1);
    await app.close();
  });

  it('registers no monitor when the feed or the master switch is off', async () => {
    const disabled = await start({ FixtureFeed__Enabled: 'false' });
    expect(monitors(servicesOf(disabled.app).workers.names)).toEqual([]);
    expect(servicesOf(disabled.app).workers.names).toContain('core.delivery-dispatcher');
    await disabled.close();
    const masterOff = await start({ FixtureFeed__Enabled: 'true', NotificationPipeline__Enabled: 'false' });
    // The master switch also stops core's delivery dispatcher (delivery plugins' own workers, such as the email outbox, go on).
    expect(monitors(servicesOf(masterOff.app).workers.names)).toEqual([]);
    expect(servicesOf(masterOff.app).workers.names).not.toContain('core.delivery-dispatcher');
    await masterOff.close();
  });

  it('serves the real catalog of the shipped plugins', async () => {
    const { app, close } = await start({});
    const feeds = (await app.inject({ method: 'GET', url: '/api/notification-feeds' })).json();
    expect(feeds.find((f: { id: string }) => f.id === 'utility.power-outages')).toEqual({
      id: 'utility.power-outages',
      displayName: 'Power outages',
      eventTypes: ['NewOutage', 'EstimateUpdated', 'Restoration', 'RestoredAnnouncement', 'ManualAnnouncement'],
      filterableFields: ['Feeder', 'Area', 'Keywords'],
      filterProperties: { feeders: 'Feeder', locationKeywords: 'Area', keywords: 'Keywords' },
      eventTypeDetails: [
        { type: 'NewOutage', label: 'Power outage', hint: 'When the power goes off in your area.' },
        { type: 'EstimateUpdated', label: 'New restoration estimate', hint: 'When the utility changes its estimate of when power comes back.' },
        { type: 'Restoration', label: 'Power restored', hint: 'When power comes back, also after an outage reported only once it was over.' },
        { type: 'RestoredAnnouncement', label: 'Power restored', hint: 'When power comes back, also after an outage reported only once it was over.' },
        { type: 'ManualAnnouncement', label: 'Announcements', hint: 'Messages from the utility: storm warnings, planned work, advice.' },
      ],
      urgentEventTypes: ['NewOutage', 'ManualAnnouncement'],
      timeZone: 'UTC',
      hasCalendar: false,
    });
    expect(servicesOf(app).registry.topicAllowlist.topics).toEqual(['utility-power-outages', 'utility-scheduled-outages']);
    await close();
  });

  it('stops the start with an error naming the folder of a malformed manifest', async () => {
    const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    cpSync(path.join(fixtures, 'broken-plugins', 'broken-manifest'), path.join(dir, 'broken-manifest'), { recursive: true });
    await expect(buildApp({ env: database.env, pluginsDir: dir })).rejects.toThrow(
      /Plugin folder "broken-manifest": .*feed\.id must be a dotted id.*no renderer for event type Happened/,
    );
  });

  it('stops the start when a delivery target still defines the per-create hook core no longer calls', async () => {
    const dir = pluginsDirWithFixture();
    cpSync(path.join(fixtures, 'broken-plugins', 'old-hook-target'), path.join(dir, 'old-hook-target'), { recursive: true });
    await expect(buildApp({ env: database.env, pluginsDir: dir, logStream: { write: () => undefined } })).rejects.toThrow(
      /Plugin "old-hook-target": its delivery target defines onSubscriptionCreated.*define onSubscriptionsCreated/,
    );
  });

  it('stops the start when a folder has no index.ts', async () => {
    const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    cpSync(path.join(fixtures, 'plugins', 'fixture-feed', 'migrations'), path.join(dir, 'stray-folder'), { recursive: true });
    await expect(buildApp({ env: database.env, pluginsDir: dir })).rejects.toThrow(/Plugin folder "stray-folder": has no index.ts/);
  });

  it('stops the start naming a plugin written for a later plugin API, and what to do', async () => {
    const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    cpSync(path.join(fixtures, 'plugins', 'fixture-feed'), path.join(dir, 'fixture-feed'), { recursive: true });
    const index = path.join(dir, 'fixture-feed', 'index.ts');
    writeFileSync(index, readFileSync(index, 'utf8').replace("id: 'fixture-feed',", "id: 'fixture-feed',\n  apiVersion: 99,"));
    await expect(buildApp({ env: database.env, pluginsDir: dir })).rejects.toThrow(
      /Plugin folder "fixture-feed": it was written for plugin API version 99, and this service offers version 2: update the service/,
    );
  });

  it('warns once, naming the plugin, when it was written before apiVersion existed; it works as before', async () => {
    const { app, logs } = await start({});
    const warnings = logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40 && entry.plugin === 'fixture-feed');
    // It declares no apiVersion, and checks its answers the old way (parse): one warning each, and it still works.
    expect(warnings.map((entry) => entry.msg)).toEqual([
      expect.stringMatching(/^plugin fixture-feed: it declares no apiVersion, so it is read as written for plugin API version 1; it works as before\./),
      expect.stringMatching(/^plugin fixture-feed: its monitor checks answers with parse: /),
    ]);
    expect((await app.inject({ url: '/api/notification-feeds' })).json().map((feed: { id: string }) => feed.id)).toContain('fixture.items');
    await app.close();
  });

  describe('a plugins folder outside the project (PLUGINS_DIR)', () => {
    let outside: string;
    beforeAll(() => {
      outside = mkdtempSync(path.join(tmpdir(), 'np-plugins-'));
      cpSync(path.join(fixtures, 'plugins', 'fixture-feed'), path.join(outside, 'fixture-feed'), { recursive: true });
    });
    afterAll(() => rmSync(outside, { recursive: true, force: true }));

    it('loads its plugins: #plugin-api resolves for them too', async () => {
      const fresh = await provisionDatabase(await preferredKind());
      const started = await startTestApp({ database: fresh, pluginsDir: outside, workers: false });
      try {
        const feeds = (await started.app.inject({ url: '/api/notification-feeds' })).json();
        expect(feeds.map((feed: { id: string }) => feed.id)).toEqual(['fixture.items']);
      } finally {
        await started.close();
        await fresh.drop();
      }
    });

    it('npm run migrate applies their migrations', async () => {
      const fresh = await provisionDatabase(await preferredKind());
      try {
        const { stdout } = await run(process.execPath, [path.join(projectRoot, 'core', 'cli', 'migrate.ts')], {
          cwd: projectRoot,
          env: { ...childEnv(), ...fresh.env, PLUGINS_DIR: outside },
        });
        expect(stdout).toMatch(/^applied \d+ migration\(s\) on /);
        expect(stdout).toContain('20261122090000_fixture_feed_runs.ts');
      } finally {
        await fresh.drop();
      }
    });
  });
});
