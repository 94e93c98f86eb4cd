import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { parseWithIcalJs } from '../helpers/ics-parsers.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';
import { rowCounts } from '../helpers/table-state.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const SECRET = 'edges-jwt-secret-0123456789abcdef';
const CREATE = '/api/notification-subscriptions';
const push = (extra: Record<string, unknown> = {}) => ({ displayName: 'Home', feedId: 'utility.scheduled-outages', delivery: { provider: 'Push' }, ...extra });
/** A JWT whose payload is given as JSON text: a lone surrogate escape (`\ud800`) survives only so. */
const jwtWithPayload = (payloadJson: string) => {
  const encode = (text: string) => Buffer.from(text).toString('base64url');
  const unsigned = `${encode('{"alg":"HS256","typ":"JWT"}')}.${encode(payloadJson)}`;
  return `${unsigned}.${createHmac('sha256', SECRET).update(unsigned).digest('base64url')}`;
};

/** One raw HTTP exchange over a socket: what a client that writes its own bytes gets back. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (/\r\n\r\n/.test(answer) && /content-length: (\d+)/i.test(answer)) {
        const length = Number(/content-length: (\d+)/i.exec(answer)![1]);
        if (Buffer.byteLength(answer.split('\r\n\r\n').slice(1).join('\r\n\r\n')) >= length) socket.end();
      }
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
  });
}
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
type Created = { publicId: string; manageToken: string };

/**
 * The edges of the HTTP API over a real socket,
 * on both databases: every refusal is a 4xx in the usual shape naming what
 * was wrong, and nothing stored changes.
 */
