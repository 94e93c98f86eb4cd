// The feed's item types and calendar arithmetic are the feed plugins' own (type-only and pure).
import { wallClock } from '../../core/plugin-api/time-format.ts';
import type { PowerOutageItem, ScheduledOutageItem } from './feed-items.ts';
import { areaShape } from './area-shapes.ts';

/**
 * The sample utility's scripted day, as a pure function of the seconds since
 * the day began: what GET /power-outages and /scheduled-outages answer then.
 *
 * - 3 s: a power outage (PO-1001, Kandy); restored 30 s later.
 * - from the start: a scheduled outage tomorrow (SO-2001, Gampola);
 *   60 s: another the day after (SO-2002); 150 s: SO-2001 runs two hours
 *   longer; 300 s: SO-2002 is cancelled.
 * - every 120 s from then on: a new power outage somewhere else, restored
 *   45 to 90 s later. The feed keeps the latest 12 power outages, as a real
 *   feed drops old ones.
 *
 * Every item carries the shape of its areas (area-shapes.ts), for the map.
 */

/** A power outage as the feed API reports it, with the optional estimate the sample always gives. */
export type SamplePowerOutage = PowerOutageItem & { cause: string; customersAffected: number; estimatedRestoration: string | null };

export interface FeedState {
  powerOutages: SamplePowerOutage[];
  scheduledOutages: ScheduledOutageItem[];
}

const FIRST_OUTAGE_AFTER_SECONDS = 3;
const FIRST_RESTORATION_AFTER_SECONDS = 33;
const OUTAGE_EVERY_SECONDS = 120;
const DURATIONS_SECONDS = [60, 45, 75, 90];
const KEPT_POWER_OUTAGES = 12;

const PLACES = [
  { feeder: 'F12', areas: ['Kandy', 'Peradeniya'], cause: 'Fallen line', customers: 1200 },
  { feeder: 'F4', areas: ['Katugastota'], cause: 'Transformer fault', customers: 640 },
  { feeder: 'F9', areas: ['Nuwara Eliya', 'Hawa Eliya'], cause: 'Storm damage', customers: 2100 },
  { feeder: 'F15', areas: ['Matale'], cause: 'Tree on the line', customers: 380 },
  { feeder: 'F2', areas: ['Gampola', 'Nawalapitiya'], cause: 'Cable fault', customers: 950 },
  { feeder: 'F21', areas: ['Digana', 'Kundasale'], cause: 'Substation trip', customers: 1750 },
] as const;

/** Outage n of the day: when it starts and how long it lasts, in seconds since the start. */
function outageTiming(n: number): { start: number; duration: number } {
  if (n === 0) return { start: FIRST_OUTAGE_AFTER_SECONDS, duration: FIRST_RESTORATION_AFTER_SECONDS - FIRST_OUTAGE_AFTER_SECONDS };
  return { start: n * OUTAGE_EVERY_SECONDS, duration: DURATIONS_SECONDS[n % DURATIONS_SECONDS.length] };
}

const at = (startedAt: Date, seconds: number) => new Date(startedAt.getTime() + seconds * 1000).toISOString();

function powerOutage(n: number, elapsed: number, startedAt: Date): SamplePowerOutage {
  const place = PLACES[n % PLACES.length];
  const { start, duration } = outageTiming(n);
  return {
    id: `PO-${1001 + n}`,
    feeder: place.feeder,
    areas: [...place.areas],
    timeOff: at(startedAt, start),
    timeRestored: elapsed >= start + duration ? at(startedAt, start + duration) : null,
    cause: place.cause,
    customersAffected: place.customers,
    estimatedRestoration: at(startedAt, start + 2 * 3600),
    geometry: areaShape(place.areas),
  };
}

/** The local calendar date `days` after the one `instant` falls on in `timeZone`. */
export function localDatePlus(instant: Date, timeZone: string, days: number): string {
  const [year, month, day] = wallClock(instant, timeZone).date.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! + days)).toISOString().slice(0, 10);
}

function scheduledOutages(elapsed: number, startedAt: Date, timeZone: string): ScheduledOutageItem[] {
  const items: ScheduledOutageItem[] = [
    {
      id: 'SO-2001',
      date: localDatePlus(startedAt, timeZone, 1),
      start: '09:00',
      end: elapsed >= 150 ? '15:00' : '13:00',
      feeder: 'F3',
      areas: ['Gampola'],
      reason: 'Maintenance',
      status: 'scheduled',
      geometry: areaShape(['Gampola']),
    },
  ];
  if (elapsed >= 60) {
    items.push({
      id: 'SO-2002',
      date: localDatePlus(startedAt, timeZone, 2),
      start: '10:00',
      end: '16:00',
      feeder: 'F7',
      areas: ['Kandy', 'Ampitiya'],
      reason: 'Line upgrade',
      status: elapsed >= 300 ? 'cancelled' : 'scheduled',
      geometry: areaShape(['Kandy', 'Ampitiya'], 1),
    });
  }
  return items;
}

/** The feed's answers `elapsedSeconds` after the day began at `startedAt`; dates are local to `timeZone`. */
export function scriptedFeedAt(elapsedSeconds: number, startedAt: Date, timeZone: string): FeedState {
  const powerOutages: SamplePowerOutage[] = [];
  for (let n = 0; outageTiming(n).start <= elapsedSeconds; n++) powerOutages.push(powerOutage(n, elapsedSeconds, startedAt));
  return {
    powerOutages: powerOutages.slice(-KEPT_POWER_OUTAGES),
    scheduledOutages: scheduledOutages(elapsedSeconds, startedAt, timeZone),
  };
}

/** What changed from one state to the next, in words, for the demo's log. */
export function describeChanges(before: FeedState, after: FeedState): string[] {
  const lines: string[] = [];
  const earlier = new Map(before.powerOutages.map((o) => [o.id, o]));
  for (const outage of after.powerOutages) {
    const was = earlier.get(outage.id);
    const where = `${outage.areas.join(', ')} (feeder ${outage.feeder})`;
    if (!was) lines.push(`${outage.id}: power outage in ${where}${outage.timeRestored ? ', already restored' : ''}`);
    else if (outage.timeRestored && !was.timeRestored) lines.push(`${outage.id}: power restored in ${where}`);
  }
  const planned = new Map(before.scheduledOutages.map((o) => [o.id, o]));
  for (const entry of after.scheduledOutages) {
    const was = planned.get(entry.id);
    const what = `${entry.areas.join(', ')} on ${entry.date} ${entry.start}-${entry.end}`;
    if (!was) lines.push(`${entry.id}: scheduled outage in ${what}`);
    else if (entry.status === 'cancelled' && was.status !== 'cancelled') lines.push(`${entry.id}: scheduled outage cancelled`);
    else if (JSON.stringify(entry) !== JSON.stringify(was)) lines.push(`${entry.id}: scheduled outage changed to ${what}`);
  }
  return lines;
}
