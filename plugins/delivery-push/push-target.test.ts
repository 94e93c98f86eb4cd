import { createServer } from 'node:net';
import { pino } from 'pino';
import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRequest, DeliveryTarget, NotificationPriority, PluginContext, RenderedNotification } from '#plugin-api';
// A test-only import from outside the plugin: the ntfy double every push test shares.
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble, type PushServerDoubleOptions } from '../../test/doubles/push-server-double.ts';
import { pushConfig } from './config.ts';
import { manifest } from './index.ts';
import { composeTopicPolicy, isTopicAllowed } from './topic-policy.ts';

const SYSTEM_TOPIC = 'utility-power-outages';
const TOPIC_RE = /^[-_A-Za-z0-9]{1,64}$/;
type PushSettings = PluginContext<typeof pushConfig>['config']['Notifications:Push'];

interface Harness {
  target: DeliveryTarget;
  logs: string[];
  setNow(date: Date): void;
}

const harnesses: Harness[] = [];

/** The target as core builds it: the manifest's createTarget with a hand-made context. */
async function buildTarget(settings: Partial<PushSettings>): Promise<Harness> {
  const logs: string[] = [];
  let now = new Date('2026-11-22T10:00:00.000Z');
  const context = {
    pluginId: 'delivery-push',
    config: { 'Notifications:Push': { ...(Value.Default(pushConfig['Notifications:Push'], {}) as PushSettings), ...settings } },
    coreConfig: {},
    db: undefined,
    log: pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) }),
    topicAllowlist: { topics: [SYSTEM_TOPIC], prefixes: [] },
    now: () => now,
  } as unknown as PluginContext<typeof pushConfig>;
  const target = await manifest.createTarget!(context);
  const harness = { target, logs, setNow: (date: Date) => void (now = date) };
  harnesses.push(harness);
  return harness;
}

let nextLedgerId = 1;
function request(options: { topic?: string; itemKey?: string; eventType?: string; rendered?: Partial<RenderedNotification> } = {}): DeliveryRequest {
  const itemKey = options.itemKey ?? 'PO-1001';
  const rendered: RenderedNotification = {
    title: 'Power outage: Kandy, Peradeniya',
    body: 'Feeder: F12\nAreas: Kandy, Peradeniya',
    sequenceId: `po-${itemKey}`,
    tags: ['warning', 'electric_plug'],
    priority: 'High' as NotificationPriority,
    ...options.rendered,
  };
  return {
    ledgerId: nextLedgerId++,
    attempt: 1,
    subscription: {
      id: 1, publicId: 'pub-1', displayName: 'Kandy', feedId: 'utility.power-outages', provider: 'Push',
      destination: options.topic ?? SYSTEM_TOPIC, scope: 'System',
    },
    event: { feedId: 'utility.power-outages', eventType: options.eventType ?? 'NewOutage', sourceKey: itemKey, itemKey, fields: {}, sourcePayload: {} },
    rendered,
  };
}

const deliver = (target: DeliveryTarget, requests: DeliveryRequest[], signal = new AbortController().signal) => target.deliver!(requests, signal);

let double: PushServerDouble;
let harness: Harness;

beforeAll(async () => {
  double = await startPushServerDouble();
  harness = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN, TimeoutSeconds: 1 });
});
afterEach(() => double.reset());
afterAll(async () => {
  for (const h of harnesses) await h.target.close?.();
  await double.close();
});

async function withDouble(options: PushServerDoubleOptions, fn: (d: PushServerDouble) => Promise<void>): Promise<void> {
  const d = await startPushServerDouble(options);
  try {
    await fn(d);
  } finally {
    await d.close();
  }
}

