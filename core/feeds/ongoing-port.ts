import type { Knex } from 'knex';
import { filterMatchOf } from '../plugins/filter-fields.ts';
import { pgArray } from '../plugin-api/pg-array.ts';
import type { OngoingPort, OngoingSummary } from '../plugin-api/core-ports.ts';
import type { FeedCatalogPort } from '../plugin-api/feed-presentation.ts';
import type { OngoingItem } from '../plugin-api/feed-types.ts';
import type { FeedPluginContext, FeedPluginManifest } from '../plugin-api/manifest.ts';
import { compileFilter, type FilterMatchOf, type SubscriptionFilter } from '../matching/index.ts';

/** A subscription as matching needs it. */
export interface SubscriptionInterest {
  readonly feedId: string;
  readonly filter: SubscriptionFilter | null;
}

/**
 * Which ongoing items concern some subscriptions (pure): each feed's items
 * that match at least one of its subscriptions' filters, once each, in the
 * feed's order.
 */
export function ongoingFor(
  interests: readonly SubscriptionInterest[],
  itemsOf: ReadonlyMap<string, readonly OngoingItem[]>,
  feedName: (feedId: string) => string,
  matchOf: FilterMatchOf = () => 'contains',
): OngoingSummary[] {
  const summaries: OngoingSummary[] = [];
  for (const [feedId, items] of itemsOf) {
    const filters = interests
      .filter((interest) => interest.feedId === feedId)
      .map((interest) => compileFilter(interest.filter, (fieldId) => matchOf(feedId, fieldId)));
    for (const item of items) {
      if (filters.some((matches) => matches(item.event))) summaries.push({ feedId, feedName: feedName(feedId), summary: item.summary });
    }
  }
  return summaries;
}

/**
 * The `ongoing` port of delivery plugins: reads the subscriptions' feeds
 * and filters, asks each of those feeds that offers `ongoing` (in its own
 * context), and matches. Feed contexts (by plugin id) are read when asked:
 * they are made after the delivery plugins'.
 */
export function createOngoingPort(
  db: Knex,
  feeds: readonly FeedPluginManifest[],
  feedContexts: () => ReadonlyMap<string, FeedPluginContext>,
  catalog: FeedCatalogPort,
): OngoingPort {
  const byId = new Map(feeds.map((manifest) => [manifest.feed.id, manifest]));
  const matchOf = filterMatchOf(feeds.map((manifest) => manifest.feed));
  return {
    async forSubscriptions(subscriptionIds, language) {
      if (subscriptionIds.length === 0) return [];
      const result = await db.raw('SELECT feed_id, filter_json FROM notification_subscriptions WHERE id = ANY(?::bigint[])', [
        pgArray([...new Set(subscriptionIds)]),
      ]);
      const interests = (result.rows as Array<{ feed_id: string; filter_json: SubscriptionFilter | string | null }>).map((row) => ({
        feedId: row.feed_id,
        filter: typeof row.filter_json === 'string' ? (JSON.parse(row.filter_json) as SubscriptionFilter) : row.filter_json,
      }));
      const itemsOf = new Map<string, readonly OngoingItem[]>();
      for (const feedId of new Set(interests.map((interest) => interest.feedId))) {
        const manifest = byId.get(feedId);
        const context = manifest && feedContexts().get(manifest.id);
        if (manifest?.ongoing && context) itemsOf.set(feedId, await manifest.ongoing(context, language));
      }
      return ongoingFor(interests, itemsOf, (feedId) => catalog.get(feedId, language)?.displayName ?? feedId, matchOf);
    },
  };
}
