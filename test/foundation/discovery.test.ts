import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../../core/app.ts';
import { PLUGIN_API_VERSION } from '../../core/plugin-api/api-version.ts';
import { preferredKind, provisionDatabase, tmpRoot, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pluginRootsOf, projectRoot } from '../../core/paths.ts';
import { loadPlatform } from '../../core/boot.ts';
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
      // Named the older way (filterableFields): core's words for it.
      filterFields: [
        {
          id: 'keywords',
          property: 'keywords',
          label: 'Keywords',
          hint: 'Comma-separated words to look for anywhere in an alert. Leave empty to skip.',
          example: '',
          match: 'contains',
        },
      ],
      filterableFields: ['Keywords'],
      filterProperties: { keywords: 'Keywords' },
      // A feed that declares no presentation still reads in words, in UTC, without a calendar or a map.
      eventTypeDetails: [{ type: 'ItemAdded', label: 'Item added', hint: '' }],
      urgentEventTypes: [],
      timeZone: 'UTC',
      hasCalendar: false,
      hasMap: false,
      watched: true,
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
    // The catalog still offers it, and says it is not watched (the subscribe page says so under the feed).
    const watchedOf = async (app: TestApp) =>
      ((await app.app.inject({ url: '/api/notification-feeds' })).json() as Array<{ id: string; watched: boolean }>).find((feed) => feed.id === 'fixture.items')
        ?.watched;
    expect(await watchedOf(disabled)).toBe(false);
    expect(servicesOf(disabled.app).workers.names).toContain('core.delivery.push');
    await disabled.close();
    const masterOff = await start({ FixtureFeed__Enabled: 'true', NotificationPipeline__Enabled: 'false' });
    // The master switch also stops core's delivery lanes and fan-outs (delivery plugins' own workers, such as the email outbox, go on).
    expect(monitors(servicesOf(masterOff.app).workers.names)).toEqual([]);
    expect(servicesOf(masterOff.app).workers.names.filter((name) => name.startsWith('core.delivery.') || name.startsWith('core.fanout.'))).toEqual([]);
    expect(await watchedOf(masterOff)).toBe(false);
    await masterOff.close();
    const on = await start({ FixtureFeed__Enabled: 'true' });
    expect(await watchedOf(on)).toBe(true);
    await on.close();
  });

  it('serves the real catalog of the shipped plugins', async () => {
    const { app, close } = await start({});
    const feeds = (await app.inject({ method: 'GET', url: '/api/notification-feeds' })).json();
    expect(feeds.find((f: { id: string }) => f.id === 'utility.power-outages')).toEqual({
      id: 'utility.power-outages',
      displayName: 'Power outages',
      eventTypes: ['NewOutage', 'EstimateUpdated', 'Restoration', 'RestoredAnnouncement', 'ManualAnnouncement'],
      filterFields: [
        {
          id: 'locationKeywords',
          property: 'locationKeywords',
          label: 'Areas',
          hint: 'Comma-separated. Part of a name is enough. Leave empty for every area.',
          example: 'Kandy, Peradeniya',
          match: 'contains',
        },
        {
          id: 'feeders',
          property: 'feeders',
          label: 'Feeders',
          hint: 'Comma-separated feeder codes. Leave empty for every feeder.',
          example: 'F12, F7',
          match: 'equals',
        },
        {
          id: 'keywords',
          property: 'keywords',
          label: 'Keywords',
          hint: 'Comma-separated words to look for anywhere in an alert. Leave empty to skip.',
          example: '',
          match: 'contains',
        },
      ],
      filterableFields: ['Area', 'Feeder', 'Keywords'],
      filterProperties: { locationKeywords: 'Area', feeders: 'Feeder', keywords: 'Keywords' },
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
      hasMap: true,
      // Not switched on in this service's settings.
      watched: false,
    });
    expect(servicesOf(app).registry.topicAllowlist.topics).toEqual(['utility-power-outages', 'utility-scheduled-outages']);
    // The feed's name, event types and filter fields in the language asked for, from the feed's own locales.
    const sinhala = (await app.inject({ method: 'GET', url: '/api/notification-feeds?language=si' })).json();
    const power = sinhala.find((f: { id: string }) => f.id === 'utility.power-outages');
    expect(power.filterFields.map((field: { label: string }) => field.label)).toEqual(['ප්‍රදේශ', 'ෆීඩර', 'මූල පද']);
    expect(power.displayName).toBe('විදුලි බිඳවැටීම්');
    expect(power.eventTypeDetails[0]).toEqual({ type: 'NewOutage', label: 'විදුලි බිඳවැටීම', hint: 'ඔබේ ප්‍රදේශයේ විදුලිය නැති වූ විට.' });
    expect(power.eventTypes).toEqual(['NewOutage', 'EstimateUpdated', 'Restoration', 'RestoredAnnouncement', 'ManualAnnouncement']);
    const unknown = await app.inject({ method: 'GET', url: '/api/notification-feeds?language=fr' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^querystring\/language/);
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
      new RegExp(
        `Plugin folder "fixture-feed": it was written for plugin API version 99, and this service offers version ${PLUGIN_API_VERSION}: update the service`,
      ),
    );
  });

  it('warns once, naming the plugin, when it was written before apiVersion existed; it works as before', async () => {
    const { app, logs } = await start({});
    const warnings = logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40 && entry.plugin === 'fixture-feed');
    // It declares no apiVersion, checks its answers the old way (parse), polls the shared source and declares its workers
    // on the manifest: one warning each, and it still works.
    expect(warnings.map((entry) => entry.msg)).toEqual([
      expect.stringMatching(
        /^plugin fixture-feed: NPDEP001: it declares no apiVersion, so it is read as written for plugin API version 1; it works as before\./,
      ),
      expect.stringMatching(/^plugin fixture-feed: NPDEP002: its monitor checks answers with parse: /),
      expect.stringMatching(/^plugin fixture-feed: NPDEP004: it was written before feeds had a source of their own/),
      expect.stringMatching(/^plugin fixture-feed: NPDEP005: it declares routes, workers or createTarget on its manifest/),
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

    const feedIds = async (env: Record<string, string>) =>
      (await loadPlatform(pluginRootsOf(env))).registry
        .getAll()
        .map((feed) => feed.id)
        .sort();

    it("adds its plugins to the shipped ones, as a list, each entry a folder of plugins or one plugin's folder", async () => {
      expect(pluginRootsOf({}).map((root) => root.dir)).toEqual([path.join(projectRoot, 'plugins')]);
      // Added to what plugins/ holds (the shipped feeds; in the drop-in pass, the third-party one too).
      const shipped = await feedIds({});
      expect(shipped).toEqual(expect.arrayContaining(['utility.power-outages', 'utility.scheduled-outages']));
      expect(await feedIds({ PLUGINS_DIR: outside })).toEqual([...shipped, 'fixture.items'].sort());
      const second = mkdtempSync(path.join(tmpdir(), 'np-plugins-'));
      try {
        cpSync(path.join(fixtures, 'plugins', 'water-outages'), path.join(second, 'water-outages'), { recursive: true });
        // Two folders, the second named as the plugin's own folder.
        expect(await feedIds({ PLUGINS_DIR: [outside, path.join(second, 'water-outages')].join(path.delimiter) })).toEqual(
          [...shipped, 'fixture.items', 'fixture.water-outages'].sort(),
        );
      } finally {
        rmSync(second, { recursive: true, force: true });
      }
    });

    it('stops the start naming a folder that does not exist, one that holds no plugin, and a plugin installed twice', async () => {
      const empty = mkdtempSync(path.join(tmpdir(), 'np-plugins-'));
      try {
        await expect(feedIds({ PLUGINS_DIR: `${outside}${path.delimiter}/no/such/folder` })).rejects.toThrow('PLUGINS_DIR: /no/such/folder does not exist');
        await expect(feedIds({ PLUGINS_DIR: empty })).rejects.toThrow(`PLUGINS_DIR: ${empty} holds no plugin`);
        cpSync(path.join(projectRoot, 'plugins', 'delivery-push'), path.join(empty, 'delivery-push'), { recursive: true });
        await expect(feedIds({ PLUGINS_DIR: empty })).rejects.toThrow(/Plugin folder "delivery-push": is installed twice/);
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });

    it('npm start with a PLUGINS_DIR that does not exist exits 1 naming it, having started nothing', async () => {
      const result = await run(process.execPath, [path.join(projectRoot, 'core', 'main.ts')], {
        cwd: projectRoot,
        env: { ...childEnv(), PLUGINS_DIR: '/no/such/plugins' },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('Start-up failed: PLUGINS_DIR: /no/such/plugins does not exist\n');
    });

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
