import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type FeedFault, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

/** A feed plugin as the contract drives it: where its answer is served, how to make one new item, where it stores. */
export interface FeedUnderContract {
  readonly plugin: string;
  /** Real plugin folders (under plugins/) or test fixtures (under test/fixtures/plugins/). */
  readonly source: 'plugins' | 'fixtures';
  readonly feedId: string;
  /** The config section (`PowerOutages`), for `<Section>__Enabled`. */
  readonly section: string;
  readonly path: string;
  readonly systemTopic: string;
  /** The feed's answer holding these items. */
  answer(items: readonly unknown[]): unknown;
  /** An item whose first sighting is announced. */
  newItem(id: string): unknown;
  readonly storeTable: string;
}

const FAULTS: readonly FeedFault[] = ['http500', 'badJson', 'wrongShape', 'slow'];
/** e2eEnv's system subscriptions name both utility feeds: the contract installs one feed and names its own. */
const WITHOUT_DEFAULT_SYSTEM_SUBSCRIPTIONS = Object.fromEntries(
  ['PowerOutages', 'ScheduledOutages'].flatMap((name) =>
    ['FeedId', 'PushTopic'].map((key) => [`NotificationPipeline__SystemSubscriptions__${name}__${key}`, '']),
  ),
);

/**
 * The end-to-end checks every feed plugin passes, whatever its data: POLL
 * through the endpoint checker, PERSIST, hand-over and delivery once, no
 * repeat after a restart, a failing poll that changes nothing, and no
 * request at all when the feed is off.
 */
export function describeFeedContract(feed: FeedUnderContract): void {
  const monitor = `${feed.plugin}.monitor`;
  describe(`feed contract: ${feed.feedId}`, () => {
    let database: ProvisionedDatabase;
    let utility: UtilityFeedDouble;
    let push: PushServerDouble;
    let pluginsDir: string;
    let started: TestApp;
    let topic: string;
    const env = (enabled: boolean) =>
      e2eEnv(utility, push, {
        ...WITHOUT_DEFAULT_SYSTEM_SUBSCRIPTIONS,
        [`${feed.section}__Enabled`]: String(enabled),
        [`${feed.section}__PollingIntervalSeconds`]: '3600',
        [`${feed.section}__FeedTimeoutSeconds`]: '1',
        NotificationPipeline__SystemSubscriptions__Contract__FeedId: feed.feedId,
        NotificationPipeline__SystemSubscriptions__Contract__PushTopic: feed.systemTopic,
      });
    const start = async () => {
      started = await startTestApp({ database, pluginsDir, env: env(true) });
    };
    const knex = () => servicesOf(started.app).database.knex;
    const poll = async () => {
      await servicesOf(started.app).workers.runNow(monitor, { force: true });
      await servicesOf(started.app).dispatcher.settle();
    };
    const endpointState = () => knex()('endpoint_checks').where({ key: feed.plugin }).first('content_sha256', 'last_changed_at');
    const counts = () => ({ system: push.messages(feed.systemTopic).length, subscriber: push.messages(topic).length });

    beforeAll(async () => {
      database = await provisionDatabase(await preferredKind());
      [utility, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
      pluginsDir = feed.source === 'plugins' ? realPluginsDir([feed.plugin, 'delivery-push']) : realPluginsDir(['delivery-push'], [feed.plugin]);
      await start();
      const created = await started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'everything', feedId: feed.feedId, delivery: { provider: 'Push' } },
      });
      expect(created.statusCode, created.body).toBe(201);
      topic = created.json().delivery.destination;
    });
    afterAll(async () => {
      await started?.close();
      await Promise.all([utility?.close(), push?.close()]);
      await database?.drop();
    });

    it('announces a new item to its subscriber and the system topic, once', async () => {
      utility.setAnswer(feed.path, feed.answer([feed.newItem('C-1')]));
      await poll();
      await poll();
      expect(counts()).toEqual({ system: 1, subscriber: 1 });
      expect(await knex()(feed.storeTable).count({ n: '*' })).toEqual([{ n: 1 }]);
    });

    it('leaves an unchanged answer alone, by ETag and by content hash: the endpoint check and the store do not move', async () => {
      const seen = await endpointState();
      const stored = await knex()(feed.storeTable).select('*');
      await poll();
      utility.etags = false;
      await poll();
      utility.etags = true;
      expect(await endpointState()).toEqual(seen);
      // Nothing waits on the clock here, so no DETECT ran on the stored items either.
      expect(await knex()(feed.storeTable).select('*')).toEqual(stored);
      expect(counts()).toEqual({ system: 1, subscriber: 1 });
    });

    it('repeats nothing after a restart, even when the answer is processed again', async () => {
      await started.close();
      await start();
      await knex()('endpoint_checks').delete();
      await poll();
      expect(counts()).toEqual({ system: 1, subscriber: 1 });
    });

    it.each(FAULTS)('a feed fault (%s) fails that poll only: nothing stored changes, nothing sent, still ready', async (fault) => {
      const stored = await knex()(feed.storeTable).select('*');
      const seen = await endpointState();
      const before = counts();
      utility.setAnswer(feed.path, feed.answer([feed.newItem('C-1'), feed.newItem(`C-${fault}`)]));
      utility.fault(fault, 1, 1500);
      await poll();
      expect(await knex()(feed.storeTable).select('*')).toEqual(stored);
      expect(await endpointState()).toEqual(seen);
      expect(counts()).toEqual(before);
      expect((await started.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      // The next poll gets the good answer and announces the new item once.
      await poll();
      await poll();
      expect(counts()).toEqual({ system: before.system + 1, subscriber: before.subscriber + 1 });
      expect(await knex()(feed.storeTable).count({ n: '*' })).toEqual([{ n: stored.length + 1 }]);
    });
  });

  describe(`feed contract: ${feed.feedId} switched off`, () => {
    it('receives no request and has no monitor', async () => {
      const database = await provisionDatabase(await preferredKind());
      const [utility, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
      const pluginsDir = feed.source === 'plugins' ? realPluginsDir([feed.plugin, 'delivery-push']) : realPluginsDir(['delivery-push'], [feed.plugin]);
      const started = await startTestApp({
        database,
        pluginsDir,
        env: e2eEnv(utility, push, { ...WITHOUT_DEFAULT_SYSTEM_SUBSCRIPTIONS, [`${feed.section}__Enabled`]: 'false' }),
      });
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(servicesOf(started.app).workers.names).not.toContain(monitor);
        expect(utility.requests[feed.path]).toBeUndefined();
      } finally {
        await started.close();
        await Promise.all([utility.close(), push.close()]);
        await database.drop();
      }
    });
  });
}
