import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { postgresReachable, provisionDatabase } from '../helpers/databases.ts';
import { killTestEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { childEnv } from '../helpers/child-env.ts';
import { servicesOf } from '../../core/app.ts';

describe.runIf(await postgresReachable())('power outages across a kill -9 of the service', () => {
  it('delivers each event to each subscriber once: one ledger row, one notification on the phone', async () => {
    const database = await provisionDatabase('postgres');
    const [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    const pluginsDir = realPluginsDir(['utility-power-outages', 'delivery-push']);
    const env = killTestEnv(feed, push, database.env);
    const setup = await startTestApp({ database, pluginsDir, workers: false, env: { ...env, PowerOutages__Enabled: 'false' } });
    const created = await setup.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'k', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
    });
    const topic = created.json().delivery.destination as string;
    await setup.close();

    feed.setPowerOutages([{ id: 'PO-K', feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    push.delayNext(2, 3000); // both publishes are in flight when the process dies
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'test/fixtures/serve-with-plugins.ts', pluginsDir], {
      cwd: projectRoot,
      env: { ...childEnv(), ...env, Server__Port: '0', Database__EmbeddedPath: '', Logging__Level: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const observer = await startTestApp({ database, pluginsDir, workers: false, env: { ...env, PowerOutages__Enabled: 'false' } });
    const knex = servicesOf(observer.app).database.knex;
    try {
      await expect.poll(async () => (await knex('notification_delivery_ledger').where({ status: 'delivering' })).length, { timeout: 20_000 }).toBe(2);
      // Both publishes at the push server, each held by its delay, before the kill: a row leased but not yet published
      // would leave a delay for the successor's publish, which then timed out and waited for its retry (seen at one faked hour).
      await expect.poll(() => push.publishRequestCount, { timeout: 20_000 }).toBe(2);
      child.kill('SIGKILL');
      await exited;
      const successor = await startTestApp({ database, pluginsDir, env });
      await expect
        .poll(async () => (await knex('notification_delivery_ledger').pluck('status')).sort(), { timeout: 20_000 })
        .toEqual(['delivered', 'delivered']);
      // The dead process's slow publishes land too (the server stores them when their delay ends).
      await expect.poll(() => push.delayedPublishes, { timeout: 20_000 }).toBe(0);
      await successor.close();
      for (const name of [topic, 'utility-power-outages']) {
        const messages = push.messages(name);
        // The push server has no idempotency key: a publish in flight at the kill may land as well,
        // and carries the same sequence id, so the phone shows one notification.
        expect(messages.length).toBeGreaterThanOrEqual(1);
        expect(messages.length).toBeLessThanOrEqual(2);
        expect(new Set(messages.map((message) => message.sequence_id)).size).toBe(1);
        expect(messages[0].title).toBe('Power outage: Kandy');
      }
      expect(await knex('notification_delivery_ledger').count({ n: '*' })).toEqual([{ n: 2 }]);
    } finally {
      child.kill('SIGKILL');
      await observer.close();
      await Promise.all([feed.close(), push.close()]);
      await database.drop();
    }
  }, 120_000);
});
