import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, errors, request } from 'undici';
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble, type PushServerDoubleOptions } from './push-server-double.ts';

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
const AUTH = { authorization: `Bearer ${DEFAULT_PUBLISHER_TOKEN}` };
let double: PushServerDouble;

beforeAll(async () => {
  double = await startPushServerDouble();
});
afterEach(() => double.reset());
afterAll(async () => {
  await double.close();
  await agent.close();
});

interface Reply {
  status: number;
  contentType: string;
  text: string;
  json: Record<string, unknown>;
}

async function call(
  method: string,
  path: string,
  opts: { body?: string; headers?: Record<string, string>; on?: PushServerDouble; signal?: AbortSignal } = {},
): Promise<Reply> {
  const res = await request((opts.on ?? double).baseUrl + path, {
    method: method as 'POST',
    body: opts.body,
    headers: opts.headers,
    dispatcher: agent,
    signal: opts.signal,
  });
  const text = await res.body.text();
  const first = text.split('\n')[0];
  return { status: res.statusCode, contentType: String(res.headers['content-type']), text, json: first === '' ? {} : JSON.parse(first) };
}

function publish(body: unknown, headers: Record<string, string> = AUTH, on?: PushServerDouble): Promise<Reply> {
  return call('POST', '/', { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, on });
}

async function withDouble(options: PushServerDoubleOptions, fn: (d: PushServerDouble) => Promise<void>): Promise<void> {
  const d = await startPushServerDouble(options);
  try {
    await fn(d);
  } finally {
    await d.close();
  }
}

function expectError(r: Reply, http: number, code: number, error?: string): void {
  expect(r.status).toBe(http);
  expect(r.contentType).toBe('application/json');
  expect(r.json.code).toBe(code);
  expect(r.json.http).toBe(http);
  expect(typeof r.json.error).toBe('string');
  if (error !== undefined) expect(r.json.error).toBe(error);
}

describe('JSON publish', () => {
  it('answers 200 with the ntfy message object', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await publish({
      topic: 'alerts',
      message: 'Water off',
      title: 'Outage',
      tags: ['warning', 'water'],
      priority: 4,
      click: 'https://example.com/o/1',
      sequence_id: 'outage-1',
    });
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json');
    expect(r.json).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      sequence_id: 'outage-1',
      time: expect.any(Number),
      expires: (r.json.time as number) + 43_200,
      event: 'message',
      topic: 'alerts',
      title: 'Outage',
      message: 'Water off',
      priority: 4,
      tags: ['warning', 'water'],
      click: 'https://example.com/o/1',
    });
    expect(r.json.time).toBeGreaterThanOrEqual(before);
  });

  it('leaves out what was not sent, and sends "triggered" for an empty message', async () => {
    const r = await publish({ topic: 'alerts', priority: 0 });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['event', 'expires', 'id', 'message', 'time', 'topic']);
    expect(r.json.message).toBe('triggered');
  });

  it('is strict about types: 400 40024', async () => {
    for (const body of [
      { topic: 'alerts', priority: '4' },
      { topic: 'alerts', cache: false },
      { topic: 'alerts', tags: 'a,b' },
      { topic: 'alerts', markdown: 'yes' },
      [1],
      '{"topic":',
    ]) {
      expectError(await publish(body), 400, 40024, 'invalid request: request body must be valid JSON');
    }
    expect(double.allMessages()).toHaveLength(0);
  });

  it('rejects a priority outside 1..5 with 40007', async () => {
    expectError(await publish({ topic: 'alerts', priority: 6 }), 400, 40007);
    expectError(await publish({ topic: 'alerts', priority: -1 }), 400, 40007);
  });

  it('rejects reserved (40010) and malformed (40009) topics', async () => {
    expectError(await publish({ topic: 'docs' }), 400, 40010, 'invalid request: topic name is not allowed');
    expectError(await publish({ topic: 'v1' }), 400, 40010);
    for (const topic of ['bad topic', 'a/b', 'x'.repeat(65), '']) expectError(await publish({ topic }), 400, 40009, 'invalid request: topic invalid');
    expectError(await publish({ message: 'no topic' }), 400, 40009);
  });

  it('rejects a bad sequence id with 40049', async () => {
    for (const sid of ['has space', 'a.b', 's'.repeat(65)]) {
      expectError(await publish({ topic: 'alerts', sequence_id: sid }), 400, 40049, 'invalid request: sequence ID invalid');
    }
  });

  it('answers 413 41303 past 8192 bytes and flags texts over 4096 bytes', async () => {
    const frame = JSON.stringify({ topic: 'alerts', message: '' }).length;
    const exact = JSON.stringify({ topic: 'alerts', message: 'x'.repeat(8192 - frame) });
    expect(Buffer.byteLength(exact)).toBe(8192);
    expect((await publish(exact)).status).toBe(200);
    expect(double.oversizeMessages).toBe(1);
    expect(double.messages('alerts')[0].oversize).toBe(true);
    expectError(await publish(JSON.stringify({ topic: 'alerts', message: 'x'.repeat(8193 - frame) })), 413, 41303);
    expect((await publish({ topic: 'alerts', message: 'é'.repeat(2048) })).status).toBe(200);
    expect(double.messages('alerts')[1].oversize).toBe(false);
  });
});

