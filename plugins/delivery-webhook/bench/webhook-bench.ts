/**
 * `npm run bench:webhook`: 10,000 signed webhook deliveries through the
 * delivery-webhook target (batches of 500, three at once, as the
 * dispatcher hands them over: the JSON body, the Standard Webhooks
 * signature, the POST through the SSRF-guarded agent, judging the answer)
 * to the demo's receiver, then the same 10,000 bodies signed with a plain
 * HMAC-SHA256 and POSTed with raw undici (same connections, as many in
 * flight), in one run. Prints deliveries/s of both and their ratio (goal:
 * target >= 0.8 x raw).
 */
import { createHmac } from 'node:crypto';
import { Pool } from 'undici';
import { startWebhookReceiver } from '../../../demo/webhook-inbox/webhook-receiver.ts';
import { webhookBody, webhookId } from '../webhook-message.ts';
import { BATCH, BATCHES_IN_FLIGHT, benchRequests, benchService, compareRates, inFlight, TOTAL } from '../../../bench/target-bench.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const connections = 8; // Webhook__ConnectionsPerHost default

const receiver = await startWebhookReceiver();
const service = await benchService(['utility-power-outages', 'delivery-webhook'], { Webhook__AllowedHosts: '127.0.0.1' });
const target = service.target('Webhook');
const { knex } = service;
const [{ id }] = await knex('notification_subscriptions')
  .insert({
    public_id: 'bench-webhook',
    display_name: 'bench',
    feed_id: 'utility.power-outages',
    filter_json: '{}',
    provider: 'Webhook',
    destination: receiver.hookUrl('bench'),
    scope: 'Anonymous',
    is_active: true,
    pending_verification: false,
  })
  .returning('id');
await knex('delivery_webhook_secrets').insert({ subscription_id: id, secret: SECRET, encrypted: false });
const requests = benchRequests(
  {
    id: Number(id),
    publicId: 'bench-webhook',
    displayName: 'bench',
    feedId: 'utility.power-outages',
    provider: 'Webhook',
    destination: '',
    scope: 'Anonymous',
  },
  () => receiver.hookUrl('bench'),
);

async function viaTarget(): Promise<number> {
  receiver.received.length = 0;
  const signal = new AbortController().signal;
  return inFlight(async (start) => (await target.deliver!(requests.slice(start, start + BATCH), signal)).filter((o) => o.kind === 'delivered').length);
}

// The floor: the same bodies, signed as the specification says with node:crypto directly, POSTed with raw undici.
const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
const pool = new Pool(receiver.url, { connections });
async function raw(): Promise<number> {
  receiver.received.length = 0;
  return inFlight(async (start) => {
    let ok = 0;
    await Promise.all(
      requests.slice(start, start + BATCH).map(async (request) => {
        const at = new Date();
        const body = webhookBody(request, at);
        const msgId = webhookId(request.ledgerId);
        const timestamp = String(Math.floor(at.getTime() / 1000));
        const signature = `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
        const response = await pool.request({
          method: 'POST',
          path: '/hooks/bench',
          headers: { 'content-type': 'application/json', 'webhook-id': msgId, 'webhook-timestamp': timestamp, 'webhook-signature': signature },
          body,
        });
        await response.body.dump();
        if (response.statusCode === 200) ok++;
      }),
    );
    return ok;
  });
}

const rates = await compareRates(viaTarget, raw);
receiver.trust('bench', SECRET);
const verified = receiver.received.filter((hook) => hook.verified).length;
console.log(
  `bench:webhook — ${TOTAL.toLocaleString('en')} deliveries, batches of ${BATCH} (${BATCHES_IN_FLIGHT} at once), ${connections} connections, node ${process.version} (median of ${rates.rounds} rounds)`,
);
console.log(`through the delivery-webhook target      ${Math.round(rates.target).toLocaleString('en')} deliveries/s`);
console.log(
  `raw undici POSTs, signed with node:crypto ${Math.round(rates.raw).toLocaleString('en')} deliveries/s (last round: ${verified} of ${receiver.received.length} verify with standardwebhooks)`,
);
console.log(`ratio                                     ${(rates.target / rates.raw).toFixed(2)} (goal >= 0.80)`);
await pool.close();
await service.close();
await receiver.close();
