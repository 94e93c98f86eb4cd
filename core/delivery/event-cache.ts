import type { Knex } from 'knex';
import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import { EVENT_COLUMNS, eventOfRow } from './event-row.ts';

export interface StoredEvent {
  readonly event: NotificationEvent;
  readonly rendered: RenderedNotification;
}

type Db = Knex | Knex.Transaction;
const CACHE_SIZE = 1000;

/**
 * The stored events of leased rows and their (English) renderings. Events
 * never change once stored, so a batch reads each distinct event once and
 * recent ones come from memory; every lane shares one cache.
 */
export class EventCache {
  readonly #events = new Map<number, StoredEvent>();

  async eventsOf(db: Db, ids: Iterable<number>): Promise<Map<number, StoredEvent>> {
    const found = new Map<number, StoredEvent>();
    const missing = new Set<number>();
    for (const id of ids) {
      const cached = this.#events.get(id);
      if (cached) found.set(id, cached);
      else missing.add(id);
    }
    if (missing.size > 0) {
      const rows = await db('notification_events')
        .select('id', 'rendered', ...EVENT_COLUMNS)
        .whereIn('id', [...missing]);
      for (const row of rows) {
        const stored: StoredEvent = { event: eventOfRow(row), rendered: row.rendered as RenderedNotification };
        found.set(Number(row.id), stored);
        this.#remember(Number(row.id), stored);
      }
    }
    return found;
  }

  #remember(id: number, stored: StoredEvent): void {
    if (this.#events.size >= CACHE_SIZE) this.#events.delete(this.#events.keys().next().value!);
    this.#events.set(id, stored);
  }
}