describe('header publish, clear and delete', () => {
  it('takes the message from the body and metadata from headers or the path', async () => {
    const r = await call('POST', '/alerts', {
      body: 'Gas restored',
      headers: { ...AUTH, 'x-title': 'Gas', 'x-priority': 'high', 'x-tags': 'fire,,gas ', 'x-sequence-id': 'gas-7' },
    });
    expect(r.json).toMatchObject({ topic: 'alerts', message: 'Gas restored', title: 'Gas', priority: 4, tags: ['fire', 'gas'], sequence_id: 'gas-7' });
    expect((await call('POST', '/alerts/gas-8', { body: 'x', headers: AUTH })).json.sequence_id).toBe('gas-8');
    expectError(await call('POST', '/alerts/bad.sid', { body: 'x', headers: AUTH }), 400, 40049);
    expectError(await call('POST', '/static', { body: 'x', headers: AUTH }), 400, 40010);
    expectError(await call('POST', '/bad.topic', { body: 'x', headers: AUTH }), 404, 40401);
  });

  it('answers 200 to clear and delete, even for unknown sequence ids', async () => {
    const clear = await call('PUT', '/alerts/never-sent/clear', { headers: AUTH });
    expect(clear.status).toBe(200);
    expect(clear.json).toMatchObject({ event: 'message_clear', topic: 'alerts', sequence_id: 'never-sent' });
    const del = await call('DELETE', '/alerts/never-sent', { headers: AUTH });
    expect(del.json).toMatchObject({ event: 'message_delete', sequence_id: 'never-sent' });
    expectError(await call('DELETE', '/alerts/never-sent'), 403, 40301);
    expect(double.messages('alerts')).toHaveLength(0);
    expect(double.events('alerts').map((e) => e.event)).toEqual(['message_clear', 'message_delete']);
  });
});

describe('auth and ACL', () => {
  it('answers 401 to wrong or malformed credentials, 403 to none', async () => {
    expectError(await publish({ topic: 'alerts' }, { authorization: 'Bearer tk_wrongwrongwrongwrongwrongwrong' }), 401, 40101, 'unauthorized');
    expectError(await publish({ topic: 'alerts' }, { authorization: `bearer ${DEFAULT_PUBLISHER_TOKEN}` }), 401, 40101);
    expectError(await publish({ topic: 'alerts' }, { authorization: 'Token abc' }), 401, 40101);
    const none = await publish({ topic: 'alerts' }, {});
    expectError(none, 403, 40301, 'forbidden');
    expect(none.json.link).toBe('https://ntfy.sh/docs/publish/#authentication');
  });

  it('answers 401 to a wrong token even on an open topic', async () => {
    await withDouble({ defaultAccess: 'read-write', acl: [] }, async (d) => {
      expect((await publish({ topic: 'open' }, {}, d)).status).toBe(200);
      expectError(await publish({ topic: 'open' }, { authorization: 'Bearer tk_nope' }, d), 401, 40101);
    });
  });

  it('lets the most specific ACL entry decide', async () => {
    const tokens = { tk_alice: 'alice', tk_bob: 'bob' };
    const acl = [
      { user: '*', topic: 'alerts-*', permission: 'read-write' },
      { user: 'alice', topic: 'alerts-*', permission: 'read-only' },
      { user: 'alice', topic: 'alerts-alice', permission: 'write-only' },
      { user: 'bob', topic: 'alerts-b*', permission: 'deny-all' },
      { user: 'bob', topic: 'alerts-bo*', permission: 'read-write' },
    ] as const;
    await withDouble({ tokens, acl }, async (d) => {
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      expectError(await publish({ topic: 'alerts-x' }, as('tk_alice'), d), 403, 40301);
      expect((await publish({ topic: 'alerts-alice' }, as('tk_alice'), d)).status).toBe(200);
      expect((await publish({ topic: 'alerts-x' }, as('tk_bob'), d)).status).toBe(200);
      expectError(await publish({ topic: 'alerts-bx' }, as('tk_bob'), d), 403, 40301);
      expect((await publish({ topic: 'alerts-bob' }, as('tk_bob'), d)).status).toBe(200);
      expectError(await publish({ topic: 'other' }, as('tk_bob'), d), 403, 40301);
      expectError(await call('GET', '/alerts-alice/json?poll=1', { headers: as('tk_alice'), on: d }), 403, 40301);
    });
  });
});