describe('push target: publishing', () => {
  it('publishes title, message, priority, tags and sequence id as JSON', async () => {
    expect(await deliver(harness.target, [request()])).toEqual([{ kind: 'delivered' }]);
    const [stored] = double.messages(SYSTEM_TOPIC);
    expect(stored).toMatchObject({
      topic: SYSTEM_TOPIC,
      title: 'Power outage: Kandy, Peradeniya',
      message: 'Feeder: F12\nAreas: Kandy, Peradeniya',
      priority: 4,
      tags: ['warning', 'electric_plug'],
      sequence_id: 'po-PO-1001',
      publishedBy: 'publisher',
    });
  });

  it('cuts a message over 4096 bytes itself, whole characters and an ellipsis', async () => {
    expect(await deliver(harness.target, [request({ rendered: { body: 'Areas: ' + 'Pérädéniyä, '.repeat(600) } })])).toEqual([{ kind: 'delivered' }]);
    const [stored] = double.messages(SYSTEM_TOPIC);
    expect(double.oversizeMessages).toBe(0);
    expect(Buffer.byteLength(stored.message!)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(stored.message!)).toBeGreaterThan(4090);
    expect(stored.message!.endsWith('…')).toBe(true);
    expect(stored.message).not.toContain('\uFFFD');
  });

  it('gives a NewOutage and its Restoration one sequence id, so the phone replaces the message', async () => {
    const restoration = request({ eventType: 'Restoration', rendered: { title: 'Power restored: Kandy', priority: 'Default', tags: ['white_check_mark'] } });
    await deliver(harness.target, [request()]);
    await deliver(harness.target, [restoration]);
    const [outage, restored] = double.messages(SYSTEM_TOPIC);
    expect(restored.title).toBe('Power restored: Kandy');
    expect(restored.priority).toBe(3);
    expect(restored.sequence_id).toBe(outage.sequence_id);
  });

  it('hashes a renderer id the server would refuse, the same for both messages of one item', async () => {
    const unsafe = { sequenceId: 'po-PO 1001/Kandy ä' };
    expect(await deliver(harness.target, [request({ rendered: unsafe }), request({ eventType: 'Restoration', rendered: unsafe })])).toEqual([
      { kind: 'delivered' }, { kind: 'delivered' },
    ]);
    const [a, b] = double.messages(SYSTEM_TOPIC);
    expect(a.sequence_id).toMatch(TOPIC_RE);
    expect(a.sequence_id).toBe(b.sequence_id);
  });

  it('publishes to generated topics and AllowedTopics', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN, AllowedTopics: ['ops-extra'] });
    const generated = h.target.prepareDestination(undefined, { scope: 'Anonymous' });
    expect(await deliver(h.target, [request({ topic: generated }), request({ topic: 'ops-extra' })])).toEqual([{ kind: 'delivered' }, { kind: 'delivered' }]);
    expect(double.messages(generated)).toHaveLength(1);
    expect(double.messages('ops-extra')).toHaveLength(1);
  });

  it('delivers a batch of 500 with one outcome per request, in order', async () => {
    const requests = Array.from({ length: 500 }, (_, i) => request({ itemKey: `PO-${i}` }));
    const outcomes = await deliver(harness.target, requests);
    expect(outcomes).toHaveLength(500);
    expect(outcomes.every((o) => o.kind === 'delivered')).toBe(true);
    expect(new Set(double.messages(SYSTEM_TOPIC).map((m) => m.sequence_id)).size).toBe(500);
  });
});

