import type { Knex } from 'knex';
import { lockEndedHolds, mergeIntoCatchUps } from '../../ledger/index.ts';
import type { SubscriberRendering } from '../../delivery/index.ts';
import type { SubscriberPreferences } from '../../plugin-api/preferences.ts';
import type { WorkerDefinition } from '../../plugin-api/worker-types.ts';
import { eventOfRow, insertEvents } from '../event-store.ts';
import { safeText } from '../safe-text.ts';
import { quietHoursOf } from './hold-claims.ts';
import { catchUpMessage, type HeldDelivery } from './quiet-hours.ts';
import { coreMessages, createTranslator, intlLocale } from '../../i18n/index.ts';

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
  /** Inside the release's transaction: wakes these lanes once the catch-ups commit. */
  notifyLanes(trx: Knex.Transaction, providers: Iterable<string>): Promise<void>;
  /** Each held event as its subscriber reads it (their language, their zone); without it, the stored English one. */
  readonly rendering?: SubscriberRendering;
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
  const { subscriptions, held: heldRows } = await lockEndedHolds(trx, now, SUBSCRIPTIONS_PER_RELEASE);
  if (subscriptions.length === 0) return { subscriptions: 0, made: 0 };
  const heldOf = new Map<number, typeof heldRows>();
  for (const row of heldRows) {
    const list = heldOf.get(Number(row.subscription_id));
    if (list) list.push(row);
    else heldOf.set(Number(row.subscription_id), [row]);
  }
  const catchUps = subscriptions.flatMap((subscription) => {
    const held = heldOf.get(Number(subscription.id));
    if (!held) return [];
    const preferences = subscription.preferences as SubscriberPreferences | null;
    const feedZone = deps.zoneOf(subscription.feed_id);
    // Times in the subscriber's own zone when they chose one, else their quiet hours', else the feed's.
    const zone = preferences?.timeZone ?? quietHoursOf(preferences, feedZone)?.timeZone ?? feedZone;
    // A held row is merged once: its id names the catch-up it went into, whenever its hold ended.
    const key = `catch-up-${subscription.id}-${Math.max(...held.map((row) => Number(row.id)))}`;
    const deliveries: HeldDelivery[] = held.map((row) => ({
      ledgerId: Number(row.id),
      heldAt: new Date(row.held_at ?? row.created_at),
      rendered: row.rendered,
    }));
    // Written in the subscriber's language now: the held rows' own renderings are English, so each line's title is rendered again.
    const language = preferences?.language;
    const localized = held.map((row, index) => ({
      ...deliveries[index]!,
      rendered: deps.rendering?.forSubscriber(Number(row.event_id), eventOfRow(row), row.rendered, preferences) ?? row.rendered,
    }));
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
  const made = await mergeIntoCatchUps(
    trx,
    CATCH_UP_EVENT_TYPE,
    catchUps.map((c, index) => ({
      subscriptionId: Number(c.subscription.id),
      feedId: c.subscription.feed_id,
      provider: c.subscription.provider,
      sourceKey: c.key,
      eventId: eventIds[index]!,
      heldIds: c.held.map((row) => Number(row.id)),
    })),
  );
  if (made > 0) await deps.notifyLanes(trx, new Set(catchUps.map((c) => c.subscription.provider)));
  return { subscriptions: subscriptions.length, made };
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
