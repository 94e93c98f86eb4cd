import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

interface LogLine {
  level: number;
  msg: string;
  url?: string;
  statusCode?: number;
  client?: string;
  reason?: string;
  component?: string;
  plugin?: string;
}

/**
 * What an operator reads in the log at info, over a real socket: a page
 * visit is one line, not one per script and stylesheet; a refusal says
 * why; a feed's hand-over line is the feed's, not feed health's.
 */
describe('the request log at info', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  let base = '';
  const linesSince = (from: number): LogLine[] => started.logs.slice(from).map((line) => JSON.parse(line) as LogLine);
  const atInfo = (lines: LogLine[]) => lines.filter((line) => line.level >= 30);

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
      env: e2eEnv(feed, push, {
        Logging__Level: 'debug',
        NODE_ENV: 'production',
        Server__TrustedProxies: 'loopback',
        SubscriptionLimits__MaxPerIp: '1',
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
      }),
    });
    await started.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(started.app.server.address() as { port: number }).port}`;
    await servicesOf(started.app).workers.runNow('utility-power-outages.monitor');
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it('logs a page at info and its scripts, stylesheet and icon at debug', async () => {
    const from = started.logs.length;
    for (const path of ['/subscribe', '/web/style.css', '/web/subscribe.js', '/web/dom.js', '/favicon.ico', '/favicon.svg'])
      expect((await fetch(`${base}${path}`)).status).toBe(200);
    const lines = linesSince(from).filter((line) => line.statusCode !== undefined);
    expect(atInfo(lines).map((line) => line.url)).toEqual(['/subscribe']);
    expect(lines.filter((line) => line.level === 20).map((line) => line.url)).toEqual([
      '/web/style.css',
      '/web/subscribe.js',
      '/web/dom.js',
      '/favicon.ico',
      '/favicon.svg',
    ]);
  });

  it('says which limit a 429 hit, and which field a 400 names', async () => {
    const create = (displayName: string) =>
      fetch(`${base}/api/notification-subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ displayName, feedId: 'utility.power-outages', delivery: { provider: 'Push' } }),
      });
    expect((await create('first')).status).toBe(201);
    const from = started.logs.length;
    expect((await create('second')).status).toBe(429);
    expect((await create('')).status).toBe(400);
    const [limited, invalid] = linesSince(from).filter((line) => line.statusCode !== undefined);
    expect(limited).toMatchObject({
      level: 30,
      statusCode: 429,
      reason: 'at most 1 subscriptions per address: delete one first (SubscriptionLimits__MaxPerIp)',
    });
    expect(limited.msg).toMatch(/^POST \/api\/notification-subscriptions 429 \d+ ms: at most 1 subscriptions per address/);
    expect(invalid).toMatchObject({ statusCode: 400, reason: 'body/displayName must NOT have fewer than 1 characters' });
  });

  it('names the client the limits count: behind a trusted proxy, the right-most forwarded address, an entry that is not one skipped', async () => {
    const from = started.logs.length;
    expect((await fetch(`${base}/api/notification-feeds`, { headers: { 'x-forwarded-for': '203.0.113.7, hello' } })).status).toBe(200);
    expect((await fetch(`${base}/api/notification-feeds`)).status).toBe(200);
    const [forwarded, direct] = linesSince(from).filter((line) => line.statusCode !== undefined);
    expect([forwarded.client, direct.client]).toEqual(['203.0.113.7', '127.0.0.1']);
  });

  it("a feed's hand-over line names the feed plugin, not feed health", async () => {
    feed.setPowerOutages([{ id: 'PO-LOG', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    const from = started.logs.length;
    await servicesOf(started.app).workers.runNow('utility-power-outages.monitor', { force: true });
    const handedOver = linesSince(from).find((line) => line.msg === 'feed changes handed over');
    expect(handedOver).toMatchObject({ plugin: 'utility-power-outages' });
    expect(handedOver?.component).toBeUndefined();
  });
});
