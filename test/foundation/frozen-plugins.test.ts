import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { startChatServerDouble, type ChatServerDouble } from '../doubles/chat-server-double.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { servicesOf, startTestApp, type TestApp } from '../helpers/test-app.ts';

const FROZEN = path.join(projectRoot, 'test', 'fixtures', 'frozen', 'api-v2');

/**
 * A plugin written against an earlier version of the same major keeps
 * working: the feed and target of test/fixtures/frozen/api-v2,
 * never edited since plugin API 2, type-check with `npm run typecheck`
 * (test/ is in its tsconfig), pass their own tests (vitest runs them where
 * they are), and here load, say once what they should now write (NPDEP004:
 * the feed still polls the utility's shared source), and deliver.
 */
describe('plugins written for plugin API 2', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let chat: ChatServerDouble;
  let started: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, chat] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startChatServerDouble()]);
    feed.setAnswer('/water-supply', { notices: [] });
    const pluginsDir = realPluginsDir(['delivery-push']);
    for (const folder of ['utility-water-supply', 'delivery-chat']) cpSync(path.join(FROZEN, folder), path.join(pluginsDir, folder), { recursive: true });
    started = await startTestApp({
      database,
      pluginsDir,
      env: e2eEnv(feed, push, {
        Chat__BaseUrl: chat.baseUrl,
        Chat__Token: chat.token,
        WaterSupply__Enabled: 'true',
        WaterSupply__PollingIntervalSeconds: '3600',
        NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
        NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: '',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: '',
      }),
    });
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), chat?.close()]);
    await database?.drop();
  });

  it('load with one notice of what to write now, and deliver as they did', async () => {
    const warnings = started.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40 && /NPDEP\d+/.test(entry.msg));
    expect(warnings.map((entry) => entry.msg).sort()).toEqual([
      expect.stringMatching(/^plugin delivery-chat: NPDEP005: it declares routes, workers or createTarget on its manifest/),
      expect.stringMatching(/^plugin utility-water-supply: NPDEP004: it was written before feeds had a source of their own/),
    ]);
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Kandy water', feedId: 'utility.water-supply', delivery: { provider: 'Chat', destination: '#kandy-ops' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    feed.setAnswer('/water-supply', { notices: [{ id: 'B1', kind: 'boil-water', areas: ['Kandy'], since: '2026-11-25T08:00:00+05:30', until: null }] });
    await servicesOf(started.app).workers.runNow('utility-water-supply.monitor', { force: true });
    await servicesOf(started.app).dispatcher.settle();
    expect(chat.textsOf('#kandy-ops')).toEqual([expect.stringMatching(/^Boil water before drinking: Kandy/)]);
  });
});
