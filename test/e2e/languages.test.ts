import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { startOutageFeedsApp, type OutageFeedsApp } from '../helpers/outage-feeds-app.ts';

const SINHALA = /[\u0D80-\u0DFF]/;
const TAMIL = /[\u0B80-\u0BFF]/;

/** Languages and zones through the HTTP API, the real feed monitor and dispatcher, the feed and push-server doubles. */
describe('each subscriber reads alerts in their language and zone', () => {
  let h: OutageFeedsApp;
  const clock = new Date('2026-11-22T03:00:00Z');
  beforeAll(async () => {
    h = await startOutageFeedsApp(
      { PowerOutages__Enabled: 'true', PowerOutages__PollingIntervalSeconds: '3600', PowerOutages__TimeZone: 'Asia/Colombo' },
      () => clock,
    );
  });
  afterAll(async () => h?.close());

  const subscribe = async (displayName: string, preferences: object) => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName, feedId: 'utility.power-outages', filter: { locationKeywords: ['Kandy'] }, preferences, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { publicId: string; manageToken: string; delivery: { destination: string } };
  };

  it('one outage: Sinhala, Tamil and English subscribers each get it in their own words; a chosen zone writes the times there', async () => {
    const [si, ta, en, london] = await Promise.all([
      subscribe('Kandy si', { language: 'si' }),
      subscribe('Kandy ta', { language: 'ta' }),
      subscribe('Kandy en', {}),
      subscribe('Kandy from London', { timeZone: 'Europe/London' }),
    ]);
    h.feed.setPowerOutages([{ id: 'PO-L1', feeder: 'F12', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line' }]);
    await h.poll('utility-power-outages.monitor');
    const [toSi] = h.push.messages(si.delivery.destination);
    const [toTa] = h.push.messages(ta.delivery.destination);
    const [toEn] = h.push.messages(en.delivery.destination);
    const [toLondon] = h.push.messages(london.delivery.destination);
    expect(toSi.title).toMatch(SINHALA);
    expect(toSi.message).toMatch(SINHALA);
    expect(toTa.title).toMatch(TAMIL);
    expect(toTa.message).toMatch(TAMIL);
    // Values from the feed stay as the feed wrote them, in every language.
    for (const message of [toSi, toTa, toEn]) expect(message.title).toContain('Kandy');
    expect(toEn).toMatchObject({ title: 'Power outage: Kandy' });
    expect(toEn.message).toContain('Since: 22 Nov 2026, 08:15 GMT+5:30');
    expect(toLondon.message).toContain('Since: 22 Nov 2026, 02:45 GMT');
    // The ledger keeps one English rendering of the event; the languages are rendered for their subscribers.
    expect(h.push.messages('utility-power-outages')[0]).toMatchObject({ title: 'Power outage: Kandy' });
  });

  it("a test notification comes in the subscriber's language too", async () => {
    const ta = await subscribe('Tamil test', { language: 'ta' });
    const response = await h.app.inject({
      method: 'POST',
      url: `/api/notification-subscriptions/${ta.publicId}/test`,
      headers: { 'x-subscription-token': ta.manageToken },
    });
    expect(response.statusCode).toBe(202);
    const [message] = h.push.messages(ta.delivery.destination).filter((m) => m.title?.includes('Tamil test'));
    expect(message.title).toMatch(TAMIL);
    expect(message.message).toMatch(TAMIL);
  });

  it('an unknown language is a 400 naming the field, and nothing is stored', async () => {
    const count = async () => Number((await servicesOf(h.app).database.knex('notification_subscriptions').count({ n: '*' }))[0]!.n);
    const before = await count();
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'x', feedId: 'utility.power-outages', preferences: { language: 'fr' }, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/body\/preferences\/language/);
    expect(await count()).toBe(before);
  });
});