describe.each(await databaseKinds())('request edges over a real socket, on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let app: FastifyInstance;
  let base = '';
  let port = 0;
  const counts = () => rowCounts(servicesOf(app).database.knex);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const expectRefusal = async (response: Response, status: number, message: string | RegExp) => {
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(status);
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
    expect(body.statusCode).toBe(status);
    expect(body.message).toMatch(message);
  };

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push', 'delivery-email']),
      workers: false,
      env: {
        Jwt__Secret: SECRET,
        NODE_ENV: 'production',
        SubscriptionLimits__MaxPerIp: '100',
        SubscriptionLimits__MaxPerIpPerDay: '100',
        Logging__Level: 'info',
      },
    });
    app = started.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it.each([
    ['a NUL', '{"sub":"mallory\\u0000","iat":1}', /sub claim holds control characters or malformed Unicode/],
    ['a lone surrogate', '{"sub":"mallory\\ud800","iat":1}', /sub claim holds control characters or malformed Unicode/],
    ['a line break', '{"sub":"mallory\\r\\nadmin","iat":1}', /sub claim holds control characters or malformed Unicode/],
    ['201 characters', `{"sub":"${'m'.repeat(201)}","iat":1}`, /sub claim is longer than 200 characters/],
  ])('a bearer token whose sub holds %s is a 401, and nothing is stored', async (_name, payload, message) => {
    const before = await counts();
    await expectRefusal(await post(CREATE, push(), { authorization: `Bearer ${jwtWithPayload(payload)}` }), 401, message);
    expect(await counts()).toEqual(before);
  });

  it('a well-formed sub creates, and its owner reads their own subscription back', async () => {
    const token = jwtWithPayload('{"sub":"user-ශ්‍රී-😀","iat":1}');
    const created = await post(CREATE, push(), { authorization: `Bearer ${token}` });
    expect(created.status).toBe(201);
    const { publicId } = (await created.json()) as { publicId: string };
    expect((await fetch(`${base}${CREATE}/${publicId}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it.each([
    [
      '__proto__',
      '{"displayName":"x","feedId":"utility.scheduled-outages","delivery":{"provider":"Push"},"__proto__":{"isAdmin":true}}',
      'body/__proto__: this property name is not allowed',
    ],
    [
      'constructor.prototype',
      '{"displayName":"x","feedId":"utility.scheduled-outages","delivery":{"provider":"Push"},"filter":{"constructor":{"prototype":{}}}}',
      'body/filter/constructor/prototype: this property name is not allowed',
    ],
    ['malformed JSON', '{"displayName":', /^body is not valid JSON: /],
  ])('a body with %s is a 400 naming it', async (_name, text, message) => {
    const before = await counts();
    await expectRefusal(await post(CREATE, text), 400, message);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['only zero-width spaces', '\u200b\u200b\u200b', 'body/displayName must not be blank'],
    ['a byte-order mark and a joiner', '\ufeff \u200d', 'body/displayName must not be blank'],
    ['a line break', 'Home\r\nX-WR-CALNAME:Forged', 'body/displayName must be one line, without control characters'],
    ['a tab', 'Home\tsweet', 'body/displayName must be one line, without control characters'],
  ])('a display name of %s is a 400', async (_name, displayName, message) => {
    const before = await counts();
    await expectRefusal(await post(CREATE, push({ displayName })), 400, message);
    expect(await counts()).toEqual(before);
  });

  it('answers 414, 415 and a missing or doubled Host in the usual shape, naming what was wrong', async () => {
    await expectRefusal(await fetch(`${base}${CREATE}/${'a'.repeat(200)}`), 414, 'params: a path segment is longer than 100 characters');
    await expectRefusal(
      await fetch(`${base}${CREATE}`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' }),
      415,
      /headers\/content-type: "application\/xml" is not accepted; send one of application\/json/,
    );
    const noHost = await rawRequest(port, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(noHost)).toEqual({
      statusCode: 400,
      code: 'NP_INVALID_FIELD',
      error: 'Bad Request',
      message: 'headers/host is required in an HTTP/1.1 request',
    });
    const twoHosts = await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example.net\r\nConnection: close\r\n\r\n');
    expect(twoHosts).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(twoHosts)).toMatchObject({ statusCode: 400, message: 'headers/host must be given once' });
    // HTTP/1.0 has no Host to require.
    expect(await rawRequest(port, 'GET /health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('admin: a page size past 500 is a 400, and a requeue naming a feed that does not exist is a 400, not a 200', async () => {
    const admin = { authorization: `Bearer ${jwtFor(SECRET, { sub: 'ops', role: 'admin' })}` };
    for (const limit of ['501', '999', '0', '1000']) {
      await expectRefusal(
        await fetch(`${base}/api/admin/deliveries?limit=${limit}`, { headers: admin }),
        400,
        'querystring/limit must be a whole number from 1 to 500',
      );
    }
    expect((await fetch(`${base}/api/admin/deliveries?limit=500`, { headers: admin })).status).toBe(200);
    await expectRefusal(await post('/api/admin/deliveries/requeue', { feed: 'no.such-feed' }, admin), 400, /^body\/feed: unknown feed "no\.such-feed"/);
    expect((await post('/api/admin/deliveries/requeue', { feed: 'utility.power-outages' }, admin)).status).toBe(200);
  });

  it('counts one mailbox once against the daily verification limit, however it is written', async () => {
    const before = await counts();
    for (const address of ['victim+1@example.org', 'victim+2@example.org', 'Victim@example.org']) {
      expect((await post(CREATE, push({ displayName: 'Alerts', delivery: { provider: 'Email', destination: address } }))).status).toBe(201);
    }
    await expectRefusal(
      await post(CREATE, push({ displayName: 'Alerts', delivery: { provider: 'Email', destination: 'victim@example.org' } })),
      429,
      /MaxVerificationsPerAddressPerDay/,
    );
    expect((await counts()).notification_subscriptions).toBe(before.notification_subscriptions + 3);
  });

  it('a manage token in the query is redacted from the log however its name is percent-encoded, and still works', async () => {
    const created = (await (await post(CREATE, push({ displayName: 'Calendar' }))).json()) as Created;
    const logsBefore = started.logs.length;
    for (const key of ['tok%65n', '%74%6F%6B%65%6E', 'TOKEN']) {
      const response = await fetch(`${base}${CREATE}/${created.publicId}/calendar.ics?${key}=${created.manageToken}`);
      expect(response.status).toBe(key === 'TOKEN' ? 401 : 200);
    }
    const lines = started.logs.slice(logsBefore).join('');
    expect(lines).toContain('calendar.ics?tok%65n=[REDACTED]');
    expect(lines).not.toContain(created.manageToken);
  });

  it('a display name stored before names were checked cannot add a line to a calendar: NAME and X-WR-CALNAME stay one property each', async () => {
    const created = (await (await post(CREATE, push({ displayName: 'Calendar' }))).json()) as Created;
    await servicesOf(app)
      .database.knex('notification_subscriptions')
      .where({ public_id: created.publicId })
      .update({ display_name: 'Home\r\nX-EVIL:1\r\nBEGIN:VEVENT\r\nSUMMARY:Forged' });
    const text = await (await fetch(`${base}${CREATE}/${created.publicId}/calendar.ics?token=${created.manageToken}`)).text();
    expect(text.match(/^NAME:/gm)).toHaveLength(1);
    expect(text.match(/^X-WR-CALNAME:/gm)).toHaveLength(1);
    expect(text).not.toMatch(/^X-EVIL/m);
    expect(text).not.toMatch(/^BEGIN:VEVENT/m);
    expect(parseWithIcalJs(text).name).toBe('Scheduled outages: Home X-EVIL:1 BEGIN:VEVENT SUMMARY:Forged');
  });
});