describe('reading back', () => {
  it('polls the stored messages of a topic in publish order, with sequence ids', async () => {
    const sent: Reply[] = [];
    for (const sid of ['s-1', 's-2', 's-3']) sent.push(await publish({ topic: 'alerts', message: `m ${sid}`, sequence_id: sid }));
    await publish({ topic: 'other', message: 'elsewhere' });
    const poll = await call('GET', '/alerts/json?poll=1');
    expect(poll.status).toBe(200);
    expect(poll.contentType).toBe('application/x-ndjson; charset=utf-8');
    const lines = poll.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(sent.map((s) => s.json));
    expect(lines.map((l) => l.sequence_id)).toEqual(['s-1', 's-2', 's-3']);
    expect(double.messages('alerts').map((m) => m.sequence_id)).toEqual(['s-1', 's-2', 's-3']);
    expect(double.allMessages().map((m) => m.topic)).toEqual(['alerts', 'alerts', 'alerts', 'other']);
    expect((await call('GET', `/alerts/json?poll=1&since=${sent[1].json.id}`)).text.trimEnd().split('\n')).toHaveLength(1);
    expect(double.requestCount).toBe(6);
  });

  it('needs read access to poll', async () => {
    await withDouble({ acl: [{ user: 'publisher', topic: '*', permission: 'write-only' }] }, async (d) => {
      expect((await publish({ topic: 'alerts' }, AUTH, d)).status).toBe(200);
      expectError(await call('GET', '/alerts/json?poll=1', { on: d }), 403, 40301);
      expectError(await call('GET', '/alerts/json?poll=1', { headers: AUTH, on: d }), 403, 40301);
    });
  });
});

describe('faults', () => {
  it('fails the next publishes with 503, then succeeds; failures are not stored', async () => {
    double.failNext(2, { status: 503 });
    expect((await publish({ topic: 'alerts', sequence_id: 'a' })).status).toBe(503);
    expect((await publish({ topic: 'alerts', sequence_id: 'a' })).json).toEqual({ http: 503, error: 'service unavailable' });
    expect((await publish({ topic: 'alerts', sequence_id: 'a' })).status).toBe(200);
    expect(double.messages('alerts')).toHaveLength(1);
    expect(double.publishRequestCount).toBe(3);
  });

  it('answers 429 with 42901 by default and 42908 for the quota', async () => {
    double.failNext(1, { status: 429 });
    double.failNext(1, { status: 429, code: 42908 });
    expectError(await publish({ topic: 'alerts' }), 429, 42901, 'limit reached: too many requests, please be nice');
    expectError(await publish({ topic: 'alerts' }), 429, 42908, 'limit reached: daily message quota reached');
    double.failNext(1, { status: 500 });
    expect((await call('GET', '/alerts/json?poll=1')).status).toBe(200); // faults hit publishes only
    expectError(await publish({ topic: 'alerts' }), 500, 50001, 'internal server error');
    expect(double.messages('alerts')).toHaveLength(0);
  });

  it('drops the connection without answering', async () => {
    double.dropNext(1);
    await expect(publish({ topic: 'alerts' })).rejects.toBeInstanceOf(errors.SocketError);
    expect((await publish({ topic: 'alerts' })).status).toBe(200);
    expect(double.messages('alerts')).toHaveLength(1);
  });

  it('answers late: a client timeout fires, the publish is stored when answered', async () => {
    double.delayNext(1, 300);
    const body = JSON.stringify({ topic: 'alerts', sequence_id: 'slow-1' });
    const started = performance.now();
    // AbortSignal.timeout is exact; undici's own headersTimeout runs on ~1 s "fast timers".
    await expect(call('POST', '/', { body, headers: AUTH, signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(250);
    expect(double.messages('alerts')).toHaveLength(0);
    expect((await call('POST', '/', { body, headers: AUTH })).status).toBe(200); // the retry
    await vi.waitFor(() => expect(double.messages('alerts')).toHaveLength(2), { timeout: 1000, interval: 20 });
    expect(double.messages('alerts').map((m) => m.sequence_id)).toEqual(['slow-1', 'slow-1']);
  });
});

describe('limits and lifecycle', () => {
  it('applies a visitor rate limit only when asked', async () => {
    await withDouble({ visitorRateLimit: { burst: 3, refillPerSecond: 0.001 } }, async (d) => {
      for (let i = 0; i < 3; i++) expect((await publish({ topic: 'alerts' }, AUTH, d)).status).toBe(200);
      expectError(await publish({ topic: 'alerts' }, AUTH, d), 429, 42901);
    });
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => publish({ topic: 'bulk', sequence_id: `b-${i}` })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(double.messages('bulk').map((m) => m.sequence_id)).size).toBe(500);
  });

  it('closes promptly with keep-alive connections open', async () => {
    const d = await startPushServerDouble();
    expect((await publish({ topic: 'alerts' }, AUTH, d)).status).toBe(200);
    const started = performance.now();
    await d.close();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
