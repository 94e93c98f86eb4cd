import { cpSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../core/paths.ts';
import { DEFAULT_PUBLISHER_TOKEN, type PushServerDouble } from '../doubles/push-server-double.ts';
import type { UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { tmpRoot } from './databases.ts';

export const E2E_JWT_SECRET = 'e2e-jwt-secret-0123456789abcdef';

/** A plugins folder with the named real plugins (end-to-end tests leave out what they do not exercise), and fixture plugins. */
export function realPluginsDir(names: string[], fixtures: string[] = []): string {
  const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
  for (const name of names) cpSync(path.join(projectRoot, 'plugins', name), path.join(dir, name), { recursive: true });
  for (const name of fixtures) cpSync(path.join(projectRoot, 'test', 'fixtures', 'plugins', name), path.join(dir, name), { recursive: true });
  return dir;
}

/** The hour of an instant in a zone (0–23), read with Intl: the same answer whatever zone the machine is in. */
export function hourIn(instant: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(instant));
}

/**
 * Scheduled-outage digests and reminders at a local hour half a day away
 * (and no notices to confirm)
 * from the service's clock (`now`, the clock the test gives the service;
 * the real one when it gives none), in the zone the test sets, so a test
 * never meets one (at its hour a digest is one more message), whatever
 * time it runs at. Tests of the digests set their hours and a clock of
 * their own.
 */
export function quietDigestHours(now: Date, timeZone: string): Record<string, string> {
  const hour = String((hourIn(now, timeZone) + 12) % 24);
  return {
    ScheduledOutages__TimeZone: timeZone,
    ScheduledOutages__DailyDigestHour: hour,
    ScheduledOutages__WeeklyDigestHour: hour,
    ScheduledOutages__ReminderHour: hour,
    // Nor a notice to confirm, which goes in the day's hours: tests of notices set their own.
    ScheduledOutages__ConfirmNoticeDays: '0',
  };
}

/**
 * The env of a service wired to the feed and push doubles, with both
 * system subscriptions. `now` is the clock the service gets (startTestApp's
 * `now`); the quiet digest hours are derived from it.
 */
export function e2eEnv(
  feed: UtilityFeedDouble,
  push: PushServerDouble,
  extra: Record<string, string> = {},
  now: () => Date = () => new Date(),
): Record<string, string> {
  return {
    ...quietDigestHours(now(), extra.ScheduledOutages__TimeZone ?? 'UTC'),
    ExternalProvider__BaseUrl: feed.baseUrl,
    ExternalProvider__ApiKey: feed.apiKey,
    Notifications__Push__BaseUrl: push.baseUrl,
    Notifications__Push__PublishToken: DEFAULT_PUBLISHER_TOKEN,
    Notifications__Push__TimeoutSeconds: '2',
    NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: 'utility.power-outages',
    NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: 'utility-power-outages',
    NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: 'utility.scheduled-outages',
    NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: 'utility-scheduled-outages',
    NotificationPipeline__DeliveryLeaseSeconds: '2',
    SubscriptionLimits__MaxPerIp: '100',
    SubscriptionLimits__MaxPerIpPerDay: '100',
    Jwt__Secret: E2E_JWT_SECRET,
    // The test's clock (faked in the any-hour runs), not the database's real one.
    Server__ClockFollowsDatabase: 'false',
    ...extra,
  };
}

/** The env of a service process a kill test starts and kills: the power-outage monitor on (polled once at start), the other feed's system subscription off. */
export function killTestEnv(
  feed: UtilityFeedDouble,
  push: PushServerDouble,
  databaseEnv: Record<string, string>,
  extra: Record<string, string> = {},
): Record<string, string> {
  // A separate process on the real clock: its quiet hours come from the real clock too (e2eEnv's default).
  return e2eEnv(feed, push, {
    ...databaseEnv,
    PowerOutages__Enabled: 'true',
    PowerOutages__PollingIntervalSeconds: '3600',
    NotificationPipeline__DispatchIntervalSeconds: '1',
    // Long enough that a loaded machine (the suite's other files beside it) cannot starve the heartbeat past a
    // lease, which would let the same process send a row twice before the kill; the successor waits it out.
    NotificationPipeline__DeliveryLeaseSeconds: '5',
    NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: '',
    NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: '',
    ...extra,
  });
}
