import { describe, expect, it } from 'vitest';
import type { NotificationEvent, RenderedNotification } from '../../core/plugin-api/index.ts';
import { coreMessages } from '../../core/i18n/index.ts';
import { createTranslator, intlLocale } from '../../core/plugin-api/messages.ts';
import { PSEUDO_LOCALE } from '../../core/plugin-api/pseudo-locale.ts';
import { catchUpMessage } from '../../core/pipeline/quiet-hours/quiet-hours.ts';
import { scheduledOutageRenderers } from '../../plugins/utility-scheduled-outages/renderers.ts';
import type { ScheduledOutageItem } from '../../plugins/utility-scheduled-outages/scheduled-types.ts';
import { untranslated } from '../helpers/pseudo-check.ts';

/** What the feed or a person gave: values, never translated. */
const DATA = ['Gampola', 'F3', 'Maintenance', 'SO-77', 'Kandy'];
/** The period's English words as the digest stored them: in en-XA they must not be what is said. */
const STORED_PERIOD = 'the stored English period words';
const lines = (message: Pick<RenderedNotification, 'title' | 'body'>) => [message.title, ...message.body.split('\n')].filter((line) => line.trim() !== '');

const item: ScheduledOutageItem = {
  id: 'SO-77',
  date: '2026-11-24',
  start: '09:00',
  end: '13:00',
  feeder: 'F3',
  areas: ['Gampola'],
  reason: 'Maintenance',
  status: 'scheduled',
};
const config = { ScheduledOutages: { TimeZone: 'Asia/Colombo' } } as never;
const scheduled = (eventType: string, sourcePayload: unknown): RenderedNotification => {
  const event: NotificationEvent = { feedId: 'utility.scheduled-outages', eventType, sourceKey: 'SO-77', itemKey: 'SO-77', fields: {}, sourcePayload };
  return scheduledOutageRenderers.find((r) => r.canRender(eventType))!.render(event, { config, locale: PSEUDO_LOCALE }) as RenderedNotification;
};

/**
 * Every kind of message read in the pseudo-locale: a word not accented came
 * from no message catalog, and a Sinhala or Tamil reader would meet it in
 * English. (The pages, the emails and a push alert of the power feed are
 * read in en-XA by test/e2e/pseudo-locale-pages.test.ts; the text-message
 * target's replies by its own sms-text-pseudo.test.ts.)
 */
describe('every message kind in the pseudo-locale en-XA', () => {
  it.each<[string, () => RenderedNotification]>([
    ['a planned outage', () => scheduled('NewEntry', item)],
    ['a planned outage changed', () => scheduled('Updated', { item, changes: [{ field: 'start', from: '08:00', to: '09:00' }] })],
    ['a planned outage cancelled', () => scheduled('Cancelled', item)],
    [
      'the daily update',
      () => scheduled('DailyUpdate', { period: STORED_PERIOD, outages: [item], when: { kind: 'DailyUpdate', from: '2026-11-23', to: '2026-11-29' } }),
    ],
    [
      'the weekly digest',
      () =>
        scheduled('WeeklyDigest', { period: STORED_PERIOD, outages: [item], when: { kind: 'WeeklyDigest', from: '2026-11-23', to: '2026-11-29', week: 48 } }),
    ],
    [
      'the day-before reminder',
      () =>
        scheduled('DayBeforeReminder', { period: STORED_PERIOD, outages: [item], when: { kind: 'DayBeforeReminder', from: '2026-11-24', to: '2026-11-24' } }),
    ],
    [
      'the quiet-hours catch-up',
      () =>
        catchUpMessage(
          [{ ledgerId: 1, heldAt: new Date('2026-11-24T02:00:00Z'), rendered: { ...scheduled('NewEntry', item), sequenceId: 'a' } }],
          { t: createTranslator(coreMessages, PSEUDO_LOCALE), intlLocale: intlLocale(PSEUDO_LOCALE), timeZone: 'Asia/Colombo' },
          'c',
        ),
    ],
  ])('%s', (_kind, render) => {
    const message = render();
    expect(lines(message).length).toBeGreaterThan(1);
    expect(untranslated(lines(message), DATA)).toEqual([]);
  });
});
