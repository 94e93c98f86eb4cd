import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../../core/app.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const MONITOR = 'utility-scheduled-outages.monitor';
const SYSTEM = 'utility-scheduled-outages';
const planned = (patch: Record<string, unknown> = {}) => ({
  id: 'SO-77',
  date: '2026-11-24',
  start: '09:00',
  end: '17:00',
  feeder: 'F3',
  areas: ['Gampola'],
  reason: 'Maintenance',
  status: 'scheduled',
  ...patch,
});

describe('scheduled outages end to end, in Asia/Colombo (+05:30)', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let pluginsDir: string;
  let started: TestApp;
  let app: FastifyInstance;
  let clock = new Date('2026-11-22T04:00:00Z'); // Sunday 09:30 local: no digest hour
  let gampola = '';

  const start = async () => {
    started = await startTestApp({
      database,
      pluginsDir,
      now: () => clock,
      env: e2eEnv(
        feed,
        push,
        {
          ScheduledOutages__Enabled: 'true',
          ScheduledOutages__PollingIntervalSeconds: '3600',
          ScheduledOutages__TimeZone: 'Asia/Colombo',
          ScheduledOutages__DailyDigestHour: '6',
          ScheduledOutages__WeeklyDigestDay: 'Monday',
          ScheduledOutages__WeeklyDigestHour: '6',
          ScheduledOutages__ReminderHour: '18',
          NotificationPipeline__CooldownSeconds: '0',
        },
        () => clock,
      ),
    });
    app = started.app;
  };
  const poll = async () => {
    await servicesOf(app).workers.runNow(MONITOR, { force: true });
    await servicesOf(app).dispatcher.settle();
  };
  const titles = (topic: string) => push.messages(topic).map((message) => message.title ?? '');

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    pluginsDir = realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']);
    await start();
    const created = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Gampola', feedId: 'utility.scheduled-outages', filter: { locationKeywords: ['gampola'] }, delivery: { provider: 'Push' } },
    });
    gampola = created.json().delivery.destination;
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it('announces a new entry, two successive changes (old → new) and a cancellation, each once', async () => {
    feed.setScheduledOutages([planned(), planned({ id: 'SO-80', date: '2026-11-26', feeder: 'F9', areas: ['Kandy'] })]);
    await poll();
    feed.setScheduledOutages([planned({ end: '18:00' }), planned({ id: 'SO-80', date: '2026-11-26', feeder: 'F9', areas: ['Kandy'] })]);
    await poll();
    await poll(); // the same state again: nothing new
    feed.setScheduledOutages([planned({ end: '18:00', start: '10:00' }), planned({ id: 'SO-80', date: '2026-11-26', feeder: 'F9', areas: ['Kandy'] })]);
    await poll();
    feed.setScheduledOutages([planned({ end: '18:00', start: '10:00', status: 'cancelled' })]); // SO-80 merely disappears
    await poll();
    expect(titles(gampola)).toEqual([
      'Planned outage Tue, 24 Nov 2026: Gampola',
      'Planned outage changed: Gampola',
      'Planned outage changed: Gampola',
      'Planned outage cancelled: Gampola',
    ]);
    const [, first, second] = push.messages(gampola);
    expect(first.message).toContain('end: 17:00 → 18:00');
    expect(second.message).toContain('start: 09:00 → 10:00');
    expect(titles(SYSTEM)).toHaveLength(5); // SO-80's new entry too
  });

  it('sends the daily update and the weekly digest once in their hour, and records the runs', async () => {
    feed.setScheduledOutages([
      planned({ id: 'SO-90', date: '2026-11-24', start: '08:00', end: '12:00', areas: ['Gampola', 'Nawalapitiya'] }),
      planned({ id: 'SO-91', date: '2026-11-27', feeder: 'F1', areas: ['Galle'] }),
    ]);
    clock = new Date('2026-11-23T00:45:00Z'); // Monday 06:15 in Colombo, Sunday in UTC
    await poll();
    await poll();
    const digests = titles(SYSTEM).filter((title) => title.startsWith('Planned outages'));
    expect(digests).toEqual(['Planned outages: Monday 23 November 2026', 'Planned outages, week 48 (23–29 November 2026)']);
    const weekly = push.messages(SYSTEM).find((message) => (message.title ?? '').startsWith('Planned outages, week'))!;
    // Local times of the feed's zone, the zone named: a reader never has to guess.
    expect(weekly.message).toBe(
      'Tue, 24 Nov 2026:\n  Gampola, Nawalapitiya: 08:00–12:00 GMT+5:30 (feeder F3)\nFri, 27 Nov 2026:\n  Galle: 09:00–17:00 GMT+5:30 (feeder F1)',
    );
    // The Gampola subscriber's filter matches the digests that list Gampola.
    expect(titles(gampola).filter((title) => title.startsWith('Planned outages'))).toHaveLength(2);
    const runs = await servicesOf(app).database.knex('scheduled_outage_digest_runs').orderBy('digest_type');
    expect(runs.map((run) => [run.digest_type, run.period, run.source_key])).toEqual([
      ['DailyUpdate', '2026-11-23', 'daily-2026-11-23'],
      ['WeeklyDigest', '2026-W48', 'weekly-2026-W48'],
    ]);
  });

  it('sends the day-before reminder once at the reminder hour, and nothing again after a restart', async () => {
    clock = new Date('2026-11-23T12:40:00Z'); // Monday 18:10 local: SO-90 is tomorrow
    await poll();
    expect(titles(SYSTEM).filter((title) => title.startsWith('Reminder'))).toEqual(['Reminder: planned outages tomorrow, Tuesday 24 November 2026']);
    const before = push.allMessages().length;
    await started.close();
    await start();
    await poll();
    clock = new Date('2026-11-23T00:50:00Z'); // back in the digest hour: runs are recorded, nothing repeats
    await poll();
    expect(push.allMessages().length).toBe(before);
    expect(await servicesOf(app).database.knex('scheduled_outage_reminder_runs').pluck('source_key')).toEqual(['reminder-2026-11-24']);
  });

  it('refuses to start with a time zone that does not exist, naming the key', async () => {
    await expect(buildApp({ env: { ...database.env, ScheduledOutages__TimeZone: 'Mars/Olympus' }, pluginsDir })).rejects.toThrow(
      /ScheduledOutages__TimeZone.*Mars\/Olympus/,
    );
  });
});
