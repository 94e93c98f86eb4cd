import { expect } from 'vitest';
import { dueDigests, type DigestKind, type DigestSchedule, type DueDigest } from './digest-gating.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

/** Shared by the table tests of the digest gating policy (digest-gating*.test.ts). */
export const DEFAULTS: DigestSchedule = { timeZone: 'UTC', dailyDigestHour: 6, weeklyDigestDay: 'Monday', weeklyDigestHour: 7, reminderHour: 18 };
export const schedule = (overrides: Partial<DigestSchedule> = {}): DigestSchedule => ({ ...DEFAULTS, ...overrides });
export const NONE: ReadonlySet<string> = new Set();

let seq = 0;
export const outage = (date: string, overrides: Partial<ScheduledOutageItem> = {}): ScheduledOutageItem => ({
  id: `so-${++seq}`,
  date,
  start: '09:00',
  end: '13:00',
  feeder: 'F1',
  areas: ['Kandy'],
  status: 'scheduled',
  ...overrides,
});

export const kinds = (due: DueDigest[]) => due.map((d) => d.kind);
export const only = (due: DueDigest[], kind: DigestKind) => {
  const found = due.filter((d) => d.kind === kind);
  expect(found, `exactly one ${kind}`).toHaveLength(1);
  return found[0];
};
export const run = (now: string, s: DigestSchedule = DEFAULTS, outages: readonly ScheduledOutageItem[] = [], runs: ReadonlySet<string> = NONE) =>
  dueDigests(new Date(now), s, outages, runs);
