import type { Knex } from 'knex';
import { pgArray as array } from '../../db/pg-array.ts';
import type { RenderedNotification } from '../../plugin-api/feed-types.ts';
import type { FeedRendering } from '../feed-rendering.ts';
import type { SubscriberPreferences } from '../../plugin-api/preferences.ts';
import type { WorkerDefinition } from '../../plugin-api/worker-types.ts';
import { eventOfRow, insertEvents, type EventColumns } from '../event-store.ts';
import { safeText } from '../safe-text.ts';
import { quietHoursOf } from './hold-claims.ts';
import { catchUpMessage, type HeldDelivery } from './quiet-hours.ts';
import { coreMessages } from '../../i18n/core-messages.ts';
import { createTranslator, intlLocale } from '../../plugin-api/messages.ts';

/** Core's event type of a catch-up (one subscription's held deliveries, told at once): never public, never matched. */
export const CATCH_UP_EVENT_TYPE = 'CatchUp';
export const CATCH_UP_WORKER = 'core.quiet-hours-release';
/** How often every instance looks for quiet hours that ended: a catch-up leaves at most this long after the end. */
export const CATCH_UP_SWEEP_SECONDS = 15;
/** Subscriptions released in one transaction. */
const SUBSCRIPTIONS_PER_RELEASE = 200;

export interface CatchUpDependencies {
  readonly db: Knex;
  /** The service clock: held rows whose `held_until` has come by it are released. */
  now(): Date;
  zoneOf(feedId: string): string;
  /** Inside the release's transaction: wakes the dispatchers once the catch-ups commit. */
  notifyDispatch(trx: Knex.Transaction): Promise<void>;
  /** Each held event as its subscriber reads it (their language, their zone); without it, the stored English one. */
  readonly rendering?: Pick<FeedRendering, 'forSubscriber'>;
}

interface HeldRow extends EventColumns {
  id: string | number;
  subscription_id: string | number;
  held_at: Date | string | null;
  created_at: Date | string;
  held_until: Date | string;
  event_id: string | number;
  rendered: RenderedNotification;
}

/**
 * Releases what quiet hours held, one transaction per bounded set of
 * subscriptions: each subscription (locked, SKIP LOCKED: two instances
 * never take the same one) gets one `CatchUp` event and one pending ledger
 * row for it, and its held rows become `merged` into that row, in the same
 * transaction. The dispatcher then delivers the catch-up like any other row
 * (retries, ledger). Returns the catch-ups made.
 */
export async function releaseCatchUps(deps: CatchUpDependencies): Promise<number> {
  let made = 0;
  for (;;) {
    const released = await deps.db.transaction((trx) => releaseSome(trx, deps));
    made += released.made;
    if (released.subscriptions < SUBSCRIPTIONS_PER_RELEASE) return made;
  }
}

