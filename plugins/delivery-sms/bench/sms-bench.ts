/**
 * `npm run bench:sms`: 10,000 texts through the delivery-sms target
 * (batches of 500, three at once, as core's dispatcher hands them over by
 * default: fitting the text, the POST, judging the answer, recording each
 * batch's sids) against the demo's Twilio-compatible gateway, then the same
 * 10,000 forms as raw undici POSTs (same connections, same Basic auth, as
 * many in flight), in one run. The target runs inside the real service on
 * PostgreSQL (its sids are recorded there). Prints texts/s of both and
 * their ratio (goal: target >= 0.8 x raw).
 */
import { Pool } from 'undici';
import { messageForm, messagesPath } from '../gateway-client.ts';
import { notificationText } from '../sms-text.ts';
import { startTwilioGateway } from '../../../demo/sms-gateway/twilio-gateway.ts';
import { BATCH, BATCHES_IN_FLIGHT, benchRequests, benchService, compareRates, inFlight, TOTAL } from '../../../bench/target-bench.ts';

const PUBLIC_BASE_URL = 'https://alerts.example.org';
const connections = 8; // Sms__Connections default

const gateway = await startTwilioGateway({
  accountSid: 'ACbench',
  authToken: 'bench-token-0123456789',
  number: '+15005550006',
  publicBaseUrl: PUBLIC_BASE_URL,
});
const service = await benchService(['utility-power-outages', 'delivery-sms'], { PublicBaseUrl: PUBLIC_BASE_URL, ...gateway.env });
const target = service.target('Sms');
const { knex } = service;

// One subscription to hold the sids (the messages table references it).
const [{ id }] = await knex('notification_subscriptions')
  .insert({
    public_id: 'bench-sms',
    display_name: 'bench',
    feed_id: 'utility.power-outages',
    filter_json: '{}',
    provider: 'Sms',
    destination: '+94771234567',
    scope: 'System',
    is_active: true,
    pending_verification: false,
  })
  .returning('id');
const requests = benchRequests(
  { id: Number(id), publicId: 'bench-sms', displayName: 'bench', feedId: 'utility.power-outages', provider: 'Sms', destination: '', scope: 'System' },
  (i) => `+9477${String(1_000_000 + i).slice(-7)}`,
);
// The raw run posts the very forms the target posts.
const forms = requests.map((r) =>
  messageForm(
    { from: gateway.env.Sms__From },
    {
      to: r.subscription.destination,
      body: notificationText(r.rendered.title, r.rendered.body, `${PUBLIC_BASE_URL}/manage/bench-sms`, 2),
      statusCallback: `${PUBLIC_BASE_URL}/api/sms/status`,
    },
  ),
);

async function viaTarget(): Promise<number> {
  await knex('delivery_sms_messages').delete();
  const signal = new AbortController().signal;
  return inFlight(async (start) => (await target.deliver!(requests.slice(start, start + BATCH), signal)).filter((o) => o.kind === 'delivered').length);
}

const pool = new Pool(gateway.url, { connections });
const path = messagesPath(gateway.url, 'ACbench');
const headers = {
  'content-type': 'application/x-www-form-urlencoded',
  authorization: `Basic ${Buffer.from('ACbench:bench-token-0123456789').toString('base64')}`,
};
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

const rates = await compareRates(viaTarget, raw);
const recorded = Number((await knex('delivery_sms_messages').count({ n: '*' }).first())!.n);
console.log(
  `bench:sms — ${TOTAL.toLocaleString('en')} texts, batches of ${BATCH} (${BATCHES_IN_FLIGHT} at once), ${connections} connections, ${service.database.kind}, node ${process.version} (median of ${rates.rounds} rounds)`,
);
console.log(`through the delivery-sms target   ${Math.round(rates.target).toLocaleString('en')} texts/s (sids recorded: ${recorded})`);
console.log(`raw undici POSTs of the same forms ${Math.round(rates.raw).toLocaleString('en')} texts/s`);
console.log(`ratio                              ${(rates.target / rates.raw).toFixed(2)} (goal >= 0.80)`);
await pool.close();
await service.close();
await gateway.close();
