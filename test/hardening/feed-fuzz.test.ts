import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { capSchemaErrors } from '../helpers/cap-validation.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { parseWithIcalJs } from '../helpers/ics-parsers.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { pluginModule } from '../helpers/plugin-module.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

/** Any character no output line may carry: C0, C1, DEL, line and paragraph separators, bidirectional overrides and isolates. */
/** What the fuzz needs of the email plugin's composer. */
interface EmailComposerLike {
  compose(message: { kind: 'notification'; template: string; params: Record<string, string> }): Promise<{ text: string; html: string }>;
}

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const POWER_LABELS = /^(Feeder|Areas|Since|Estimated restoration|Cause|Off|Restored): /;
/** What core adds to a restoration: a blank line, then "still without power?" with the service's own link (never the feed's text). */
const STILL_OUT = /\n\nStill without power\? Tell us: https?:\/\/[^\s/]+\/still-out#[1-9][0-9]*\.[A-Za-z0-9_-]{43}$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Text a feed may send: any graphemes (scripts, emoji, bidirectional text), no controls.
const text = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength }).filter((value) => !CONTROL.test(value) && value.isWellFormed());
// Free text as feeds write it: possibly over several lines (TAB, CR and LF are whitespace, each run one space once read).
const freeText = (maxLength: number) =>
  fc.tuple(text(maxLength), fc.constantFrom('', '', '\n', '\r\n', '\t', '\r\n\r\n'), text(maxLength)).map(([a, gap, b]) => (gap ? `${a}${gap}${b}` : a));
