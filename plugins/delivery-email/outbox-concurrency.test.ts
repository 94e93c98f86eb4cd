import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Test-only imports from outside the plugin: the shared database helpers and the SMTP relay double.
import { postgresReachable, provisionDatabase, type ProvisionedDatabase } from '../../test/helpers/databases.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { startSmtpDouble, type SmtpDouble } from '../../test/doubles/smtp-double.ts';
import { emailPluginsDir, newOutageEvent, OUTBOX_WORKER, startEmailApp } from '../../test/doubles/smtp-test-app.ts';
import { childEnv } from '../../test/helpers/child-env.ts';
import { servicesOf } from '../../test/helpers/test-app.ts';

const crashChild = fileURLToPath(new URL('../../test/doubles/smtp-crash-child.ts', import.meta.url));
const FAN_OUT = 400;

describe.runIf(await postgresReachable())('several instances on one PostgreSQL database', () => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;
  let pluginsDir: string;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await provisionDatabase('postgres');
    smtp = await startSmtpDouble();
    pluginsDir = emailPluginsDir();
  });
  afterAll(async () => {
    smtp?.heal();
    for (const app of apps) await app.close();
    await smtp?.close();
    await database?.drop();
  });

  it('an enqueue on one instance wakes the worker of another at once (LISTEN/NOTIFY)', async () => {
    // The enqueueing instance runs no worker (like `npm run migrate`), and the other's sweep is an hour away.
    const quiet = await startEmailApp({ database, pluginsDir, smtp, workers: false });
    const worker = await startEmailApp({ database, pluginsDir, smtp });
    try {
      await expect.poll(() => worker.logs.some((line) => line.includes('listening for wake-ups') && line.includes('queue_delivery_email_outbox'))).toBe(true);
      const response = await quiet.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'notify', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination: 'notify-me@example.org' } },
      });
      expect(response.statusCode).toBe(201);
      await expect.poll(() => smtp.messages.filter((m) => m.envelopeTo.includes('notify-me@example.org')).length, { timeout: 5000 }).toBe(1);
    } finally {
      await quiet.close();
      await worker.close();
    }
  });

  it('two workers draining one outbox together send every item exactly once', async () => {
    const [a, b] = [await startEmailApp({ database, pluginsDir, smtp }), await startEmailApp({ database, pluginsDir, smtp })];
    apps.push(a, b);
    const knex = servicesOf(a.app).database.knex;
    // Verified subscribers, inserted directly: one event then queues FAN_OUT emails in one transaction.
    await knex('notification_subscriptions').insert(
      Array.from({ length: FAN_OUT }, (_, i) => ({
        public_id: `fan-${i}`,
        display_name: `Subscriber ${i}`,
        feed_id: 'utility.power-outages',
        filter_json: {},
        provider: 'Email',
        destination: `fan-${i}@example.org`,
        scope: 'Anonymous',
        is_active: true,
      })),
    );
    const result = await servicesOf(a.app).pipeline.processNotificationEvents([newOutageEvent('PO-FAN')], { awaitDelivery: true });
    expect(result.deliveredCount).toBe(FAN_OUT);
    // The hand-over to the outbox woke instance a in process and instance b by NOTIFY; both sweeps run too, at the same time.
    await Promise.all([servicesOf(a.app).workers.runNow(OUTBOX_WORKER), servicesOf(b.app).workers.runNow(OUTBOX_WORKER)]);
    await expect
      .poll(async () => (await knex('email_outbox').where({ state: 'sent', kind: 'notification' }).count({ n: '*' }))[0].n, { timeout: 20_000 })
      .toBe(FAN_OUT);

    const fanMail = smtp.messages.filter((message) => message.envelopeTo[0]?.startsWith('fan-'));
    expect(fanMail).toHaveLength(FAN_OUT);
    expect(new Set(fanMail.map((message) => message.envelopeTo[0])).size).toBe(FAN_OUT);
    expect(new Set(fanMail.map((message) => message.header('message-id'))).size).toBe(FAN_OUT);
    expect(await knex('notification_delivery_ledger').where({ source_key: 'PO-FAN', status: 'delivered' }).count({ n: '*' })).toEqual([{ n: FAN_OUT }]);
    // Both instances took batches (otherwise this test proves nothing about concurrency).
    for (const instance of [a, b])
      expect(instance.logs.some((line) => line.includes('"queue":"delivery-email.outbox"') && line.includes('queue batch settled'))).toBe(true);
  });

  it('an instance killed while sending: another takes the item over after the lease and it arrives once', async () => {
    // Only the child runs while it claims: no other instance may take the item first.
    for (const app of apps.splice(0)) await app.close();
    smtp.failNext({ kind: 'hang' });
    const child = spawn(process.execPath, [crashChild], {
      env: { ...childEnv(), CRASH_DATABASE_URL: database.connectionString!, CRASH_PLUGINS_DIR: pluginsDir, CRASH_SMTP_PORT: String(smtp.port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 20_000 }).toContain('CREATED 201');

    const observer = new pg.Client({ connectionString: database.connectionString });
    await observer.connect();
    const item = async () => (await observer.query("SELECT state, attempts FROM email_outbox WHERE recipient = 'crash-child@example.org'")).rows[0];
    try {
      // The child claimed the verification email and the relay holds it after DATA: it is being sent when the process dies.
      await expect.poll(() => smtp.hungCount, { timeout: 10_000 }).toBe(1);
      expect(await item()).toMatchObject({ state: 'processing', attempts: 1 });
      child.kill('SIGKILL');
      await exited;
      expect(smtp.messages.filter((m) => m.envelopeTo.includes('crash-child@example.org'))).toHaveLength(0);

      // A successor starts before the lease lapses: its first sweep finds nothing due, its timer wakes it when the lease ends.
      apps.push(await startEmailApp({ database, pluginsDir, smtp }));
      await expect.poll(item, { timeout: 15_000 }).toMatchObject({ state: 'sent', attempts: 2 });
      expect(smtp.messages.filter((m) => m.envelopeTo.includes('crash-child@example.org'))).toHaveLength(1);
    } finally {
      await observer.end();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