describe('push target: refusals are permanent, and name the code, never the token', () => {
  const expectNoToken = (texts: string[], token: string) => {
    for (const text of texts) expect(text).not.toContain(token);
  };

  it('a wrong token (401, 40101) fails', async () => {
    const wrongToken = 'tk_wrongwrongwrongwrongwrongwrong';
    const h = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: wrongToken });
    const [outcome] = await deliver(h.target, [request()]);
    expect(outcome).toEqual({ kind: 'failed', reason: 'push server 401 (40101 unauthorized)' });
    expect(h.logs.join('')).toContain('40101');
    expectNoToken([JSON.stringify(outcome), ...h.logs], wrongToken);
    expect(double.messages(SYSTEM_TOPIC)).toHaveLength(0);
  });

  it('a publisher without write access to the topic (403, 40301) fails', async () => {
    await withDouble({ acl: [{ user: 'publisher', topic: 'somewhere-else', permission: 'read-write' }] }, async (d) => {
      const h = await buildTarget({ BaseUrl: d.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN });
      const [outcome] = await deliver(h.target, [request()]);
      expect(outcome).toEqual({ kind: 'failed', reason: 'push server 403 (40301 forbidden)' });
      const warning = h.logs.map((line) => JSON.parse(line)).find((entry) => entry.level === 40);
      expect(warning).toMatchObject({ topic: SYSTEM_TOPIC, status: 403, code: 40301, outcome: 'failed' });
      expectNoToken([JSON.stringify(outcome), ...h.logs], DEFAULT_PUBLISHER_TOKEN);
      expect(h.logs.join('')).not.toContain('Feeder: F12'); // nor the message text
    });
  });

  it('no token at all sends no Authorization header and fails with 403', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl });
    expect(await deliver(h.target, [request()])).toEqual([{ kind: 'failed', reason: 'push server 403 (40301 forbidden)' }]);
  });

  it('too many auth failures (429, 42909) fails', async () => {
    double.failNext(1, { status: 429, code: 42909 });
    const [outcome] = await deliver(harness.target, [request()]);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.reason).toMatch(/^push server 429 \(42909/);
  });

  it('a topic outside the policy fails without any request to the server', async () => {
    const outcomes = await deliver(harness.target, [request({ topic: 'not-allowlisted' }), request({ topic: 'metrics' }), request({ topic: 'bad topic' })]);
    expect(outcomes.map((o) => o.kind)).toEqual(['failed', 'failed', 'failed']);
    expect(outcomes[0]).toEqual({ kind: 'failed', reason: 'topic "not-allowlisted" refused by the topic policy: not on the topic allowlist' });
    expect(double.requestCount).toBe(0);
  });
});

describe('push target: transient trouble is retried', () => {
  it('503 → retry', async () => {
    double.failNext(1, { status: 503 });
    expect(await deliver(harness.target, [request()])).toEqual([{ kind: 'retry', reason: 'push server 503 (service unavailable)' }]);
  });

  it('429 42901 → retry, without a set time', async () => {
    double.failNext(1, { status: 429 });
    const [outcome] = await deliver(harness.target, [request()]);
    expect(outcome).toEqual({ kind: 'retry', reason: 'push server 429 (42901 limit reached: too many requests, please be nice)' });
  });

  it('429 42908 (daily quota) → retry at the next UTC midnight', async () => {
    harness.setNow(new Date('2026-11-22T18:45:00.000Z'));
    double.failNext(1, { status: 429, code: 42908 });
    const [outcome] = await deliver(harness.target, [request()]);
    expect(outcome).toMatchObject({ kind: 'retry', notBefore: new Date('2026-11-23T00:00:00.000Z') });
  });

  it('no answer within TimeoutSeconds → retry, on time', async () => {
    double.delayNext(1, 3000);
    const started = performance.now();
    const [outcome] = await deliver(harness.target, [request()]);
    const elapsed = performance.now() - started;
    expect(outcome).toEqual({ kind: 'retry', reason: 'push server did not answer within 1 s' });
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a dropped connection → retry', async () => {
    double.dropNext(1);
    const [outcome] = await deliver(harness.target, [request()]);
    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' && outcome.reason).toMatch(/^push server unreachable: UND_ERR_SOCKET/);
  });

  it('a refused connection → retry', async () => {
    const port = await freePort();
    const h = await buildTarget({ BaseUrl: `http://127.0.0.1:${port}`, PublishToken: DEFAULT_PUBLISHER_TOKEN });
    const [outcome] = await deliver(h.target, [request()]);
    expect(outcome.kind === 'retry' && outcome.reason).toMatch(/^push server unreachable: ECONNREFUSED/);
  });

  it('one failing request does not affect the others of its batch', async () => {
    double.failNext(1, { status: 503 });
    const outcomes = await deliver(harness.target, [request({ itemKey: 'A' }), request({ itemKey: 'B', topic: 'nope' }), request({ itemKey: 'C' }), request({ itemKey: 'D' })]);
    expect(outcomes.filter((o) => o.kind === 'retry')).toHaveLength(1);
    expect(outcomes[1].kind).toBe('failed');
    expect(outcomes.filter((o) => o.kind === 'delivered')).toHaveLength(2);
    expect(double.messages(SYSTEM_TOPIC)).toHaveLength(2);
  });

  it('an aborted dispatcher signal (shutdown) sends nothing and asks for a retry', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcomes = await deliver(harness.target, [request(), request()], controller.signal);
    expect(outcomes).toEqual([
      { kind: 'retry', reason: 'publish interrupted by shutdown' }, { kind: 'retry', reason: 'publish interrupted by shutdown' },
    ]);
    expect(double.requestCount).toBe(0);
  });

  it('shutdown stops publishes in flight at once; they are retried, logged once', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN, TimeoutSeconds: 10 });
    double.delayNext(2, 5000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const outcomes = await deliver(h.target, [request({ itemKey: 'A' }), request({ itemKey: 'B' }), request({ itemKey: 'C' })], controller.signal);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(outcomes.filter((o) => o.kind === 'retry' && o.reason === 'publish interrupted by shutdown')).toHaveLength(2);
    expect(outcomes.filter((o) => o.kind === 'delivered')).toHaveLength(1);
    const entries = h.logs.map((line) => JSON.parse(line));
    expect(entries.filter((e) => e.level === 40)).toEqual([]);
    expect(entries.find((e) => e.level === 30)).toMatchObject({ interrupted: 2 });
  });

  it('without BaseUrl nothing is sent and deliveries wait for a retry', async () => {
    const h = await buildTarget({});
    expect(await deliver(h.target, [request()])).toEqual([{ kind: 'retry', reason: 'push server not configured (Notifications__Push__BaseUrl is unset)' }]);
    expect(h.target.subscribeUrl('alerts-x')).toBeNull();
  });
});

