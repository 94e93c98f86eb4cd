/**
 * `npm run bench:sms`: 10,000 texts through the delivery-sms target
 * (batches of 500, three at once, as core's dispatcher hands them over
 * by default: fitting the text, the POST, judging the answer, recording
 * each batch's sids) against the
 * Twilio-compatible gateway of the demo, then the same 10,000 forms as raw
 * undici POSTs (same connections, same Basic auth, as many in flight), in one run. The target
 * runs inside the real service on PostgreSQL (its sids are recorded there).
 * Prints texts/s of both and their ratio (goal: target >= 0.8 x raw).
 */
import { Pool } from 'undici';
import type { DeliveryRequest, DeliveryTarget } from '../core/plugin-api/index.ts';
import { messageForm, messagesPath } from '../plugins/delivery-sms/gateway-client.ts';
import { notificationText } from '../plugins/delivery-sms/sms-text.ts';
import { startTwilioGateway } from '../demo/sms-gateway/twilio-gateway.ts';
import { preferredKind, provisionDatabase } from '../test/helpers/databases.ts';
import { servicesOf, startTestApp } from '../test/helpers/test-app.ts';
import { benchPluginsDir, median, removeDir } from './bench-support.ts';

const TOTAL = Number(process.env.N ?? 10_000);
const BATCH = 500;
/** NotificationPipeline__DispatchBatchesInFlight's default. */
const BATCHES_IN_FLIGHT = 3;

/** Runs the batches with at most `BATCHES_IN_FLIGHT` at once, as the dispatcher does. */
async function inFlight(work: (start: number) => Promise<number>): Promise<number> {
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < TOTAL) {
      const start = next;
      next += BATCH;
      const count = await work(start);
      done += count;
    }
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, lane));
  return done;
}
const ROUNDS = 5;
const PUBLIC_BASE_URL = 'https://alerts.example.org';

const gateway = await startTwilioGateway({ accountSid: 'ACbench', authToken: 'bench-token-0123456789', number: '+15005550006', publicBaseUrl: PUBLIC_BASE_URL });
const database = await provisionDatabase(await preferredKind());
const pluginsDir = benchPluginsDir([], ['utility-power-outages', 'delivery-sms']);
const harness = await startTestApp({
  database,
  pluginsDir,
  workers: false,
  env: { PublicBaseUrl: PUBLIC_BASE_URL, Logging__Level: 'warn', ...gateway.env },
});
const services = servicesOf(harness.app);
const target: DeliveryTarget = services.targets.get('Sms')!;
const connections = 8; // Sms__Connections default

// One subscription to hold the sids (the messages table references it).
const knex = services.database.knex;
const [{ id: subscriptionId }] = await knex('notification_subscriptions')
  .insert({ public_id: 'bench-sms', display_name: 'bench', feed_id: 'utility.power-outages', filter_json: '{}', provider: 'Sms', destination: '+94771234567', scope: 'System', is_active: true, pending_verification: false })
  .returning('id');

const requests: DeliveryRequest[] = Array.from({ length: TOTAL }, (_, i) => ({
  ledgerId: i + 1,
  attempt: 1,
  subscription: { id: Number(subscriptionId), publicId: 'bench-sms', displayName: 'bench', feedId: 'utility.power-outages', provider: 'Sms', destination: `+9477${String(1_000_000 + i).slice(-7)}`, scope: 'System' },
  event: { feedId: 'utility.power-outages', eventType: 'NewOutage', sourceKey: `PO-${i}`, itemKey: `PO-${i}`, fields: {}, sourcePayload: {} },
  rendered: {
    title: `Power outage: Kandy ${i}`,
    body: `Feeder: F${i % 40}\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 UTC\nCause: Fallen line`,
    sequenceId: `po-PO-${i}`,
    tags: ['warning'],
    priority: 'High',
  },
}));
// The raw run posts the very forms the target posts.
const settings = { from: gateway.env.Sms__From };
const forms = requests.map((r) =>
  messageForm(settings, { to: r.subscription.destination, body: notificationText(r.rendered.title, r.rendered.body, `${PUBLIC_BASE_URL}/manage/bench-sms`, 2), statusCallback: `${PUBLIC_BASE_URL}/api/sms/status` }),
);

async function viaTarget(): Promise<number> {
  await knex('delivery_sms_messages').delete();
  const signal = new AbortController().signal;
  return inFlight(async (start) => (await target.deliver!(requests.slice(start, start + BATCH), signal)).filter((o) => o.kind === 'delivered').length);
}

const pool = new Pool(gateway.url, { connections });
const path = messagesPath(gateway.url, 'ACbench');
const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('ACbench:bench-token-0123456789').toString('base64')}` };
async function raw(): Promise<number> {
  return inFlight(async (start) => {
    let ok = 0;
    await Promise.all(
      forms.slice(start, start + BATCH).map(async (body) => {
        const response = await pool.request({ method: 'POST', path, headers, body });
        await response.body.text();
        if (response.statusCode === 201) ok++;
      }),
    );
    return ok;
  });
}

const timed = async (run: () => Promise<number>) => {
  const started = performance.now();
  const count = await run();
  if (count !== TOTAL) throw new Error(`only ${count} of ${TOTAL} texts went through`);
  return (performance.now() - started) / 1000;
};

await timed(viaTarget);
await timed(raw);
const targetTimes: number[] = [];
const rawTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  targetTimes.push(await timed(viaTarget));
  rawTimes.push(await timed(raw));
}
const targetRate = TOTAL / median(targetTimes);
const rawRate = TOTAL / median(rawTimes);
const recorded = Number((await knex('delivery_sms_messages').count({ n: '*' }).first())!.n);
console.log(`bench:sms — ${TOTAL.toLocaleString('en')} texts, batches of ${BATCH} (${BATCHES_IN_FLIGHT} at once), ${connections} connections, ${database.kind}, node ${process.version} (median of ${ROUNDS} rounds)`);
console.log(`through the delivery-sms target   ${Math.round(targetRate).toLocaleString('en')} texts/s (sids recorded: ${recorded})`);
console.log(`raw undici POSTs of the same forms ${Math.round(rawRate).toLocaleString('en')} texts/s`);
console.log(`ratio                              ${(targetRate / rawRate).toFixed(2)} (goal >= 0.80)`);
await pool.close();
await harness.close();
await gateway.close();
await database.drop();
removeDir(pluginsDir);
