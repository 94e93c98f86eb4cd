import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from './databases.ts';
import { e2eEnv, realPluginsDir } from './e2e-env.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { servicesOf } from '../../core/app.ts';

/** The real service with both outage feeds and push, wired to the feed and push doubles, on a fresh database. */
export interface OutageFeedsApp {
  readonly app: FastifyInstance;
  readonly started: TestApp;
  readonly feed: UtilityFeedDouble;
  readonly push: PushServerDouble;
  /** One run of a feed's monitor now, then every delivery it caused. */
  poll(monitor: 'utility-power-outages.monitor' | 'utility-scheduled-outages.monitor'): Promise<void>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A Push subscription made through the API. */
  subscribe(feedId: string, filter?: object, displayName?: string): Promise<{ publicId: string; manageToken: string }>;
  close(): Promise<void>;
}

export async function startOutageFeedsApp(env: Record<string, string>, now?: () => Date): Promise<OutageFeedsApp> {
  const database: ProvisionedDatabase = await provisionDatabase(await preferredKind());
  const [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
  const started = await startTestApp({
    database,
    pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
    now,
    env: e2eEnv(feed, push, env, now),
  });
  const { app } = started;
  return {
    app,
    started,
    feed,
    push,
    async poll(monitor) {
      await servicesOf(app).workers.runNow(monitor, { force: true });
      await servicesOf(app).dispatcher.settle();
    },
    get: (url, headers = {}) => app.inject({ method: 'GET', url, headers }),
    async subscribe(feedId, filter = {}, displayName = 'Home') {
      const response = await app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName, feedId, filter, delivery: { provider: 'Push' } },
      });
      if (response.statusCode !== 201) throw new Error(`subscribe: ${response.statusCode} ${response.body}`);
      return response.json();
    },
    async close() {
      await started.close();
      await Promise.all([feed.close(), push.close()]);
      await database.drop();
    },
  };
}
