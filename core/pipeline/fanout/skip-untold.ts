import type { Knex } from 'knex';
import { EVENT_COLUMNS, eventOfRow, type EventColumns } from '../../delivery/index.ts';
import { skipClaimed, toldBefore } from '../../ledger/index.ts';
import type { NotificationEvent } from '../../plugin-api/feed-types.ts';
import { BUDGET_WINDOW_HOURS, whyNotTell, type TellingRules } from './telling.ts';

/** A freshly claimed row, with the event it carries. */
export interface FreshRow {
  readonly id: number;
  readonly subscriptionId: number;
  readonly event: NotificationEvent;
  readonly itemKey: string;
}

/**
 * Skips the fresh rows its subscriber is not to be told (whyNotTell: the
 * budget per item, the feed's policy), given what the ledger says each was
 * told of the item before; the stored events told last are read once
 * each, only for a feed with a policy. Returns the ids skipped.
 */
export async function skipUntold(trx: Knex.Transaction, rules: TellingRules, fresh: readonly FreshRow[]): Promise<Set<number>> {
  // An item's end always goes: a restoration's fan-out asks the ledger nothing more.
  const rows = fresh.filter((row) => !rules.endTypes.has(row.event.eventType) && row.event.confirmBy === undefined);
  if (rows.length === 0) return new Set();
  const told = await toldBefore(trx, rows, BUDGET_WINDOW_HOURS);
  const lastIds = new Set([...told.values()].flatMap((t) => (t.lastEventId === null ? [] : [t.lastEventId])));
  const last = new Map<number, NotificationEvent>();
  if (rules.worthTelling && lastIds.size > 0) {
    const stored = (await trx('notification_events')
      .select('id', ...EVENT_COLUMNS)
      .whereIn('id', [...lastIds])) as Array<EventColumns & { id: string | number }>;
    for (const row of stored) last.set(Number(row.id), eventOfRow(row));
  }
  const skips = rows.flatMap((row) => {
    const before = told.get(row.id);
    const lastTold = before?.lastEventId == null ? undefined : last.get(before.lastEventId);
    const why = whyNotTell(row.event, { count: before?.count ?? 0, lastTold }, rules);
    return why ? [{ id: row.id, ...why }] : [];
  });
  await skipClaimed(trx, skips);
  return new Set(skips.map((skip) => skip.id));
}
