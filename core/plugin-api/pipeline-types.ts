import type { Knex } from 'knex';
import type { NotificationEvent } from './feed-types.ts';

export interface ProcessOptions {
  /**
   * The caller's transaction: a monitor persists its feed state and hands
   * over its events atomically, so a crash neither loses nor repeats them.
   */
  readonly trx?: Knex.Transaction;
  /** Wait until direct deliveries of this call are made (tests, /test, announcements). */
  readonly awaitDelivery?: boolean;
  /** Deliver to these subscriptions only, whatever their filter (the /test endpoint). */
  readonly onlySubscriptionIds?: readonly number[];
}

export interface ProcessResult {
  readonly matchedSubscriptionCount: number;
  /** Deliveries made (or queued to a transactional target such as the email outbox) by this call. */
  readonly deliveredCount: number;
  /** Ledger rows newly claimed by this call, delivered now or by the dispatcher. */
  readonly claimedCount: number;
  /** A System-scope subscription holds a live ledger row for an event of this call. */
  readonly wasSystemDelivery: boolean;
}

export interface NotificationPipeline {
  processNotificationEvents(events: readonly NotificationEvent[], options?: ProcessOptions): Promise<ProcessResult>;
}
