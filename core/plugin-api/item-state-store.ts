import type { Knex } from 'knex';
import { pgArray } from './pg-array.ts';
import type { FeedStore } from './feed-monitor.ts';

/** What DETECT gets from an itemStateStore: what was kept of each listed item, and of those the answer no longer lists. */
export interface ItemStates<TState> {
  /** The state kept of a listed item after the poll that last listed it; undefined for an item never seen. */
  get(id: string): TState | undefined;
  /** Items an earlier answer listed and this one does not, with their last state (each is here once: the poll after it went). */
  readonly gone: readonly { readonly id: string; readonly state: TState }[];
}

export interface ItemStateStoreSpec<TItem, TState, TChange> {
  /** The feed whose items these are (the store keeps each feed's apart). */
  readonly feedId: string;
  /** An item's id, unique in an answer. Default: its `id` property. */
  idOf?(item: TItem): string;
  /** The id of the item a change is about, so each item's next state sees its own changes. */
  itemIdOf(change: TChange): string;
  /**
   * What DETECT needs to know of a listed item next time, from what was kept
   * and the changes just found for it (`{ restored: true, notices: 2 }`).
   * Pure; the value is stored as JSON.
   */
  next(item: TItem, previous: TState | undefined, changes: readonly TChange[]): TState;
  /** The same for an item the answer no longer lists. Default: what was kept, unchanged. */
  nextGone?(id: string, previous: TState, changes: readonly TChange[]): TState;
}

/** Rows per statement: 4 parameters a row stay far under PostgreSQL's limit, and a JSON text of a few MB at most. */
const CHUNK = 5000;

/**
 * A feed store without a table of the plugin's own: core keeps one JSON
 * state per item id (feed_item_states), read and written in the monitor's
 * transaction like any feed store, so a state and the events it led to are
 * committed together, exactly once.
 */
export function itemStateStore<TItem, TState, TChange>(spec: ItemStateStoreSpec<TItem, TState, TChange>): FeedStore<TItem, ItemStates<TState>, TChange> {
  const idOf = spec.idOf ?? ((item: TItem) => String((item as { id?: unknown }).id));
  return {
    async load(trx, items) {
      const ids = items.map(idOf);
      const rows: Array<{ item_id: string; state: TState; in_feed: boolean }> = await trx('feed_item_states')
        .where({ feed_id: spec.feedId })
        .andWhere((where) => where.whereRaw('item_id = ANY(?::text[])', [pgArray(ids)]).orWhere({ in_feed: true }))
        .select('item_id', 'state', 'in_feed');
      const listed = new Set(ids);
      const known = new Map(rows.filter((row) => listed.has(row.item_id)).map((row) => [row.item_id, row.state]));
      const gone = rows.filter((row) => row.in_feed && !listed.has(row.item_id)).map((row) => ({ id: row.item_id, state: row.state }));
      return { get: (id) => known.get(id), gone };
    },
    async persist(trx, { items, state, changes, now }) {
      const byItem = new Map<string, TChange[]>();
      for (const change of changes) {
        const id = spec.itemIdOf(change);
        byItem.set(id, [...(byItem.get(id) ?? []), change]);
      }
      const rows = [
        ...items.map((item) => {
          const id = idOf(item);
          return { item_id: id, state: spec.next(item, state.get(id), byItem.get(id) ?? []), in_feed: true };
        }),
        ...state.gone.map(({ id, state: previous }) => ({
          item_id: id,
          state: spec.nextGone ? spec.nextGone(id, previous, byItem.get(id) ?? []) : previous,
          in_feed: false,
        })),
      ];
      for (let start = 0; start < rows.length; start += CHUNK) await upsertStates(trx, spec.feedId, rows.slice(start, start + CHUNK), now);
    },
  };
}

async function upsertStates(
  trx: Knex.Transaction,
  feedId: string,
  rows: readonly { item_id: string; state: unknown; in_feed: boolean }[],
  now: Date,
): Promise<void> {
  await trx.raw(
    `INSERT INTO feed_item_states AS s (feed_id, item_id, state, in_feed, first_seen_at, last_seen_at)
     SELECT ?, x.item_id, x.state, x.in_feed, ?::timestamptz, ?::timestamptz
       FROM jsonb_to_recordset(?::jsonb) AS x(item_id text, state jsonb, in_feed boolean)
     ON CONFLICT (feed_id, item_id) DO UPDATE SET
       state = EXCLUDED.state, in_feed = EXCLUDED.in_feed,
       last_seen_at = CASE WHEN EXCLUDED.in_feed THEN EXCLUDED.last_seen_at ELSE s.last_seen_at END`,
    [feedId, now, now, JSON.stringify(rows)],
  );
}
