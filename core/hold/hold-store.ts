import type { Knex } from 'knex';
import { EVENT_COLUMNS, type EventColumns } from '../delivery/index.ts';

/** Stores an event `held`, with how many subscriptions it would reach, by provider. */
export async function markHeld(trx: Knex.Transaction, eventId: number, reach: number, byProvider: ReadonlyMap<string, number>): Promise<void> {
  await trx('notification_events')
    .where({ id: eventId })
    .update({ hold_status: 'held', hold_count: reach, hold_by_provider: JSON.stringify(Object.fromEntries([...byProvider].sort())) });
}

/** Marks a held event released by `actor`, once (the first decision wins, on any instance); its columns, or undefined when it is not held. */
export async function releaseHeldEvent(trx: Knex.Transaction, eventId: number, actor: string): Promise<EventColumns | undefined> {
  const [row] = await trx('notification_events')
    .where({ id: eventId, hold_status: 'held' })
    .update({ hold_status: 'released', hold_decided_by: actor, hold_decided_at: trx.fn.now() })
    .returning(['id', ...EVENT_COLUMNS]);
  return row;
}

/** Marks a held event discarded by `actor`: it is never delivered. False when it is not held. */
export async function discardHeldEvent(trx: Knex.Transaction, eventId: number, actor: string): Promise<boolean> {
  const changed = await trx('notification_events')
    .where({ id: eventId, hold_status: 'held' })
    .update({ hold_status: 'discarded', hold_decided_by: actor, hold_decided_at: trx.fn.now() });
  return Number(changed) === 1;
}
