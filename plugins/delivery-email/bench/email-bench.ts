/**
 * `npm run bench:email`: 5,000 emails queued in the outbox (one event
 * fanned out to 5,000 verified Email subscriptions, in one transaction),
 * then drained by the outbox worker through the SMTP double (smtp-server,
 * AUTH, no TLS). In the same run the very same 5,000 messages are sent by
 * nodemailer's pooled transport directly (same connections, all queued at
 * once). Prints emails/s of both and their ratio (goal: outbox >= 0.7 x
 * direct). PostgreSQL when it answers, else embedded PGlite.
 */
import nodemailer from 'nodemailer';
import { EmailComposer, type NotificationParams } from '../email-composer.ts';
import { startSmtpDouble, SMTP_API_KEY, SMTP_USER } from '../../../test/doubles/smtp-double.ts';
import { benchDatabase, benchPluginsDir, buildApp, median, removeDir, servicesOf } from '../../../bench/bench-support.ts';

const TOTAL = Number(process.env.BENCH_EMAILS ?? 5000);
const ROUNDS = 3;
const CONNECTIONS = 5;
const WORKER = 'delivery-email.outbox';
const PUBLIC_BASE_URL = 'https://alerts.example.org';

const smtp = await startSmtpDouble({ keep: false });
const database = await benchDatabase();
const pluginsDir = benchPluginsDir([], ['utility-power-outages', 'utility-scheduled-outages', 'delivery-email']);
const app = await buildApp({
  env: {
    ...(database ? { ConnectionStrings__DefaultConnection: database.url } : { Database__EmbeddedPath: `${pluginsDir}-pglite` }),
    Logging__Level: 'warn',
    PublicBaseUrl: PUBLIC_BASE_URL,
    ...smtp.env,
    EmailProvider__MaxConnections: String(CONNECTIONS),
    EmailOutbox__IntervalSeconds: '3600',
    EmailOutbox__BatchSize: process.env.BENCH_BATCH ?? '50',
  },
  pluginsDir,
});
await app.ready();
const knex = servicesOf(app).database.knex;
process.stdout.write(`database: ${servicesOf(app).database.description}\n`);

await knex.raw(
  `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
   SELECT 'bench-' || g, 'Bench subscriber ' || g, 'utility.power-outages', '{}'::jsonb, 'Email', 'bench-' || g || '@example.org', 'Anonymous', true
     FROM generate_series(1, ?) AS g`,
  [TOTAL],
);

let round = 0;
const event = (key: string) => ({
  feedId: 'utility.power-outages',
  eventType: 'NewOutage',
  sourceKey: key,
  fields: { feeder: 'F12', areas: 'Kandy, Peradeniya' },
  sourcePayload: { id: key, feeder: 'F12', areas: ['Kandy', 'Peradeniya'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line' },
});
const countSent = async () => Number((await knex('email_outbox').where({ state: 'sent' }).count({ n: '*' }))[0].n);

/**
 * Queues TOTAL emails: the dispatcher hands the claimed ledger rows to the
 * outbox (one transaction per batch); the clock starts once the last batch
 * is handed over (its commit wakes the worker) and stops when all are sent.
 */
async function viaOutbox(): Promise<number> {
  const key = `PO-BENCH-${++round}`;
  const sentBefore = await countSent();
  const acceptedBefore = smtp.accepted;
  const result = await servicesOf(app).pipeline.processNotificationEvents([event(key)], { awaitDelivery: true });
  if (result.deliveredCount !== TOTAL) throw new Error(`queued ${result.deliveredCount} of ${TOTAL}`);
  const started = performance.now();
  await servicesOf(app).workers.runNow(WORKER);
  while ((await countSent()) - sentBefore < TOTAL) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  if (smtp.accepted - acceptedBefore !== TOTAL) throw new Error(`relay accepted ${smtp.accepted - acceptedBefore} of ${TOTAL}`);
  return TOTAL / seconds;
}

// The direct path sends what the outbox sent: the same composer, subjects, headers and Message-IDs.
const composer = new EmailComposer({ publicBaseUrl: PUBLIC_BASE_URL, unsubscribeToken: (publicId) => `bench-token-${publicId}`, feeds: servicesOf(app).feeds });
const rendered = servicesOf(app)
  .registry.rendererFor('utility.power-outages', 'NewOutage')
  .render(event('PO-DIRECT'), {
    config: { PowerOutages: { TimeZone: 'UTC' } },
  });
const messages = await Promise.all(
  Array.from({ length: TOTAL }, async (_, i) => {
    const params: NotificationParams = { title: rendered.title, body: rendered.body, name: `Bench subscriber ${i + 1}`, publicId: `bench-${i + 1}` };
    const composed = await composer.compose({ kind: 'notification', template: 'utility.power-outages/NewOutage', params });
    return {
      from: { name: 'Outage alerts', address: 'alerts@example.net' },
      to: { name: '', address: `bench-${i + 1}@example.org` },
      subject: rendered.title,
      text: composed.text,
      html: composed.html,
      messageId: `<direct-${i}@example.net>`,
      headers: { ...composed.headers, 'Auto-Submitted': 'auto-generated' },
    };
  }),
);
const transport = nodemailer.createTransport({
  pool: true,
  host: smtp.host,
  port: smtp.port,
  secure: false,
  maxConnections: CONNECTIONS,
  maxMessages: 1000,
  auth: { user: SMTP_USER, pass: SMTP_API_KEY },
});

async function viaNodemailer(): Promise<number> {
  const acceptedBefore = smtp.accepted;
  const started = performance.now();
  await Promise.all(messages.map((message) => transport.sendMail(message)));
  const seconds = (performance.now() - started) / 1000;
  if (smtp.accepted - acceptedBefore !== TOTAL) throw new Error(`relay accepted ${smtp.accepted - acceptedBefore} of ${TOTAL}`);
  return TOTAL / seconds;
}

try {
  await viaNodemailer(); // warm-up: connections, JIT, template compile on both paths
  await viaOutbox();
  const outboxRates: number[] = [];
  const directRates: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    outboxRates.push(await viaOutbox());
    directRates.push(await viaNodemailer());
  }
  const fmt = (rates: number[]) => rates.map((rate) => Math.round(rate)).join(', ');
  const ratio = median(outboxRates) / median(directRates);
  process.stdout.write(
    `email bench: ${TOTAL} emails, ${CONNECTIONS} pooled SMTP connections, outbox batches of ${process.env.BENCH_BATCH ?? 50}, node ${process.version}\n` +
      `  outbox drain (claim, compose, send, record + ledger): ${Math.round(median(outboxRates))} emails/s (rounds: ${fmt(outboxRates)})\n` +
      `  nodemailer pooled transport, same messages directly: ${Math.round(median(directRates))} emails/s (rounds: ${fmt(directRates)})\n` +
      `  ratio outbox/direct: ${ratio.toFixed(2)} (goal >= 0.70)\n`,
  );
  if (ratio < 0.7) process.exitCode = 1;
} finally {
  transport.close();
  await app.close();
  await smtp.close();
  await database?.drop();
  removeDir(pluginsDir);
  if (!database) removeDir(`${pluginsDir}-pglite`);
}