const folded = (value: string) => value.replace(/[\t\r\n]+/g, ' ');
const instant = (min: string, max: string) => fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true }).map((date) => date.toISOString());
// Fields a feed may add that the schema does not name: any JSON, controls and lone surrogates included.
const unknownFields = fc.dictionary(
  fc
    .string({ maxLength: 8 })
    .filter((key) => !['id', 'feeder', 'areas', 'timeOff', 'timeRestored', 'cause', 'customersAffected', 'estimatedRestoration', '__proto__'].includes(key)),
  fc.jsonValue({ maxDepth: 4 }),
  { maxKeys: 3 },
);
const goodOutage = fc.record({
  feeder: freeText(10),
  areas: fc.array(text(20), { maxLength: 3 }),
  timeOff: instant('1900-01-02T00:00:00Z', '9999-12-30T00:00:00Z'),
  timeRestored: fc.option(instant('1900-01-02T00:00:00Z', '9999-12-30T00:00:00Z'), { nil: null }),
  cause: fc.option(freeText(20), { nil: null }),
  customersAffected: fc.option(fc.integer({ min: 0, max: 2_147_483_647 }), { nil: null }),
  extra: unknownFields,
});
/** How a good item is made bad: one defect each, of every kind a feed item can have. */
const DEFECTS: Record<string, (item: Record<string, unknown>) => void> = {
  nul: (item) => void (item.feeder = `${item.feeder}\u0000`),
  'lone surrogate': (item) => void (item.areas = [...(item.areas as string[]), 'x\ud800']),
  // TAB, CR and LF are whitespace (one space per run); a vertical tab is a control character.
  'vertical tab in the id': (item) => void (item.id = `${item.id}\u000bUID:forged`),
  'terminal escape': (item) => void (item.cause = 'a\u001b[31mb'),
  'line separator': (item) => void (item.feeder = `${item.feeder}\u2028Bcc: x`),
  'count past int': (item) => void (item.customersAffected = 3_000_000_000),
  'negative count': (item) => void (item.customersAffected = -1),
  'year 0000': (item) => void (item.timeOff = '0000-01-01T00:00:00Z'),
  'year 10000': (item) => void (item.timeOff = '+010000-01-01T00:00:00Z'),
  'no offset': (item) => void (item.timeOff = '2026-11-22T08:15:00'),
  'wrong type': (item) => void (item.areas = 'Kandy'),
  'nested deeper': (item) => void (item.areas = [['Kandy']]),
  'field missing': (item) => void delete item.feeder,
  'id too long': (item) => void (item.id = `${item.id}${'x'.repeat(200)}`),
};
const answerArbitrary = fc.array(
  fc.record({ base: goodOutage, defect: fc.option(fc.constantFrom(...Object.keys(DEFECTS)), { nil: null, freq: 2 }), duplicate: fc.boolean() }),
  { maxLength: 12 },
);
const plannedArbitrary = fc.array(
  fc.record({
    date: fc
      .date({ min: new Date('2026-11-23T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10)),
    feeder: text(20),
    areas: fc.array(text(20), { maxLength: 3 }),
    reason: fc.option(text(40), { nil: null }),
    defect: fc.option(fc.constantFrom('nul', 'vt', 'year'), { nil: null }),
  }),
  { maxLength: 6 },
);

/**
 * A property-based test of feed answers through the real service: random answers of good and bad items, and every poll must succeed,
 * store every good item and no bad one, and give outputs (push, email text
 * and HTML, Atom, CAP, iCalendar) that parse and hold no injected line.
 */
describe('fuzzed feed answers', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  let app: FastifyInstance;
  let topic = '';
  // The service's clock: a second further on each run (the calendar lists what the latest poll showed, by its time).
  let clock = new Date('2026-11-22T04:00:00Z');
  const now = () => clock;
  const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
  // The email plugin's composer (none when it is not installed: the email checks are left out).
  let composer: EmailComposerLike | null;
  const atomParser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'entry' });

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
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
          ScheduledOutages__Enabled: 'true',
          ScheduledOutages__PollingIntervalSeconds: '3600',
          NotificationPipeline__CooldownSeconds: '0',
        },
        now,
      ),
    });
    app = started.app;
    const emailModule = await pluginModule<{ EmailComposer: new (options: object) => EmailComposerLike }>('delivery-email', 'email-composer.ts');
    composer =
      emailModule &&
      new emailModule.EmailComposer({ publicBaseUrl: 'https://alerts.example.org', unsubscribeToken: () => 'token', feeds: servicesOf(app).feeds });
    await servicesOf(app).workers.runNow('utility-power-outages.monitor');
    await servicesOf(app).workers.runNow('utility-scheduled-outages.monitor');
    topic = (
      await app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'All', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
      })
    ).json().delivery.destination;
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it('never fails a poll, stores every good item and no bad one, and every output parses with no injected line', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(answerArbitrary, plannedArbitrary, async (generated, plannedGenerated) => {
        run += 1;
        clock = new Date(clock.getTime() + 1000);
        const good: Array<Record<string, unknown>> = [];
        const bad: string[] = [];
        const answer: Array<Record<string, unknown>> = [];
        generated.forEach(({ base, defect, duplicate }, n) => {
          const { extra, ...fields } = base;
          const item: Record<string, unknown> = { ...extra, ...fields, id: `${defect ? 'B' : 'G'}${run}-${n}` };
          if (defect) {
            DEFECTS[defect](item);
            bad.push(`B${run}-${n}`);
          } else good.push(item);
          answer.push(item);
          // The same id again, later in the answer: left out, the first one stays.
          if (duplicate && good.length > 0) answer.push({ ...good[0], feeder: 'the second of an id' });
        });
        const planned = plannedGenerated.map(({ defect, ...item }, n) => ({
          ...item,
          id: `${defect ? 'PB' : 'PG'}${run}-${n}${defect === 'vt' ? '\u000bBEGIN:VEVENT' : ''}`,
          start: '09:00',
          end: '17:00',
          status: 'scheduled',
          ...(defect === 'nul' ? { feeder: 'F\u0000' } : defect === 'year' ? { date: '0000-11-24' } : {}),
        }));
        feed.setPowerOutages(answer);
        feed.setScheduledOutages(planned);
        const messagesBefore = push.messages(topic).length;
        await servicesOf(app).workers.runNow('utility-power-outages.monitor', { force: true });
        await servicesOf(app).workers.runNow('utility-scheduled-outages.monitor', { force: true });
        await servicesOf(app).dispatcher.settle();

        // No poll failed.
        const feeds = (await app.inject({ url: '/api/admin/feeds', headers: admin })).json() as Array<{ consecutiveFailures: number }>;
        expect(feeds.map((entry) => entry.consecutiveFailures)).toEqual([0, 0]);
        // Every good item stored as sent (the first of an id; its line breaks spaces), no bad one.
        const stored = await servicesOf(app)
          .database.knex('power_outages')
          .where('id', 'like', `G${run}-%`)
          .orWhere('id', 'like', `B${run}-%`)
          .select('id', 'feeder');
        expect(stored.map((row) => row.id).sort()).toEqual(good.map((item) => item.id).sort());
        for (const item of good) expect(stored.find((row) => row.id === item.id)?.feeder).toBe(folded(item.feeder as string));
        const storedPlanned = await servicesOf(app).database.knex('scheduled_outages').where('id', 'like', `P_${run}-%`).pluck('id');
        expect(storedPlanned.sort()).toEqual(
          planned
            .filter((item) => item.id.startsWith('PG'))
            .map((item) => item.id)
            .sort(),
        );

        // Push: one message per good item, each title one clean line, each body line a labelled fact of its own.
        const messages = push.messages(topic).slice(messagesBefore);
        expect(messages).toHaveLength(good.length);
        for (const message of messages) {
          expect(message.title ?? '').not.toMatch(UNSAFE);
          const body = (message.message ?? '').replace(STILL_OUT, '');
          const lines = body.split('\n');
          for (const line of lines) expect(line).toMatch(POWER_LABELS);
          expect(new Set(lines.map((line) => line.split(':')[0])).size).toBe(lines.length);
          // Email of the same rendering: the text part's body is those lines, the HTML bolds exactly those labels.
          if (!composer) continue;
          const email = await composer.compose({
            kind: 'notification',
            template: 'utility.power-outages/NewOutage',
            params: { title: message.title ?? '', body, name: 'All', publicId: 'p' },
          });
          const textLines = email.text.split('\n');
          expect(textLines.slice(2, 2 + lines.length)).toEqual(lines);
          expect(textLines[2 + lines.length]).toBe('');
          expect(email.html.match(/<strong>/g)).toHaveLength(lines.length);
          expect(email.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
        }

        // Atom and CAP: parse, and one entry per stored event, text clean.
        const atom = atomParser.parse((await app.inject('/api/notification-feeds/utility.power-outages/atom.xml')).body) as {
          feed: { entry?: Array<{ title: { '#text': string } }> };
        };
        for (const entry of atom.feed.entry ?? []) expect(entry.title['#text']).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
        if (good.length > 0) {
          const [event] = await servicesOf(app)
            .database.knex('notification_events')
            .where({ feed_id: 'utility.power-outages', source_key: good[0].id })
            .pluck('id');
          const cap = await app.inject(`/api/notification-events/${event}/cap.xml`);
          expect(await capSchemaErrors(cap.body)).toEqual([]);
        }

        // iCalendar: parses; one VEVENT per good planned item; every unfolded line is a property of its own.
        const ics = (await app.inject('/api/notification-feeds/utility.scheduled-outages/calendar.ics')).body;
        expect(
          parseWithIcalJs(ics)
            .events.map((event) => event.uid.split('@')[0])
            .sort(),
        ).toEqual(storedPlanned.sort());
        for (const line of ics
          .replace(/\r\n[ \t]/g, '')
          .split('\r\n')
          .filter(Boolean)) {
          expect(line).toMatch(
            /^(BEGIN|END|VERSION|PRODID|NAME|X-WR-CALNAME|REFRESH-INTERVAL|X-PUBLISHED-TTL|UID|SEQUENCE|DTSTAMP|DTSTART|DTEND|SUMMARY|LOCATION|DESCRIPTION|STATUS|LAST-MODIFIED|TZID|TZOFFSETFROM|TZOFFSETTO|TZNAME|X-LIC-LOCATION)[;:]/,
          );
        }
      }),
      { numRuns: 150, endOnFailure: true },
    );
  }, 120_000);
});
