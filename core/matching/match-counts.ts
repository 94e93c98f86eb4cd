import type { Knex } from 'knex';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import { cellsForShapes } from '../places/index.ts';
import { subscriptionPage, systemSubscriptions, type SubscriptionRow } from './subscription-pages.ts';
import type { FilterCache } from './subscription-filter.ts';
import { takesEvent } from './confirm-only.ts';

type Db = Knex | Knex.Transaction;

/** Active subscriptions of a feed, System ones included: what no event of it can exceed. */
export async function activeSubscriptionCount(db: Db, feedId: string): Promise<number> {
  const [row] = await db('notification_subscriptions').where({ feed_id: feedId, is_active: true }).count({ n: '*' });
  return Number(row?.n ?? 0);
}

/**
 * How many active subscriptions of a feed each event reaches, by provider:
 * the fan-out's own matching (compiled filters over the feed's
 * subscriptions, page by page in id order, System ones included), without
 * claiming anything. Memory stays bounded by the page size.
 */
export async function matchCounts(
  db: Db,
  filters: FilterCache,
  feedId: string,
  events: readonly NotificationEvent[],
  pageSize: number,
  /** Stop once every event reaches more than this (its count is then a lower bound): the hold's question needs no more. */
  enoughAbove = Number.POSITIVE_INFINITY,
): Promise<Array<Map<string, number>>> {
  const counts = events.map(() => new Map<string, number>());
  const tally = (page: readonly SubscriptionRow[]) => {
    for (const row of page) {
      const matches = filters.ofText(feedId, row.filter_text);
      events.forEach((event, index) => {
        if (matches(event) && takesEvent(event, row.preferences)) counts[index].set(row.provider, (counts[index].get(row.provider) ?? 0) + 1);
      });
    }
  };
  tally(await systemSubscriptions(db, feedId));
  const enough = () => counts.every((byProvider) => totalOf(byProvider) > enoughAbove);
  const cells = cellsForShapes(events.map((event) => event.geometry));
  for (let after = 0; !enough(); ) {
    const page = await subscriptionPage(db, feedId, after, pageSize, { cells });
    tally(page);
    if (page.length < pageSize) break;
    after = Number(page.at(-1)!.id);
  }
  return counts;
}

/** The total of a by-provider count. */
export const totalOf = (byProvider: ReadonlyMap<string, number>) => [...byProvider.values()].reduce((sum, n) => sum + n, 0);
