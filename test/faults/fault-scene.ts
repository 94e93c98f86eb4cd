import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import webpush from 'web-push';
import { expect } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { START_FLAGS } from '../../demo/service-process.ts';
import { startTwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { startWebhookReceiver } from '../../demo/webhook-inbox/webhook-receiver.ts';
import { startPushServiceDouble, type PushServiceDouble } from '../../demo/webpush-inbox/push-service.ts';
import { startBlackHole } from './black-hole.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { childEnv } from '../helpers/child-env.ts';
import { provisionDatabase, scratchParent, type ProvisionedDatabase } from '../helpers/databases.ts';
import { killTestEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp } from '../helpers/test-app.ts';

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

/** The subscribers of a scene, by channel. */
export interface Audience {
  readonly push?: number;
  readonly sms?: number;
  readonly email?: number;
  readonly webpush?: number;
  readonly webhook?: number;
}

/** The delivery targets a scene can make a black hole of: a peer that accepts connections and never answers. */
export type Peer = 'Push' | 'Sms' | 'Email' | 'WebPush' | 'Webhook';

/** What a fault case prints and asserts: the suite's one line per case. */
export interface Tally {
  readonly events: number;
  readonly expected: number;
  readonly delivered: number;
  readonly lost: number;
  readonly duplicates: number;
  /** Duplicates whose delivery was on its way (leased, or an email being sent) at a fault. */
  readonly duplicatesInFlight: number;
  readonly failed: number;
}

/** A service process of the scene (`npm start`'s own start), which the test may kill -9 or stop. */
export interface Instance {
  readonly name: string;
  readonly exited: Promise<unknown>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface SceneOptions {
  /** A connection string the instances use instead of a fresh database on the machine's server (a cluster the test owns). */
  readonly databaseUrl?: string;
  readonly audience: Audience;
  /** Env every instance gets beside the scene's own. */
  readonly env?: Record<string, string>;
  /** This target's peer accepts connections and never answers. */
  readonly blackHole?: Peer;
}

const PLUGINS = ['utility-power-outages', 'delivery-push', 'delivery-sms', 'delivery-email', 'delivery-webpush', 'delivery-webhook'];
const VAPID = webpush.generateVAPIDKeys();

/**
 * A fan-out under faults: the feed, push, SMS and SMTP doubles on real
 * sockets, a PostgreSQL database, `audience` subscribers seeded, and
 * service processes started with `spawn`. `inFlight()` notes what is on
 * its way at a fault; `tally()` counts what each subscriber received.
 */
export async function faultScene(options: SceneOptions) {
  const database: ProvisionedDatabase = options.databaseUrl
    ? {
        kind: 'postgres',
        connectionString: options.databaseUrl,
        env: { ConnectionStrings__DefaultConnection: options.databaseUrl },
        drop: async () => undefined,
      }
    : await provisionDatabase('postgres');
  const [feed, push, smtp, gateway, browsers, receiver, hole] = await Promise.all([
    startUtilityFeedDouble(),
    startPushServerDouble(),
    startSmtpDouble({ keep: true }),
    startTwilioGateway({ accountSid: 'ACfaults', authToken: 'fault-token-0123456789', number: '+15005550006', publicBaseUrl: 'https://alerts.example.org' }),
    startPushServiceDouble(),
    startWebhookReceiver(),
    startBlackHole(),
  ]);
  smtp.blackhole(options.blackHole === 'Email');
  const pluginsDir = realPluginsDir(PLUGINS);
  const env = killTestEnv(feed, push, database.env, {
    ...smtp.env,
    ...gateway.env,
    ...(options.blackHole === 'Push' ? { Notifications__Push__BaseUrl: hole.url } : {}),
    ...(options.blackHole === 'Sms' ? { Sms__BaseUrl: hole.url } : {}),
    WebPush__VapidPublicKey: VAPID.publicKey,
    WebPush__VapidPrivateKey: VAPID.privateKey,
    WebPush__AllowedEndpointHosts: '127.0.0.1',
    Webhook__AllowedHosts: '127.0.0.1',
    PublicBaseUrl: 'https://alerts.example.org',
    NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
    NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
    NotificationPipeline__DeliveryLeaseSeconds: '10',
    EmailOutbox__IntervalSeconds: '1',
    // As in production: every instance follows the database's clock.
    Server__ClockFollowsDatabase: 'true',
    ...options.env,
  });
  // Migrations once, by an app that runs no worker; then plain connections (they reconnect after a restart of the database).
  const migrator = await startTestApp({ database, pluginsDir, workers: false, env: { ...env, PowerOutages__Enabled: 'false' } });
  await migrator.close();
  const pool = new pg.Pool({ connectionString: database.connectionString, max: 3 });
  pool.on('error', () => undefined);
  // The scene's own reads ride out the faults it makes: a connection the restart cut is dropped and the read tried again.
  const db = {
    async query(sql: string, values?: unknown[]): Promise<pg.QueryResult> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await pool.query(sql, values);
        } catch (error) {
          if (attempt >= 40 || !isConnectionError(error)) throw error;
          await sleep(250);
        }
      }
    },
    end: () => pool.end(),
  };
  mkdirSync(path.join(scratchParent(), 'fault-logs'), { recursive: true });
  const logs = mkdtempSync(path.join(scratchParent(), 'fault-logs', 'case-'));
  const { push: pushCount = 0, sms = 0, email = 0, webpush: webpushCount = 0, webhook = 0 } = options.audience;
  await seed(db, pushCount, sms, email);
  await seedWebPush(db, webpushCount, browsers, (name, endpoint) => (options.blackHole === 'WebPush' ? `${hole.url}/push/${name}` : endpoint));
  await seedWebhooks(db, webhook, options.blackHole === 'Webhook' ? `${hole.url}/hooks` : `${receiver.url}/hooks`);
  const expected = pushCount + sms + email + webpushCount + webhook;
  const onTheirWay = new Set<string>();
  const children = new Set<ChildProcess>();

  const received = (): Map<string, number> => {
    const counts = new Map<string, number>();
    const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    for (const message of push.allMessages()) add(message.topic);
    for (const text of gateway.texts) add(text.to);
    for (const mail of smtp.messages) for (const to of mail.envelopeTo) add(to);
    for (const pushed of browsers.received) add(`${browsers.url}/push/${pushed.subscriber}`);
    for (const hook of receiver.received) add(receiver.hookUrl(hook.name));
    return counts;
  };

  return {
    db,
    feed,
    push,
    smtp,
    gateway,
    env,
    expected,
    logs,
    /** Starts an instance named `name` (its name survives its restarts); `clockAheadSeconds` runs it under faketime. */
    spawn(name: string, extra: Record<string, string> = {}, clockAheadSeconds = 0): Instance {
      const clock = clockAheadSeconds ? { LD_PRELOAD: LIBFAKETIME, FAKETIME: `+${clockAheadSeconds}s`, FAKETIME_DONT_RESET: '1' } : {};
      const child = spawn(process.execPath, [...START_FLAGS, 'test/fixtures/serve-with-plugins.ts', pluginsDir], {
        cwd: projectRoot,
        env: { ...childEnv(), ...env, Server__Port: '0', ...extra, ...clock, Server__InstanceName: name, Logging__Level: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Its log (warnings and errors, one JSON line each), kept for a case that fails.
      const log = createWriteStream(path.join(logs, `${name}.log`), { flags: 'a' });
      child.stdout!.pipe(log);
      child.stderr!.pipe(log);
      children.add(child);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      exited.then(() => children.delete(child));
      return {
        name,
        exited,
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      };
    },
    /** What an instance logged so far (warnings and errors, one JSON object a line). */
    logOf(name: string): Array<Record<string, unknown>> {
      const file = path.join(logs, `${name}.log`);
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    /** The outage every subscriber is told of. */
    startOutage(id = 'PO-FAULT') {
      feed.setPowerOutages([{ id, feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    },
    /** How many subscribers got their message so far (of one channel: those whose destination starts so). */
    reached(prefix?: string): number {
      return prefix === undefined ? received().size : [...received().keys()].filter((key) => key.startsWith(prefix)).length;
    },
    /** Where each channel's destinations start, as `reached` takes them. */
    prefixes: { Push: 'alerts-fault-', Sms: '+9477', Email: 'reader', WebPush: `${browsers.url}/push/`, Webhook: `${receiver.url}/hooks/` } as Record<
      Peer,
      string
    >,
    /** Rows per state of one provider's ledger. */
    async states(provider: Peer): Promise<Record<string, number>> {
      const result = await db.query('SELECT status, count(*) AS n FROM notification_delivery_ledger WHERE provider = $1 GROUP BY status', [provider]);
      return Object.fromEntries((result.rows as Array<{ status: string; n: string }>).map((row) => [row.status, Number(row.n)]));
    },
    /** Notes what is on its way now (rows leased, emails being sent): a duplicate of one of them is what a fault may cost. */
    async inFlight(via: Queryable = db): Promise<number> {
      const result = await via.query(
        `SELECT s.destination FROM notification_delivery_ledger l JOIN notification_subscriptions s ON s.id = l.subscription_id WHERE l.status = 'delivering'
         UNION SELECT recipient FROM email_outbox WHERE state = 'processing'`,
      );
      for (const row of result.rows as Array<{ destination: string }>) onTheirWay.add(row.destination);
      return result.rowCount ?? 0;
    },
    /** Waits until every subscriber got the message and the ledger holds nothing unsettled. */
    async finished(timeoutMs: number): Promise<void> {
      await expect.poll(() => received().size, { timeout: timeoutMs, interval: 200 }).toBe(expected);
      await expect
        .poll(
          async () =>
            Number(
              (await db.query(`SELECT count(*) AS n FROM notification_delivery_ledger WHERE status NOT IN ('delivered', 'failed', 'skipped', 'superseded')`))
                .rows[0].n,
            ),
          { timeout: timeoutMs, interval: 200 },
        )
        .toBe(0);
    },
    /** The case's figures, printed on one line. */
    async tally(label: string): Promise<Tally> {
      const counts = received();
      const twice = [...counts].filter(([, n]) => n > 1);
      const ledger = (
        await db.query(`SELECT count(DISTINCT event_id) AS events, count(*) FILTER (WHERE status = 'failed') AS failed FROM notification_delivery_ledger`)
      ).rows[0];
      const tally: Tally = {
        events: Number(ledger.events),
        expected,
        delivered: counts.size,
        lost: expected - counts.size,
        duplicates: twice.reduce((sum, [, n]) => sum + n - 1, 0),
        duplicatesInFlight: twice.filter(([key]) => onTheirWay.has(key)).reduce((sum, [, n]) => sum + n - 1, 0),
        failed: Number(ledger.failed),
      };
      console.log(
        `fault: ${label}: events ${tally.events}, expected ${tally.expected}, delivered ${tally.delivered}, lost ${tally.lost}, ` +
          `duplicates ${tally.duplicates} (${tally.duplicatesInFlight} in flight at the fault), failed ${tally.failed}` +
          (twice.length > 0
            ? ` (sent twice, for example: ${twice
                .slice(0, 3)
                .map(([key]) => key)
                .join(', ')})`
            : ''),
      );
      return tally;
    },
    async close() {
      for (const child of children) child.kill('SIGKILL');
      await Promise.all([...children].map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))));
      await db.end();
      smtp.blackhole(false);
      await Promise.all([feed.close(), push.close(), smtp.close(), gateway.close(), browsers.close(), receiver.close(), hole.close()]);
      await database.drop();
    },
  };
}

export type FaultScene = Awaited<ReturnType<typeof faultScene>>;

interface Queryable {
  query(sql: string, values?: unknown[]): Promise<pg.QueryResult>;
}

const WEBHOOK_SECRET = 'whsec_ZmF1bHQtc3VpdGUtc2lnbmluZy1zZWNyZXQtMDEyMw==';

/** Subscribers of every channel, active (as confirmed ones are), each told of the power outages. */
async function seed(db: Queryable, push: number, sms: number, email: number): Promise<void> {
  await db.query(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
     SELECT 'push-' || g, 'push ' || g, 'utility.power-outages', '{}'::jsonb, 'Push', 'alerts-fault-' || g, 'Anonymous'::text, true FROM generate_series(1, $1::int) g
     UNION ALL
     SELECT 'sms-' || g, 'sms ' || g, 'utility.power-outages', '{}'::jsonb, 'Sms', '+9477' || lpad(g::text, 7, '0'), 'Anonymous'::text, true FROM generate_series(1, $2::int) g
     UNION ALL
     SELECT 'email-' || g, 'email ' || g, 'utility.power-outages', '{}'::jsonb, 'Email', 'reader' || g || '@example.org', 'Anonymous'::text, true FROM generate_series(1, $3::int) g`,
    [push, sms, email],
  );
}

/** Web Push subscribers: each a browser of the push service double (its keys stored), its endpoint as `endpointOf` says. */
async function seedWebPush(db: Queryable, count: number, browsers: PushServiceDouble, endpointOf: (name: string, endpoint: string) => string): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const name = `wp${i}`;
    const browser = browsers.subscribe(name);
    const inserted = await db.query(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       VALUES ($1, $1, 'utility.power-outages', '{}'::jsonb, 'WebPush', $2, 'Anonymous', true) RETURNING id`,
      [name, endpointOf(name, browser.endpoint)],
    );
    await db.query('INSERT INTO delivery_webpush_keys (subscription_id, p256dh, auth) VALUES ($1, $2, $3)', [
      inserted.rows[0].id,
      browser.keys.p256dh,
      browser.keys.auth,
    ]);
  }
}

/** Webhook subscribers at `base`/h1…, each with its signing secret. */
async function seedWebhooks(db: Queryable, count: number, base: string): Promise<void> {
  if (count === 0) return;
  await db.query(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
     SELECT 'wh-' || g, 'wh ' || g, 'utility.power-outages', '{}'::jsonb, 'Webhook', $1 || '/h' || g, 'Anonymous'::text, true FROM generate_series(1, $2::int) g`,
    [base, count],
  );
  await db.query(
    `INSERT INTO delivery_webhook_secrets (subscription_id, secret, encrypted) SELECT id, $1, false FROM notification_subscriptions WHERE provider = 'Webhook'`,
    [WEBHOOK_SECRET],
  );
}

/** A connection the fault cut (terminated, reset, refused, the server starting up): worth trying again. */
function isConnectionError(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (
    ['57P01', '57P02', '57P03', '53300', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE'].includes(code ?? '') ||
    /terminat|Connection terminated|not queryable/i.test(message ?? '')
  );
}

/** A tally with nothing lost or failed, and every duplicate one that was on its way at a fault. */
export function expectSound(tally: Tally): void {
  expect(tally.lost).toBe(0);
  expect(tally.failed).toBe(0);
  expect(tally.duplicates).toBe(tally.duplicatesInFlight);
}
