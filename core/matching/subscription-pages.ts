import type { Knex } from 'knex';
import type { SubscriptionScope } from '../plugin-api/delivery-types.ts';
import { pgArray } from '../plugin-api/pg-array.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

type Db = Knex | Knex.Transaction;

/** What matching and claiming need of a subscription, and what its delivery needs (when the claim hands it to the dispatcher). */
export interface SubscriptionRow {
  id: number;
  provider: string;
  /** The stored filter as JSON text (parsed only by a filter cache that has not seen it). */
  filter_text: string | null;
  public_id: string;
  display_name: string;
  feed_id: string;
  destination: string;
  scope: SubscriptionScope;
  /** What the subscriber decided (quiet hours, language, zone): `{}` when nothing. */
  preferences?: SubscriberPreferences | null;
}

const PAGE_COLUMNS = ['id', 'provider', 'public_id', 'display_name', 'feed_id', 'destination', 'scope', 'preferences'];

/** Which of a feed's subscriptions a page takes: one lane's (`provider`), or exactly these ids (a /test), else every one but the System ones. */
export interface PageScope {
  readonly provider?: string;
  readonly onlyIds?: readonly number[];
  /**
   * The cells of the events' shapes (cellsForShapes): a subscription whose
   * "where" is places alone is read only when its cells meet them. Absent
   * or null: every subscription is read.
   */
  readonly cells?: readonly string[] | null;
}
const FILTER_TEXT = 'filter_json::text AS filter_text';

/**
 * One page of a feed's active subscriptions in id order after `afterId`
 * (keyset pagination: memory stays flat however many there are): only
 * among `onlyIds` when given, else without the System ones, which the
 * hand-over claims apart (systemSubscriptions) so no page claims them
 * again; only one lane's with `provider`.
 */
export async function subscriptionPage(db: Db, feedId: string, afterId: number, limit: number, scope: PageScope = {}): Promise<SubscriptionRow[]> {
  const query = db('notification_subscriptions')
    .select(PAGE_COLUMNS)
    .select(db.raw(FILTER_TEXT))
    .where({ feed_id: feedId, is_active: true })
    .andWhere('id', '>', afterId)
    .orderBy('id')
    .limit(limit);
  if (scope.provider !== undefined) query.where('provider', scope.provider);
  if (scope.cells) query.whereRaw('(place_cells IS NULL OR place_cells && ?::bigint[])', [pgArray(scope.cells)]);
  if (scope.onlyIds) query.whereIn('id', [...scope.onlyIds]);
  else query.whereNot('scope', 'System');
  return query;
}

/** A feed's active System subscriptions (few): claimed with the hand-over, whatever page they fall on. */
export async function systemSubscriptions(db: Db, feedId: string): Promise<SubscriptionRow[]> {
  return db('notification_subscriptions')
    .select(PAGE_COLUMNS)
    .select(db.raw(FILTER_TEXT))
    .where({ feed_id: feedId, is_active: true, scope: 'System' })
    .orderBy('id');
}
