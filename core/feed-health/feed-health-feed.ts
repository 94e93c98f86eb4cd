import type { NotificationEvent, NotificationFeedDefinition, RenderedNotification } from '../plugin-api/feed-types.ts';
import { defineRenderer } from '../plugin-api/renderer.ts';
import { singleLine } from '../plugin-api/user-text.ts';
import type { FeedHealthRecord, HealthTransition } from './feed-health-policy.ts';

/**
 * Core's own feed of the feeds' health: a feed turning stale and
 * recovering are its events, so the alert goes through the same pipeline,
 * ledger (delivered once per SourceKey), dispatcher and push target as any
 * notification. It is not in the public catalog: nobody subscribes to it
 * through the API; `FeedHealth__AlertTopic` makes its one system
 * subscription.
 */
export const FEED_HEALTH_FEED_ID = 'core.feed-health';
const FEED_STALE = 'FeedStale';
const FEED_RECOVERED = 'FeedRecovered';

const feedHealthFeed: NotificationFeedDefinition = Object.freeze({
  id: FEED_HEALTH_FEED_ID,
  displayName: 'Feed health',
  eventTypes: Object.freeze([FEED_STALE, FEED_RECOVERED]),
  filterableFields: Object.freeze([]),
});

export interface FeedHealthPayload {
  readonly feedId: string;
  readonly feedName: string;
  /** When the poll that made the transition started (ISO 8601). */
  readonly at: string;
  readonly failedPolls: number;
  readonly lastSuccessAt: string | null;
  readonly lastError: { readonly kind: string; readonly message: string } | null;
}

/** The alert of one transition. Its SourceKey names the feed and the stale episode, so the ledger holds each alert once. */
export function feedHealthEvent(
  transition: HealthTransition,
  record: FeedHealthRecord,
  feedName: string,
  failedPolls: number,
): NotificationEvent<FeedHealthPayload> {
  const payload: FeedHealthPayload = {
    feedId: record.feedId,
    feedName,
    at: (record.lastPollAt ?? new Date(0)).toISOString(),
    failedPolls,
    lastSuccessAt: record.lastSuccessAt?.toISOString() ?? null,
    lastError: record.lastError && { kind: record.lastError.kind, message: record.lastError.message },
  };
  return {
    feedId: FEED_HEALTH_FEED_ID,
    eventType: transition === 'turned-stale' ? FEED_STALE : FEED_RECOVERED,
    sourceKey: `${record.feedId}#${record.staleEpisodes}`,
    itemKey: record.feedId,
    fields: { feed: record.feedId },
    sourcePayload: payload,
  };
}

const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function render(event: NotificationEvent): RenderedNotification {
  const p = event.sourcePayload as FeedHealthPayload;
  const name = singleLine(p.feedName);
  // One sequence id per feed: on a phone, the recovery replaces the stale notice.
  const sequenceId = `feed-health-${p.feedId}`;
  if (event.eventType === FEED_STALE) {
    return {
      title: `Feed stale: ${name}`,
      body: [
        `No poll of ${p.feedId} has succeeded for ${p.failedPolls} polls in a row.`,
        `Last success: ${p.lastSuccessAt ? minute(p.lastSuccessAt) : 'never'}.`,
        `Last error: ${p.lastError ? singleLine(`${p.lastError.kind}: ${p.lastError.message}`) : 'unknown'}`,
      ].join('\n'),
      sequenceId,
      tags: ['warning', 'satellite'],
      priority: 'High',
    };
  }
  return {
    title: `Feed recovered: ${name}`,
    body: `${p.feedId} answered again at ${minute(p.at)}, after ${p.failedPolls} failed polls.`,
    sequenceId,
    tags: ['white_check_mark'],
    priority: 'Default',
  };
}

/** What the registry needs to render and deliver the feed's events (a core feed has no monitor, config or routes). */
export const feedHealthCoreFeed = Object.freeze({
  id: FEED_HEALTH_FEED_ID,
  feed: feedHealthFeed,
  renderers: Object.freeze([defineRenderer(FEED_HEALTH_FEED_ID, [FEED_STALE, FEED_RECOVERED], render)]),
});