describe('push target: destinations', () => {
  it('generates unique, valid topics with the prefix and 128 random bits, all passing the policy', () => {
    const policy = composeTopicPolicy({ allowlist: { topics: [SYSTEM_TOPIC], prefixes: [] }, allowedTopics: [], allowedTopicPrefixes: [], generatedTopicPrefix: 'alerts-' });
    const topics = Array.from({ length: 1000 }, () => harness.target.prepareDestination(undefined, { scope: 'User' }));
    expect(new Set(topics).size).toBe(1000);
    for (const topic of topics) {
      expect(topic).toMatch(TOPIC_RE);
      expect(topic).toMatch(/^alerts-[-_A-Za-z0-9]{22}$/);
      expect(isTopicAllowed(topic, policy)).toBe(true);
    }
  });

  it('uses the configured TopicPrefix', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl, TopicPrefix: 'np_' });
    expect(h.target.prepareDestination(undefined, { scope: 'Anonymous' })).toMatch(/^np_[-_A-Za-z0-9]{22}$/);
  });

  it('refuses a destination a Push client sends', () => {
    for (const scope of ['User', 'Anonymous'] as const) {
      expect(() => harness.target.prepareDestination('utility-power-outages', { scope })).toThrow(
        expect.objectContaining({ code: 'NP_INVALID_FIELD', message: 'body/delivery/destination must be omitted for Push: the service generates the topic' }),
      );
    }
  });

  it('takes an allowlisted System topic and refuses any other', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl, AllowedTopics: ['ops-extra'], AllowedTopicPrefixes: ['team_'] });
    expect(h.target.prepareDestination(SYSTEM_TOPIC, { scope: 'System' })).toBe(SYSTEM_TOPIC);
    expect(h.target.prepareDestination('ops-extra', { scope: 'System' })).toBe('ops-extra');
    expect(h.target.prepareDestination('team_night', { scope: 'System' })).toBe('team_night');
    for (const topic of ['somewhere-else', 'metrics', 'bad topic', undefined]) {
      expect(() => h.target.prepareDestination(topic, { scope: 'System' })).toThrow(expect.objectContaining({ code: 'NP_TOPIC_NOT_ALLOWED' }));
    }
  });

  it('subscribeUrl is BaseUrl/topic, without a double slash', async () => {
    expect(harness.target.subscribeUrl('alerts-abc')).toBe(`${double.baseUrl}/alerts-abc`);
    const h = await buildTarget({ BaseUrl: `${double.baseUrl}/` });
    expect(h.target.subscribeUrl('alerts-abc')).toBe(`${double.baseUrl}/alerts-abc`);
  });

  it('is a direct target whose subscriptions start active', () => {
    expect(harness.target).toMatchObject({ provider: 'Push', startsActive: true });
    expect(harness.target.enqueue).toBeUndefined();
  });
});

/** A port with nothing listening: bind, read the port, close. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
