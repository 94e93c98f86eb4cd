import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// A newcomer's first try: the real Push plugin with no push server configured. The create
// answer says why there is no subscribe link, and a test notification logs one clear warning
// naming the key to set (not silence, and not one line per delivery).
describe('Push with no push server configured', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({ database, pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-push']), workers: false });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('answers subscribeUrl null with the reason, and a test notification logs one warning naming Notifications__Push__BaseUrl', async () => {
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Kandy', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.subscribeUrl).toBeNull();
    expect(body.subscribeUrlUnavailableReason).toMatch(/^No push server is configured \(Notifications__Push__BaseUrl is unset\)/);
    const read = await started.app.inject({ url: `/api/notification-subscriptions/${body.publicId}`, headers: { 'x-subscription-token': body.manageToken } });
    expect(read.json().subscribeUrlUnavailableReason).toBe(body.subscribeUrlUnavailableReason);

    const before = started.logs.length;
    const tested = await started.app.inject({
      method: 'POST',
      url: `/api/notification-subscriptions/${body.publicId}/test`,
      headers: { 'x-subscription-token': body.manageToken },
    });
    expect(tested.statusCode).toBe(202);
    expect(tested.json()).toEqual({ matchedSubscriptionCount: 1, deliveredCount: 0 });
    const warnings = started.logs
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.level === 40);
    expect(warnings).toEqual([expect.objectContaining({ deliveries: 1, msg: expect.stringContaining('set Notifications__Push__BaseUrl') })]);
  });
});