async function releaseSome(trx: Knex.Transaction, deps: CatchUpDependencies): Promise<{ subscriptions: number; made: number }> {
  const now = deps.now();
  const locked = await trx.raw(
    `SELECT s.id, s.feed_id, s.provider, s.preferences FROM notification_subscriptions s
      WHERE s.id IN (SELECT DISTINCT subscription_id FROM notification_delivery_ledger
                      WHERE status = 'held' AND held_until <= ?::timestamptz LIMIT ?)
      ORDER BY s.id
      FOR NO KEY UPDATE SKIP LOCKED`,
    [now.toISOString(), SUBSCRIPTIONS_PER_RELEASE],
  );
  const subscriptions = locked.rows as Array<{ id: string | number; feed_id: string; provider: string; preferences: SubscriberPreferences | null }>;
  if (subscriptions.length === 0) return { subscriptions: 0, made: 0 };
  const heldResult = await trx.raw(
    `SELECT l.id, l.subscription_id, l.held_at, l.created_at, l.held_until, l.event_id,
            e.feed_id, e.event_type, e.source_key, e.item_key, e.fields, e.payload, e.rendered
       FROM notification_delivery_ledger l JOIN notification_events e ON e.id = l.event_id
      WHERE l.status = 'held' AND l.held_until <= ?::timestamptz AND l.subscription_id = ANY(?::bigint[])
      ORDER BY l.id`,
    [now.toISOString(), array(subscriptions.map((s) => s.id))],
  );
  const heldOf = new Map<number, HeldRow[]>();
  for (const row of heldResult.rows as HeldRow[]) {
    const list = heldOf.get(Number(row.subscription_id));
    if (list) list.push(row);
    else heldOf.set(Number(row.subscription_id), [row]);
  }
  const catchUps = subscriptions.flatMap((subscription) => {
    const held = heldOf.get(Number(subscription.id));
    if (!held) return [];
    const feedZone = deps.zoneOf(subscription.feed_id);
    // Times in the subscriber's own zone when they chose one, else their quiet hours', else the feed's.
    const zone = subscription.preferences?.timeZone ?? quietHoursOf(subscription.preferences, feedZone)?.timeZone ?? feedZone;
    // A held row is merged once: its id names the catch-up it went into, whenever its hold ended.
    const key = `catch-up-${subscription.id}-${Math.max(...held.map((row) => Number(row.id)))}`;
    const deliveries: HeldDelivery[] = held.map((row) => ({ ledgerId: Number(row.id), heldAt: new Date(row.held_at ?? row.created_at), rendered: row.rendered }));
    // Written in the subscriber's language now: the held rows' own renderings are English, so each line's title is rendered again.
    const language = subscription.preferences?.language;
    const localized = held.map((row, index) => ({ ...deliveries[index], rendered: deps.rendering?.forSubscriber(Number(row.event_id), eventOfRow(row), row.rendered, subscription.preferences) ?? row.rendered }));
    const words = { t: createTranslator(coreMessages, language), intlLocale: intlLocale(language), timeZone: zone };
    return [{ subscription, key, held, rendered: safeText(catchUpMessage(localized, words, key)) }];
  });
  if (catchUps.length === 0) return { subscriptions: subscriptions.length, made: 0 };
  const eventIds = await insertEvents(
    trx,
    catchUps.map(({ subscription, key, rendered }) => ({
      event: { feedId: subscription.feed_id, eventType: CATCH_UP_EVENT_TYPE, sourceKey: key, itemKey: key, fields: {}, sourcePayload: null },
      itemKey: key,
      rendered,
    })),
  );
  const inserted = await trx.raw(
    `INSERT INTO notification_delivery_ledger (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status)
     SELECT v.s, v.k, ?, v.f, v.k, v.e, v.p, 'pending' FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[]) AS v(s, k, f, e, p)
     ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
     RETURNING id, subscription_id`,
    [
      CATCH_UP_EVENT_TYPE,
      array(catchUps.map((c) => c.subscription.id)),
      array(catchUps.map((c) => c.key)),
      array(catchUps.map((c) => c.subscription.feed_id)),
      array(eventIds),
      array(catchUps.map((c) => c.subscription.provider)),
    ],
  );
  const catchUpOf = new Map((inserted.rows as Array<{ id: string | number; subscription_id: string | number }>).map((row) => [Number(row.subscription_id), Number(row.id)]));
  const merged = catchUps.flatMap((c) => {
    const into = catchUpOf.get(Number(c.subscription.id));
    return into === undefined ? [] : c.held.map((row) => ({ id: Number(row.id), into }));
  });
  await trx.raw(
    `UPDATE notification_delivery_ledger l SET status = 'merged', merged_into = v.catch_up
       FROM unnest(?::bigint[], ?::bigint[]) AS v(id, catch_up)
      WHERE l.id = v.id AND l.status = 'held'`,
    [array(merged.map((m) => m.id)), array(merged.map((m) => m.into))],
  );
  if (catchUpOf.size > 0) await deps.notifyDispatch(trx);
  return { subscriptions: subscriptions.length, made: catchUpOf.size };
}

/** The release as a worker every instance runs (the locks keep them apart). */
export function catchUpWorker(deps: CatchUpDependencies): WorkerDefinition {
  return {
    name: CATCH_UP_WORKER,
    intervalSeconds: CATCH_UP_SWEEP_SECONDS,
    exclusive: false,
    run: async ({ log }) => {
      const made = await releaseCatchUps(deps);
      if (made > 0) log.info({ catchUps: made }, 'quiet hours ended: catch-up messages queued');
    },
  };
}
