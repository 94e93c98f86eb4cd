/**
 * `npm run bench:webpush`: 10,000 encrypted Web Push deliveries through the
 * delivery-webpush target (batches of 500, three at once, as the
 * dispatcher hands them over: the payload, RFC 8291 encryption, the VAPID
 * header, the POST through the guarded agent, judging the answer) to the
 * push-service double, against the web-push library's own way
 * (`generateRequestDetails`, what its `sendNotification` sends: encryption
 * and a VAPID token signed per message) POSTed with undici over the same
 * connections (its `sendNotification` speaks https only, the double http);
 * and against the floor: the library's encryption with one VAPID token per
 * origin, raw undici. Also how many messages one core encrypts a second.
 */
import { Pool } from 'undici';
import webpush from 'web-push';
import { startPushServiceDouble } from '../../../demo/webpush-inbox/push-service.ts';
import { pushPayload, pushTopic, pushUrgency } from '../push-message.ts';
import { BATCH, BATCHES_IN_FLIGHT, benchRequests, benchService, compareRates, inFlight, TOTAL } from '../../../bench/target-bench.ts';

const VAPID = webpush.generateVAPIDKeys();
const SUBJECT = 'mailto:bench@example.org';
const connections = 16; // WebPush__ConnectionsPerHost default

const service = await startPushServiceDouble({ check: false });
const bench = await benchService(['utility-power-outages', 'delivery-webpush'], {
  WebPush__VapidPublicKey: VAPID.publicKey,
  WebPush__VapidPrivateKey: VAPID.privateKey,
  WebPush__Subject: SUBJECT,
  WebPush__AllowedEndpointHosts: '127.0.0.1',
});
const target = bench.target('WebPush');
const browser = service.subscribe('bench');
const [{ id }] = await bench
  .knex('notification_subscriptions')
  .insert({
    public_id: 'bench-webpush',
    display_name: 'bench',
    feed_id: 'utility.power-outages',
    filter_json: '{}',
    provider: 'WebPush',
    destination: browser.endpoint,
    scope: 'Anonymous',
    is_active: true,
    pending_verification: false,
  })
  .returning('id');
await bench.knex('delivery_webpush_keys').insert({ subscription_id: id, p256dh: browser.keys.p256dh, auth: browser.keys.auth });
const requests = benchRequests(
  {
    id: Number(id),
    publicId: 'bench-webpush',
    displayName: 'bench',
    feedId: 'utility.power-outages',
    provider: 'WebPush',
    destination: '',
    scope: 'Anonymous',
  },
  () => browser.endpoint,
);
const payloads = requests.map((r) => pushPayload(r, 'https://alerts.example.org/manage/bench-webpush'));

async function viaTarget(): Promise<number> {
  const signal = new AbortController().signal;
  return inFlight(async (start) => (await target.deliver!(requests.slice(start, start + BATCH), signal)).filter((o) => o.kind === 'delivered').length);
}

const pool = new Pool(service.url, { connections });
async function post(headers: Record<string, string>, body: Buffer): Promise<boolean> {
  const response = await pool.request({ method: 'POST', path: '/push/bench', headers, body });
  await response.body.dump();
  return response.statusCode === 201;
}
const batchOf = (send: (index: number) => Promise<boolean>) =>
  inFlight(async (start) => (await Promise.all(requests.slice(start, start + BATCH).map((_, i) => send(start + i)))).filter(Boolean).length);

// The library's own request: encryption and a VAPID token signed for every message, as sendNotification does.
const library = () =>
  batchOf((i) => {
    const details = webpush.generateRequestDetails(browser, payloads[i]!, {
      vapidDetails: { subject: SUBJECT, ...VAPID },
      TTL: 86_400,
      urgency: pushUrgency(requests[i]!.rendered.priority),
      topic: pushTopic(requests[i]!.rendered.sequenceId),
    });
    return post(Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)])), details.body);
  });

// The floor: the library's encryption, one VAPID token for the origin, raw undici.
const authorization = webpush.getVapidHeaders(service.url, SUBJECT, VAPID.publicKey, VAPID.privateKey, 'aes128gcm').Authorization;
const floor = () =>
  batchOf((i) => {
    const encrypted = webpush.encrypt(browser.keys.p256dh, browser.keys.auth, payloads[i]!, 'aes128gcm');
    return post(
      {
        authorization,
        ttl: '86400',
        urgency: 'high',
        topic: pushTopic(requests[i]!.rendered.sequenceId),
        'content-encoding': 'aes128gcm',
        'content-type': 'application/octet-stream',
      },
      encrypted.cipherText,
    );
  });

// One core's encryption: CPU time of encrypting every payload, nothing sent.
const cpu = process.cpuUsage();
for (const payload of payloads) webpush.encrypt(browser.keys.p256dh, browser.keys.auth, payload, 'aes128gcm');
const encryptMicros = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / TOTAL;

const againstLibrary = await compareRates(viaTarget, library);
const againstFloor = await compareRates(viaTarget, floor);
console.log(
  `bench:webpush — ${TOTAL.toLocaleString('en')} pushes, batches of ${BATCH} (${BATCHES_IN_FLIGHT} at once), ${connections} connections, node ${process.version} (medians of ${againstLibrary.rounds} rounds)`,
);
console.log(
  `through the delivery-webpush target            ${Math.round(againstLibrary.target).toLocaleString('en')} / ${Math.round(againstFloor.target).toLocaleString('en')} pushes/s (two comparisons)`,
);
console.log(
  `web-push's own requests (VAPID signed each)   ${Math.round(againstLibrary.raw).toLocaleString('en')} pushes/s   ratio ${(againstLibrary.target / againstLibrary.raw).toFixed(2)} (goal >= 0.80)`,
);
console.log(
  `floor: its encryption, one VAPID token, raw   ${Math.round(againstFloor.raw).toLocaleString('en')} pushes/s   ratio ${(againstFloor.target / againstFloor.raw).toFixed(2)}`,
);
console.log(
  `encryption alone (RFC 8291, one core)         ${encryptMicros.toFixed(0)} µs of CPU each: ${Math.round(1e6 / encryptMicros).toLocaleString('en')} messages/s per core`,
);
await pool.close();
await bench.close();
await service.close();
