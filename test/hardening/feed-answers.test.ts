import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawJson } from '../../demo/sample-feed/feed-api-server.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { parseMetrics, sampleValue } from '../helpers/metrics-text.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const POWER = 'utility-power-outages.monitor';
const SCHEDULED = 'utility-scheduled-outages.monitor';
const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
const outage = (id: string, patch: Record<string, unknown> = {}) => ({
  id,
  feeder: 'F12',
  areas: ['Kandy'],
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored: null,
  cause: 'Fallen line',
  customersAffected: 1200,
  ...patch,
});
const planned = (id: string, patch: Record<string, unknown> = {}) => ({
  id,
  date: '2026-11-24',
  start: '09:00',
  end: '17:00',
  feeder: 'F3',
  areas: ['Gampola'],
  reason: 'Maintenance',
  status: 'scheduled',
  ...patch,
});
/** An unknown field nested 5,000 levels deep, as JSON text (JSON.stringify cannot write it; JSON.parse reads it). */
const DEEP = `${'{"deeper":'.repeat(5000)}"bottom"${'}'.repeat(5000)}`;

/**
 * Contracts §13 through the real service on both databases: the feed
 * double answers over a real socket, what the service stores and sends is
 * read back from the database, the push double and the API.
 */
describe.each(await databaseKinds())('feed answers are untrusted input, on %s', (kind) => {
  void kind;
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  let app: FastifyInstance;
  let topic = '';
  // The service's clock: the planned outages of the answers below are ahead of it.
  const now = () => new Date('2026-11-22T04:00:00Z');
  const knex = () => servicesOf(app).database.knex;
  const poll = async (monitor = POWER) => {
    await servicesOf(app).workers.runNow(monitor, { force: true });
    await servicesOf(app).dispatcher.settle();
  };
  const feedHealth = async (feedId: string) => {
    const response = await app.inject({ url: '/api/admin/feeds', headers: admin });
    return (response.json() as Array<{ id: string; lastError: { kind: string; message: string } | null; consecutiveFailures: number }>).find(
      (entry) => entry.id === feedId,
    )!;
  };
  const metric = async (name: string, labels: Record<string, string>) => sampleValue(parseMetrics((await app.inject('/metrics')).body), name, labels) ?? 0;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    started = await startTestApp({
      database,
      now,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
      env: e2eEnv(
        feed,
        push,
        {
          PowerOutages__Enabled: 'true',
          PowerOutages__PollingIntervalSeconds: '3600',
          // Room for the 10,000-outage answer (2 MiB) below; the default is 10 MiB.
          PowerOutages__MaxAnswerBytes: String(4 * 1024 * 1024),
          ScheduledOutages__Enabled: 'true',
          ScheduledOutages__PollingIntervalSeconds: '3600',
          NotificationPipeline__CooldownSeconds: '0',
          // Only the test's own subscriber: 10,000 announcements are 10,000 messages, not 20,000.
          NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
          NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
        },
        now,
      ),
    });
    app = started.app;
    await servicesOf(app).workers.runNow(POWER);
    await servicesOf(app).workers.runNow(SCHEDULED);
    const created = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'All', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
    });
    topic = created.json().delivery.destination;
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it('a chunked answer past MaxAnswerBytes fails that poll: the read stops at the limit, nothing is stored, the next poll works', async () => {
    feed.setPowerOutages([outage('PO-BEFORE')]);
    await poll();
    const messagesBefore = push.messages(topic).length;
    feed.huge(32 * 1024 * 1024);
    await poll();
    expect(feed.sent.finished).toBe(false);
    // The service read up to its limit and hung up: far less than the 32 MiB were written (socket buffers hold some).
    expect(feed.sent.bytes).toBeLessThan(12 * 1024 * 1024);
    expect(Number((await knex()('power_outages').where('id', 'like', 'HUGE-%').count({ n: '*' }))[0].n)).toBe(0);
    expect((await feedHealth('utility.power-outages')).lastError).toMatchObject({
      kind: 'EndpointError',
      message: "utility-power-outages: the answer is larger than 4194304 bytes (the feed's MaxAnswerBytes)",
    });
    // With a Content-Length, refused unread.
    feed.huge(8 * 1024 * 1024, { contentLength: true });
    await poll();
    expect((await feedHealth('utility.power-outages')).consecutiveFailures).toBe(2);
    feed.setPowerOutages([outage('PO-BEFORE'), outage('PO-AFTER')]);
    await poll();
    expect(
      push
        .messages(topic)
        .slice(messagesBefore)
        .map((message) => message.title),
    ).toEqual(['Power outage: Kandy']);
    expect((await feedHealth('utility.power-outages')).consecutiveFailures).toBe(0);
  });

  it('leaves out, alone, every item PostgreSQL or an output could not take; the good ones are announced; one warning; counted; lastError in words', async () => {
    const logsBefore = started.logs.length;
    const answer = [
      outage('PO-GOOD-1', { extra: 'x\u0000y', deep: '__DEEP__', nested: { a: [1, { b: 'c' }] } }),
      outage('PO-NUL', { cause: 'Fallen\u0000line' }),
      outage('PO-SURROGATE', { areas: ['Kandy \ud800'] }),
      outage('PO-HUGE-COUNT', { customersAffected: 3_000_000_000 }),
      outage('PO-GOOD-1', { areas: ['Galle'] }),
      outage('PO-YEAR-0', { timeOff: '0000-01-01T00:00:00Z' }),
      outage('PO-VT\u000bBcc: victim@example.org'),
      outage('PO-FORGED-LINE', { feeder: 'F1\u000bAreas: Everywhere' }),
      // Line breaks in free text are whitespace: announced on one line, never a line of its own.
      outage('PO-MULTILINE', { areas: ['Matale'], cause: 'Fallen tree\r\nAreas: Everywhere' }),
      outage('PO-ESCAPE', { areas: ['Kandy\u001b[31m'] }),
      outage('PO-GOOD-2', { areas: ['Peradeniya\u202e'], cause: 'Invoice\u2066gpj.exe' }),
    ];
    feed.setAnswer('/power-outages', new RawJson(JSON.stringify({ outages: answer }).replace('"__DEEP__"', DEEP)));
    const before = push.messages(topic).length;
    await poll();
    // The good ones, and only they, were stored and announced.
    expect(
      await knex()('power_outages')
        .whereIn('id', ['PO-GOOD-1', 'PO-GOOD-2', 'PO-NUL', 'PO-SURROGATE', 'PO-HUGE-COUNT', 'PO-YEAR-0', 'PO-FORGED-LINE', 'PO-ESCAPE'])
        .orderBy('id')
        .pluck('id'),
    ).toEqual(['PO-GOOD-1', 'PO-GOOD-2']);
    expect(await knex()('power_outages').where({ id: 'PO-MULTILINE' }).first('cause')).toEqual({ cause: 'Fallen tree Areas: Everywhere' });
    // A right-to-left override is no control character: the item is kept, and the override removed from what people read.
    const sent = push.messages(topic).slice(before);
    expect(sent.map((message) => message.title)).toEqual(['Power outage: Kandy', 'Power outage: Matale', 'Power outage: Peradeniya']);
    expect((sent[1]!.message ?? '').split('\n')).toContain('Cause: Fallen tree Areas: Everywhere');
    expect((sent[1]!.message ?? '').split('\n').filter((line) => line.startsWith('Areas:'))).toEqual(['Areas: Matale']);
    expect(sent[2].message).toContain('Cause: Invoicegpj.exe');
    // Fields the schema does not name were dropped before anything else: never stored.
    const [stored] = await knex()('power_outages').where({ id: 'PO-GOOD-1' }).select('payload');
    expect(Object.keys(stored.payload).sort()).toEqual(['areas', 'cause', 'customersAffected', 'feeder', 'id', 'timeOff', 'timeRestored']);
    // One warning for the poll, naming each item and its reason.
    const warnings = started.logs
      .slice(logsBefore)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg?.startsWith('feed items left out'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].items.map((item: { id: string; reason: string }) => [item.id, item.reason])).toEqual([
      ['PO-NUL', 'control-character'],
      ['PO-SURROGATE', 'malformed-unicode'],
      ['PO-HUGE-COUNT', 'number-out-of-range'],
      ['PO-GOOD-1', 'duplicate-id'],
      ['PO-YEAR-0', 'date-out-of-range'],
      ['PO-VT\uFFFDBcc: victim@example.org', 'control-character'],
      ['PO-FORGED-LINE', 'control-character'],
      ['PO-ESCAPE', 'control-character'],
    ]);
    expect(await metric('notification_feed_items_rejected_total', { feed: 'utility.power-outages', reason: 'control-character' })).toBe(4);
    expect(await metric('notification_feed_items_rejected_total', { feed: 'utility.power-outages', reason: 'duplicate-id' })).toBe(1);
    expect(await metric('notification_feed_items_rejected_total', { feed: 'utility.power-outages', reason: 'number-out-of-range' })).toBe(1);
    const health = await feedHealth('utility.power-outages');
    expect(health.consecutiveFailures).toBe(0);
    expect(health.lastError?.message).toMatch(
      /^8 items of the answer left out \(the others were processed\): PO-NUL: \/cause holds a control character \(U\+0000\); PO-SURROGATE: \/areas\/0 holds a lone UTF-16 surrogate; PO-HUGE-COUNT: \/customersAffected is out of range: it must be <= 2147483647;/,
    );
    expect(health.lastError?.message).not.toMatch(/insert|select|update|"power_outages"/i);
  });

  it('a feed whose bad items stay in its answer keeps announcing the good ones: no poll is blocked for good', async () => {
    feed.setPowerOutages([
      outage('PO-GOOD-1', { timeRestored: '2026-11-22T11:00:00+05:30' }),
      outage('PO-GOOD-2', { areas: ['Peradeniya'] }),
      outage('PO-HUGE-COUNT', { customersAffected: 3_000_000_000 }),
      outage('PO-GOOD-3', { areas: ['Matale'] }),
    ]);
    const before = push.messages(topic).length;
    await poll();
    expect(
      push
        .messages(topic)
        .slice(before)
        .map((message) => message.title),
    ).toEqual(['Power restored: Kandy', 'Power outage: Matale']);
  });

  it('the scheduled feed too: a bad planned outage is left out and the calendar holds only the good ones', async () => {
    feed.setScheduledOutages([
      planned('SO-1'),
      planned('SO-2\u000bBEGIN:VEVENT'),
      planned('SO-3', { date: '0000-11-24' }),
      planned('SO-4', { areas: ['Kandy'] }),
    ]);
    await poll(SCHEDULED);
    expect(await knex()('scheduled_outages').orderBy('id').pluck('id')).toEqual(['SO-1', 'SO-4']);
    const ics = (await app.inject('/api/notification-feeds/utility.scheduled-outages/calendar.ics')).body;
    expect(ics.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(2);
    expect(ics.match(/^UID:.*$/gm)?.map((line) => line.trim())).toEqual(['UID:SO-1@127.0.0.1', 'UID:SO-4@127.0.0.1']);
  });

  it('10,000 new outages in one answer are all stored and all announced to the subscription that matches them', async () => {
    const storm = Array.from({ length: 10_000 }, (_, i) => outage(`STORM-${i}`, { areas: [`Area ${i}`] }));
    feed.setPowerOutages(storm);
    const before = push.messages(topic).length;
    await poll();
    await expect.poll(() => push.messages(topic).length - before, { timeout: 120_000, interval: 500 }).toBe(10_000);
    expect(
      new Set(
        push
          .messages(topic)
          .slice(before)
          .map((message) => message.title),
      ).size,
    ).toBe(10_000);
    expect(Number((await knex()('notification_delivery_ledger').where('source_key', 'like', 'STORM-%').count({ n: '*' }))[0].n)).toBe(10_000);
    expect((await feedHealth('utility.power-outages')).consecutiveFailures).toBe(0);
  }, 150_000);
});
