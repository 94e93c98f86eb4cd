import { spawn } from 'node:child_process';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { START_FLAGS } from '../../demo/service-process.ts';
import { servicesOf } from '../../core/app.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { childEnv } from './child-env.ts';
import { provisionDatabase } from './databases.ts';
import { killTestEnv, realPluginsDir } from './e2e-env.ts';
import { startTestApp } from './test-app.ts';

/** The service as `npm start` runs it (with the plugins of `pluginsDir` only), in a process of its own the test can kill -9. */
export function spawnService(env: Record<string, string>, pluginsDir: string) {
  const child = spawn(process.execPath, [...START_FLAGS, 'test/fixtures/serve-with-plugins.ts', pluginsDir], {
    cwd: projectRoot,
    env: { ...childEnv(), ...env, Server__Port: '0', Logging__Level: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    exited,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Waits until the ledger holds `count` delivered rows. */
export async function waitForDelivered(knex: Knex, count: number): Promise<void> {
  await expect
    .poll(async () => Number((await knex('notification_delivery_ledger').where({ status: 'delivered' }).count({ n: '*' }))[0]!.n), {
      timeout: 120_000,
      interval: 200,
    })
    .toBe(count);
}

/**
 * What a kill -9 test sets up: a PostgreSQL database, the feed and push
 * doubles, the plugins, the service's env (the power-outages feed polled
 * by the killed process, no system subscriptions) and an observer app
 * (workers off, feed off) to read and seed the database with.
 */
export async function killScene(plugins: string[], extraEnv: Record<string, string> = {}) {
  const database = await provisionDatabase('postgres');
  const [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
  const pluginsDir = realPluginsDir(plugins);
  const env = killTestEnv(feed, push, database.env, {
    NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
    NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
    ...extraEnv,
  });
  const observer = await startTestApp({ database, pluginsDir, workers: false, env: { ...env, PowerOutages__Enabled: 'false' } });
  return {
    database,
    feed,
    push,
    env,
    pluginsDir,
    knex: servicesOf(observer.app).database.knex,
    /** The observer's pipeline: hands events over and delivers them itself (awaitDelivery), before the kill's scene. */
    pipeline: servicesOf(observer.app).pipeline,
    /** Starts the service as a process of its own, to be killed. */
    spawn: () => spawnService(env, pluginsDir),
    /** A successor with short leases, running until every one of `count` deliveries is recorded delivered. */
    async finish(knex: Knex, count: number) {
      const successor = await startTestApp({ database, pluginsDir, env: { ...env, NotificationPipeline__DeliveryLeaseSeconds: '2' } });
      try {
        await waitForDelivered(knex, count);
      } finally {
        await successor.close();
      }
    },
    async close() {
      await observer.close();
      await Promise.all([feed.close(), push.close()]);
      await database.drop();
    },
  };
}
