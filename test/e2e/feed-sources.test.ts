import { cpSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { provisionDatabase, preferredKind, type ProvisionedDatabase } from '../helpers/databases.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { THIRD_PARTY_DIR } from '../helpers/third-party.ts';

const UTILITY_KEY = 'utility-key-0123456789';
const WATER_KEY = 'water-board-key-0123456789';

/** A feed API that answers every path with an empty list and records which key came with each request. */
async function startKeyRecorder(list: string) {
  const seen: Array<{ path: string; key: string | null }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: new URL(req.url!, 'http://x').pathname, key: (req.headers['x-api-key'] as string | undefined) ?? null });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ [list]: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** Each path and key seen, once (a monitor polls at start too). */
    pairs: () => [...new Set(seen.map((entry) => JSON.stringify(entry)))].map((text) => JSON.parse(text)).sort((a, b) => a.path.localeCompare(b.path)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Each feed polls its own source with its own key: the
 * shipped utility feeds share ExternalProvider__* unless their section sets
 * one, a feed from elsewhere has only its own, and no feed ever sends
 * another feed's key, nor is a key ever logged.
 */
describe('a source per feed', () => {
  let database: ProvisionedDatabase;
  let utility: Awaited<ReturnType<typeof startKeyRecorder>>;
  let water: Awaited<ReturnType<typeof startKeyRecorder>>;
  let elsewhere: Awaited<ReturnType<typeof startKeyRecorder>>;
  let pluginsDir: string;
  const started: TestApp[] = [];

  const start = async (env: Record<string, string>) => {
    const app = await startTestApp({
      database,
      pluginsDir,
      env: {
        ExternalProvider__BaseUrl: utility.baseUrl,
        ExternalProvider__ApiKey: UTILITY_KEY,
        PowerOutages__Enabled: 'true',
        ScheduledOutages__Enabled: 'true',
        WaterSupply__Enabled: 'true',
        ...env,
      },
    });
    started.push(app);
    return app;
  };
  const pollAll = async (app: TestApp) => {
    for (const monitor of ['utility-power-outages.monitor', 'utility-scheduled-outages.monitor', 'utility-water-supply.monitor']) {
      await servicesOf(app.app)
        .workers.runNow(monitor, { force: true })
        .catch(() => undefined);
    }
  };

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [utility, water, elsewhere] = await Promise.all([startKeyRecorder('outages'), startKeyRecorder('notices'), startKeyRecorder('outages')]);
    pluginsDir = realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']);
    cpSync(path.join(THIRD_PARTY_DIR, 'utility-water-supply'), path.join(pluginsDir, 'utility-water-supply'), { recursive: true });
  });
  afterAll(async () => {
    for (const app of started) await app.close();
    await Promise.all([utility?.close(), water?.close(), elsewhere?.close()]);
    await database?.drop();
  });

  it("the utility's feeds share its source; a water board's feed polls its own with its own key; no key goes anywhere else", async () => {
    const app = await start({ WaterSupply__BaseUrl: water.baseUrl, WaterSupply__ApiKey: WATER_KEY });
    await pollAll(app);
    expect(utility.pairs()).toEqual([
      { path: '/power-outages', key: UTILITY_KEY },
      { path: '/scheduled-outages', key: UTILITY_KEY },
    ]);
    expect(water.pairs()).toEqual([{ path: '/water-supply', key: WATER_KEY }]);
    // Neither key in any log line (the water key is a secret of the water feed's section, blanked by value).
    expect(app.logs.join('\n')).not.toContain(WATER_KEY);
    expect(app.logs.join('\n')).not.toContain(UTILITY_KEY);
    await app.close();
    started.pop();
  });

  it('a shipped feed given an address of its own never sends the shared key there', async () => {
    utility.seen.length = 0;
    water.seen.length = 0;
    const app = await start({ PowerOutages__BaseUrl: elsewhere.baseUrl, WaterSupply__BaseUrl: water.baseUrl });
    await pollAll(app);
    expect(elsewhere.pairs()).toEqual([{ path: '/power-outages', key: null }]);
    expect(utility.pairs()).toEqual([{ path: '/scheduled-outages', key: UTILITY_KEY }]);
    // The water feed has no key of its own: it sends none (before, every feed sent the utility's).
    expect(water.pairs()).toEqual([{ path: '/water-supply', key: null }]);
    await app.close();
    started.pop();
  });

  it('a feed from elsewhere with no address of its own does not poll the utility: its polls fail naming the key to set', async () => {
    const before = { utility: utility.seen.length, water: water.seen.length };
    const app = await start({});
    await servicesOf(app.app)
      .workers.runNow('utility-water-supply.monitor', { force: true })
      .catch(() => undefined);
    expect(utility.seen.length).toBe(before.utility);
    expect(water.seen.length).toBe(before.water);
    const failure = app.logs.map((line) => JSON.parse(line)).find((entry) => JSON.stringify(entry).includes('WaterSupply__BaseUrl is not set'));
    expect(JSON.stringify(failure)).toContain('WaterSupply__BaseUrl is not set: utility-water-supply cannot be polled');
    await app.close();
    started.pop();
  });
});
