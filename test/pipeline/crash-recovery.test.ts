import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { postgresReachable, provisionDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { childEnv } from '../helpers/child-env.ts';
import { servicesOf } from '../../core/app.ts';

const child = fileURLToPath(new URL('../fixtures/crash-child.ts', import.meta.url));

describe.runIf(await postgresReachable())('a process killed between claim and send', () => {
  it('neither loses nor duplicates the delivery: another instance sends it once after the lease', async () => {
    const database = await provisionDatabase('postgres');
    const pluginsDir = pipelinePluginsDir();
    const env = { NotificationPipeline__DeliveryLeaseSeconds: '2', NotificationPipeline__DispatchIntervalSeconds: '1' };
    // A first instance creates the schema and one subscription, and arms the fixture to hang.
    const setup = await startTestApp({ database, pluginsDir, workers: false, env });
    const created = await setup.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'crash', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
    });
    expect(created.statusCode).toBe(201);
    await servicesOf(setup.app).database.knex('fixture_push_control').update({ mode: 'hang', remaining: 1 });
    await setup.close();

    const proc = spawn(process.execPath, [child], {
      cwd: projectRoot,
      env: { ...childEnv(), CRASH_DATABASE_URL: database.connectionString!, CRASH_PLUGINS_DIR: pluginsDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    let output = '';
    proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 20_000 }).toContain('CLAIMED 1');

    const observer = await startTestApp({ database, pluginsDir, workers: false, env });
    const knex = servicesOf(observer.app).database.knex;
    // The child leased the row and its target hangs: it is "being sent" when the process dies.
    await expect.poll(async () => (await knex('notification_delivery_ledger').first())?.status, { timeout: 10_000 }).toBe('delivering');
    proc.kill('SIGKILL');
    await exited;
    await observer.close();

    const successor = await startTestApp({ database, pluginsDir, env });
    try {
      const sknex = servicesOf(successor.app).database.knex;
      await expect.poll(async () => (await sknex('notification_delivery_ledger').first())?.status, { timeout: 15_000 }).toBe('delivered');
      expect(await sknex('notification_delivery_ledger').count({ n: '*' })).toEqual([{ n: 1 }]);
      expect(await sknex('fixture_push_deliveries').pluck('source_key')).toEqual(['PO-CRASH']);
      expect((await sknex('notification_delivery_ledger').first()).attempts).toBe(2);
    } finally {
      await successor.close();
      await database.drop();
    }
  });
});
