import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import { activeSubscriptionCount, matchCounts, totalOf, type FilterCache } from '../matching/index.ts';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import { markHeld } from './hold-store.ts';

export interface HoldRules {
  readonly filters: FilterCache;
  /** NotificationPipeline__HoldAboveSubscriptions: 0 holds nothing. */
  readonly above: number;
  /** The fan-out's page size: counting reads pages of this many subscriptions. */
  readonly pageSize: number;
  readonly log: FastifyBaseLogger;
}

/**
 * Events of one feed that would reach more subscriptions than the
 * threshold are stored `held`, with their count, for an operator to
 * release or discard; their ids are returned (they claim nothing). A feed
 * with no more active subscriptions than the threshold costs one count.
 */
export async function holdAboveThreshold(
  trx: Knex.Transaction,
  rules: HoldRules,
  feedId: string,
  events: ReadonlyArray<{ readonly eventId: number; readonly event: NotificationEvent }>,
): Promise<Set<number>> {
  const held = new Set<number>();
  if (rules.above <= 0 || (await activeSubscriptionCount(trx, feedId)) <= rules.above) return held;
  // Counting stops once every event is over the threshold: bounded by what the question needs.
  const counts = await matchCounts(
    trx,
    rules.filters,
    feedId,
    events.map((entry) => entry.event),
    rules.pageSize,
    rules.above,
  );
  for (const [index, entry] of events.entries()) {
    const reach = totalOf(counts[index]!);
    if (reach <= rules.above) continue;
    await markHeld(trx, entry.eventId, reach, counts[index]!);
    held.add(entry.eventId);
    rules.log.warn(
      { feedId, eventType: entry.event.eventType, sourceKey: entry.event.sourceKey, subscriptions: reach, holdAbove: rules.above },
      'event held for an operator: it would reach more subscriptions than NotificationPipeline__HoldAboveSubscriptions',
    );
  }
  return held;
}
