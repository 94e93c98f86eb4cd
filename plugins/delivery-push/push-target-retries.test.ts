import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLISHER_TOKEN, type PushServerDouble } from '../../test/doubles/push-server-double.ts';
import {
  buildTarget,
  closePushHarness,
  deliver,
  freePort,
  request,
  startPushHarness,
  SYSTEM_TOPIC,
  TOPIC_RE,
  type Harness,
} from './push-target.test-support.ts';
import { composeTopicPolicy, isTopicAllowed } from './topic-policy.ts';

let double: PushServerDouble;
let harness: Harness;
beforeAll(async () => void ({ double, harness } = await startPushHarness()));
afterEach(() => double.reset());
afterAll(() => closePushHarness(double));

// Transient trouble and the destinations a target hands out; publishing and refusals are in push-target.test.ts.
describe('push target: transient trouble is retried', () => {
  it('503 → retry', async () => {
    double.failNext(1, { status: 503 });
    expect(await deliver(harness.target, [request()])).toEqual([{ kind: 'retry', reason: 'push server 503 (service unavailable)' }]);
  });

  it('a batch whose publishes fail logs one warning per reason with the count, not one per delivery', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN });
    h.logs.length = 0;
    double.failNext(12, { status: 503 });
    const requests = Array.from({ length: 12 }, (_, i) =>
      request({ topic: h.target.prepareDestination(undefined, { scope: 'Anonymous' }), itemKey: `PO-${i}` }),
    );
    const outcomes = await deliver(h.target, [...requests, request()]);
    expect(outcomes.filter((o) => o.kind === 'retry')).toHaveLength(12);
    expect(outcomes.at(-1)).toEqual({ kind: 'delivered' });
    const entries = h.logs.map((line) => JSON.parse(line));
    const warnings = entries.filter((e) => e.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: 'push deliveries not made: push server 503 (service unavailable)',
      outcome: 'retry',
      status: 503,
      deliveries: 12,
    });
    // A few to look up, never the whole batch.
    expect(warnings[0].ledgerIds).toHaveLength(5);
    expect(warnings[0].topics).toHaveLength(5);
    // Each delivery's own line is there for whoever turns debug on.
    expect(entries.filter((e) => e.level === 20 && e.msg.startsWith('push delivery not made'))).toHaveLength(12);
  });

  it("a slow but healthy server: each publish's timeout counts from its writing, so requests waiting their turn on a connection are not taken for late", async () => {
    // 2 connections × 16 requests each, every answer 400 ms late, a 2 s timeout: the 16th in line waits 6 s for its turn.
    const h = await buildTarget({
      BaseUrl: double.baseUrl,
      PublishToken: DEFAULT_PUBLISHER_TOKEN,
      Connections: 2,
      RequestsPerConnection: 16,
      TimeoutSeconds: 2,
    });
    double.delayNext(32, 400);
    const requests = Array.from({ length: 32 }, (_, i) =>
      request({ topic: h.target.prepareDestination(undefined, { scope: 'Anonymous' }), itemKey: `PO-SLOW-${i}` }),
    );
    const outcomes = await deliver(h.target, requests);
    expect(outcomes.map((o) => o.kind)).toEqual(Array(32).fill('delivered'));
    // Nothing was published twice: had the timeout counted from the hand-over, most would have been retried.
    expect(double.publishRequestCount).toBe(32);
    // And the target now offers fewer at once: as many per connection as it answers within half the timeout (2 × 1000 / 400 = 2).
    expect(h.target.concurrency!()).toBe(2 * 2);
  });

  it('429 42901 → slow down (the lane pauses; the attempt is not counted), for no set time without a Retry-After', async () => {
    double.failNext(1, { status: 429 });
    const [outcome] = await deliver(harness.target, [request()]);
    expect(outcome).toEqual({ kind: 'slowDown', reason: 'push server 429 (42901 limit reached: too many requests, please be nice)' });
  });

  it('429 42908 (daily quota) → retry at the next UTC midnight', async () => {
    harness.setNow(new Date('2026-11-22T18:45:00.000Z'));
    double.failNext(1, { status: 429, code: 42908 });
    const [outcome] = await deliver(harness.target, [request()]);
    expect(outcome).toMatchObject({ kind: 'retry', notBefore: new Date('2026-11-23T00:00:00.000Z') });
  });

  it('no answer within TimeoutSeconds → retry, without waiting for the late answer', async () => {
    // The answer would come after 10 s; the publish gives up after TimeoutSeconds (1 s). The upper bound only
    // tells "gave up" from "waited for the answer", with room for a loaded machine.
    double.delayNext(1, 10_000);
    const started = performance.now();
    const [outcome] = await deliver(harness.target, [request()]);
    const elapsed = performance.now() - started;
    expect(outcome).toEqual({ kind: 'retry', reason: 'push server did not answer within 1 s' });
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(6000);
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
    const outcomes = await deliver(harness.target, [
      request({ itemKey: 'A' }),
      request({ itemKey: 'B', topic: 'nope' }),
      request({ itemKey: 'C' }),
      request({ itemKey: 'D' }),
    ]);
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
      { kind: 'retry', reason: 'publish interrupted by shutdown' },
      { kind: 'retry', reason: 'publish interrupted by shutdown' },
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

  it('without BaseUrl nothing is sent and deliveries wait for a retry, with one warning per batch naming the key', async () => {
    const h = await buildTarget({});
    h.logs.length = 0; // the start-up warning is not what this test is about
    const retry = { kind: 'retry', reason: 'push server not configured (Notifications__Push__BaseUrl is unset)' };
    expect(await deliver(h.target, [request({ itemKey: 'A' }), request({ itemKey: 'B' }), request({ itemKey: 'C' })])).toEqual([retry, retry, retry]);
    const warnings = h.logs.map((line) => JSON.parse(line)).filter((e) => e.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ deliveries: 3, msg: expect.stringContaining('set Notifications__Push__BaseUrl') });
    expect(h.target.subscribeUrl('alerts-x')).toBeNull();
    expect(h.target.subscribeUrlUnavailableReason!('alerts-x')).toMatch(/^No push server is configured \(Notifications__Push__BaseUrl is unset\)/);
  });

  it('with BaseUrl a batch logs no warning about the push server', async () => {
    const h = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN });
    expect(await deliver(h.target, [request()])).toEqual([{ kind: 'delivered' }]);
    expect(h.logs.map((line) => JSON.parse(line)).filter((e) => e.level === 40)).toEqual([]);
  });
});

describe('push target: destinations', () => {
  it('generates unique, valid topics with the prefix and 128 random bits, all passing the policy', () => {
    const policy = composeTopicPolicy({
      allowlist: { topics: [SYSTEM_TOPIC], prefixes: [] },
      allowedTopics: [],
      allowedTopicPrefixes: [],
      generatedTopicPrefix: 'alerts-',
    });
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
