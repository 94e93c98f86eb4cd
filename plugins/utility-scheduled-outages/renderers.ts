import {
  createTranslator,
  defineRenderer,
  formatLocalDate,
  intlLocale,
  loadMessages,
  localInstant,
  type NotificationEvent,
  type RenderContext,
  type SectionsConfig,
  sequenceId,
  singleLine as one,
  type Translate,
  zoneName,
} from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import type { DigestPayload, ScheduledOutageItem, UpdatedPayload } from './scheduled-types.ts';

export const SCHEDULED_OUTAGES_FEED_ID = 'utility.scheduled-outages';
type Config = SectionsConfig<typeof scheduledOutagesConfig>;

/** The plugin's own messages (locales/), for a context that brings none (a renderer called outside core). */
const ownMessages = loadMessages(new URL('./locales/', import.meta.url));

/** How one rendering writes: its messages, its dates in its language, its hours in the feed's zone (planned hours are the feed's local times). */
interface Writer {
  readonly t: Translate;
  readonly date: (date: string) => string;
  readonly hours: (item: Pick<ScheduledOutageItem, 'date' | 'start' | 'end'>) => string;
}

function writer({ config, locale, t }: RenderContext<Config>): Writer {
  const zone = config.ScheduledOutages.TimeZone;
  const intl = intlLocale(locale);
  return {
    t: t ?? createTranslator(ownMessages, locale),
    date: (date) => formatLocalDate(date, intl),
    /** `09:00–17:00 GMT+5:30`: the local times of the feed's zone, and the zone, named as it is on that date. */
    hours: (item) => `${one(item.start)}–${one(item.end)} ${zoneName(localInstant(item.date, item.start, zone), zone, intl)}`,
  };
}

const sequenceIdOf = (event: NotificationEvent) => sequenceId('so', event.itemKey ?? event.sourceKey);
// Every value from the feed is kept to one line (`one`): it can never start a line, or a label, of its own.
const where = (item: ScheduledOutageItem) => one(item.areas.join(', ')) || one(item.feeder);
const itemLines = (w: Writer, item: ScheduledOutageItem) => [
  w.t('line.date', { date: w.date(item.date), hours: w.hours(item) }),
  w.t('line.feeder', { feeder: one(item.feeder) }),
  w.t('line.areas', { areas: one(item.areas.join(', ')) || '—' }),
  ...(item.reason ? [w.t('line.reason', { reason: one(item.reason) })] : []),
];

/** Outages grouped by date, then by area, one line per outage, times in the feed's zone. */
export function digestLines(outages: readonly ScheduledOutageItem[], w: Writer): string[] {
  if (outages.length === 0) return [w.t('digest.none')];
  const byDate = new Map<string, ScheduledOutageItem[]>();
  for (const outage of [...outages].sort((a, b) => `${a.date}${a.start}`.localeCompare(`${b.date}${b.start}`))) {
    const list = byDate.get(outage.date);
    if (list) list.push(outage);
    else byDate.set(outage.date, [outage]);
  }
  return [...byDate].flatMap(([date, list]) => [
    `${w.date(date)}:`,
    ...list.map((o) => `  ${w.t('digest.line', { areas: one(o.areas.join(', ')) || '—', hours: w.hours(o), feeder: one(o.feeder) })}`),
  ]);
}

/** A period's words in the reader's language: `week 48 (23–29 November 2026)`, `tomorrow, Tuesday 24 November 2026`. */
function periodWords(payload: DigestPayload, w: Writer, locale: string | undefined): string {
  const { when } = payload;
  // In English, and for an event stored before the period came as facts: the policy's own English words.
  if (!when || (locale ?? 'en') === 'en') return payload.period;
  const intl = intlLocale(locale);
  const day = (date: string) => new Date(`${date}T12:00:00Z`);
  const long = new Intl.DateTimeFormat(intl, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const range = new Intl.DateTimeFormat(intl, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).formatRange(day(when.from), day(when.to));
  if (when.kind === 'DailyUpdate') return long.format(day(when.from));
  if (when.kind === 'DayBeforeReminder') return w.t('period.tomorrow', { date: long.format(day(when.from)) });
  return when.week !== undefined ? w.t('period.week', { week: when.week, range }) : w.t('period.weekAhead', { range });
}

// The period in the reader's words (dates the way their language writes them); English as the policy wrote it for old events.
const digest = (titleKey: string, tags: string[]) => (event: NotificationEvent, context: RenderContext<Config>) => {
  const payload = event.sourcePayload as DigestPayload;
  const w = writer(context);
  return {
    title: w.t(titleKey, { period: periodWords(payload, w, context.locale) }),
    body: digestLines(payload.outages, w).join('\n'),
    sequenceId: sequenceIdOf(event),
    tags,
    priority: 'Default' as const,
  };
};

export const scheduledOutageRenderers = [
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['NewEntry'], (event, context) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    const w = writer(context);
    return {
      title: w.t('title.newEntry', { date: w.date(item.date), place: where(item) }),
      body: itemLines(w, item).join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['calendar'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['Updated'], (event, context) => {
    const { item, changes } = event.sourcePayload as UpdatedPayload;
    const w = writer(context);
    return {
      title: w.t('title.updated', { place: where(item) }),
      body: [...changes.map((c) => w.t('line.change', { field: w.t(`field.${c.field}`), from: one(c.from), to: one(c.to) })), '', ...itemLines(w, item)].join(
        '\n',
      ),
      sequenceId: sequenceIdOf(event),
      tags: ['calendar', 'pencil2'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['Cancelled'], (event, context) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    const w = writer(context);
    return {
      title: w.t('title.cancelled', { place: where(item) }),
      body: itemLines(w, item).join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['calendar', 'x'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['ConfirmNotice'], (event, context) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    const w = writer(context);
    return {
      title: w.t('title.confirmNotice', { date: w.date(item.date), place: where(item) }),
      // When first: a text shortened to its segments keeps the day and the hours.
      body: [...itemLines(w, item), '', w.t('notice.prepare')].join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['calendar', 'warning'],
      priority: 'High',
    };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['DailyUpdate'], digest('title.daily', ['calendar'])),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['WeeklyDigest'], digest('title.weekly', ['calendar', 'spiral_calendar'])),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['DayBeforeReminder'], digest('title.reminder', ['alarm_clock'])),
];
