import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLISHER_TOKEN, type PushServerDouble } from '../../test/doubles/push-server-double.ts';
import {
  buildTarget,
  closePushHarness,
  deliver,
  request,
  startPushHarness,
  SYSTEM_TOPIC,
  TOPIC_RE,
  withDouble,
  type Harness,
} from './push-target.test-support.ts';

let double: PushServerDouble;
let harness: Harness;
beforeAll(async () => void ({ double, harness } = await startPushHarness()));
afterEach(() => double.reset());
afterAll(() => closePushHarness(double));

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
    expect(await deliver(harness.target, [request({ rendered: { body: `Areas: ${'Pérädéniyä, '.repeat(600)}` } })])).toEqual([{ kind: 'delivered' }]);
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
      { kind: 'delivered' },
      { kind: 'delivered' },
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
      expect(warning).toMatchObject({ topics: [SYSTEM_TOPIC], deliveries: 1, status: 403, code: 40301, outcome: 'failed' });
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
