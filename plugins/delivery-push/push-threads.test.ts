import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble } from '../../test/doubles/push-server-double.ts';
import { buildTarget, deliver, request, SYSTEM_TOPIC, type Harness } from './push-target.test-support.ts';

/** Notifications__Push__Threads: the same publishes and outcomes, made by worker threads. */
describe('push target: publishing from worker threads', () => {
  let double: PushServerDouble;
  let harness: Harness;

  beforeAll(async () => {
    double = await startPushServerDouble();
    harness = await buildTarget({ BaseUrl: double.baseUrl, PublishToken: DEFAULT_PUBLISHER_TOKEN, TimeoutSeconds: 1, Threads: 2 });
  });
  afterAll(async () => {
    await harness.target.close?.();
    await double.close();
  });

  it('delivers every request of a batch once, with the outcome of each in order', async () => {
    const requests = Array.from({ length: 200 }, (_, index) => request({ itemKey: `PO-T${index}` }));
    expect(await deliver(harness.target, requests)).toEqual(requests.map(() => ({ kind: 'delivered' })));
    const stored = double.messages(SYSTEM_TOPIC);
    expect(stored).toHaveLength(200);
    expect(new Set(stored.map((message) => message.sequence_id)).size).toBe(200);
  });

  it("judges the server's refusals and failures as the main thread does", async () => {
    double.failNext(1, { status: 503 });
    const [retry] = await deliver(harness.target, [request()]);
    expect(retry).toMatchObject({ kind: 'retry', reason: expect.stringContaining('503') });
    const [refused] = await deliver(harness.target, [request({ topic: 'not allowed topic' })]);
    expect(refused).toMatchObject({ kind: 'failed' });
  });

  it("stops what is in flight when the dispatcher's signal aborts (shutdown): retried later, never lost", async () => {
    double.delayNext(1, 5000);
    const controller = new AbortController();
    const result = deliver(harness.target, [request({ itemKey: 'PO-SLOW' })], controller.signal);
    await expect.poll(() => double.publishRequestCount, { timeout: 10_000 }).toBeGreaterThan(201);
    controller.abort();
    expect(await result).toEqual([{ kind: 'retry', reason: expect.stringMatching(/interrupted|aborted/) }]);
  });
});
