import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { SubscriptionRecipient } from './delivery-types.ts';

export type Caller = { readonly kind: 'anonymous' } | { readonly kind: 'user'; readonly userId: string; readonly admin: boolean };

export interface SubscriptionState extends SubscriptionRecipient {
  readonly isActive: boolean;
  /** An email subscription whose address is not verified yet. */
  readonly pendingVerification: boolean;
}

/**
 * What a delivery plugin may read and change of core's subscriptions
 * (verification, unsubscribe, skipping mail to a stopped subscription).
 * Plugins never query core's tables themselves.
 */
export interface SubscriptionAccess {
  find(publicId: string, trx?: Knex.Transaction): Promise<SubscriptionState | undefined>;
  /** Active: verified and receiving. Inactive: unsubscribed (no longer awaiting verification either). Several ids: one statement. */
  setActive(subscriptionId: number | readonly number[], active: boolean, trx?: Knex.Transaction): Promise<void>;
  /** Which of these subscriptions are active now (one query). */
  activeAmong(subscriptionIds: readonly number[], trx?: Knex.Transaction): Promise<Set<number>>;
  /**
   * Every subscription of this provider to this destination (all of one
   * phone number's: its STOP reply stops them all), oldest first.
   */
  byDestination(provider: string, destination: string, trx?: Knex.Transaction): Promise<SubscriptionState[]>;
  /**
   * The subscription a request may manage (its manage token in
   * `X-Subscription-Token`, its owner's bearer token, an admin's), for a
   * plugin's route under `/api/notification-subscriptions/{publicId}/`:
   * 404 when there is none, 401 without credentials, 403 with others'.
   */
  authorize(publicId: string, request: FastifyRequest): Promise<SubscriptionState>;
}

/** What a feed says is going on now, for one of the subscriptions asked about. */
export interface OngoingSummary {
  readonly feedId: string;
  /** The feed's display name. */
  readonly feedName: string;
  /** One line, the feed's words (`Kandy, Peradeniya: no power since 10:05`). */
  readonly summary: string;
}

/**
 * What is going on now that matters to some subscriptions (an SMS STATUS
 * reply): core asks each of their feeds for its ongoing items and keeps
 * those matching a subscription's filter. A feed that keeps no current
 * state (it offers no `ongoing`) has nothing to say.
 */
export interface OngoingPort {
  /** The items in `language` (a code of `GET /api/locales`; English when absent): the feed's name and each feed's summaries. */
  forSubscriptions(subscriptionIds: readonly number[], language?: string): Promise<readonly OngoingSummary[]>;
}

/**
 * "Still out?": a subscriber told that an item ended (a restoration) who
 * answers that it has not (OUT by SMS). Core records one report per
 * subscription and item, on the latest such message each of these
 * subscriptions got (in the last 72 hours), and never changes the feed's state.
 */
export interface StillOutPort {
  /** Reports by a reply from these subscriptions (one phone number's): how many were recorded now, and how many were in already. */
  reportByReply(subscriptionIds: readonly number[]): Promise<{ readonly recorded: number; readonly already: number }>;
}

/**
 * Confirmations (a subscriber who must confirm each urgent alert): what a
 * target tells core when the person answers in its own way.
 */
export interface ConfirmationPort {
  /** The person confirmed the alert a delivery asked about (1 pressed in its call): true when that settled an open confirmation. */
  confirmDelivery(ledgerId: number, via: 'key' | 'reply'): Promise<boolean>;
  /** A reply (YES) from this destination confirms every open alert a message of this provider asked it about in the last week: how many. */
  confirmByReply(provider: string, destination: string): Promise<number>;
}

/**
 * The plugin's own delivery lane, for what the plugin sends outside the
 * ledger (the email outbox's emails, SMS verification texts): the lane's
 * rate (NotificationPipeline__Rates__<Provider>, or the manifest's
 * default) and its pause hold for those sends too, on every instance, so
 * the peer sees one pace.
 */
export interface LanePort {
  /** Milliseconds until the lane's pause ends (0: not paused). */
  pausedForMs(): number;
  /** The peer said to slow down (a 429, SMTP 421/451/454): pauses the lane on every instance, for `retryAfterSeconds` or 1 s doubling while it repeats. */
  pause(retryAfterSeconds?: number, because?: string): Promise<void>;
  /** Waits out a pause and then for the lane's next send slot: true when one send may go now, false when `signal` aborted first. */
  nextSlot(signal?: AbortSignal): Promise<boolean>;
}

/** The final outcome of a delivery a transactional target took. */
export interface QueuedOutcome {
  readonly ledgerId: number;
  readonly kind: 'delivered' | 'failed';
  readonly reason?: string;
}

/** The delivery ledger as a transactional target sees it: rows it took are `queued` until it settles them. */
/** What a peer said of a delivery after it took it (a carrier's report), or that its destination is gone. */
export interface LaterOutcome {
  /** The ledger row of the delivery (`DeliveryRequest.ledgerId`). */
  readonly ledgerId: number;
  /** `undelivered`: the carrier could not hand it over (an SMS `undelivered` or `failed` report); `gone`: the destination is no more. */
  readonly outcome: 'undelivered' | 'gone';
  /** The peer's code (a carrier's error code, an HTTP status), for operators; null for none. */
  readonly code?: string | null;
}

export interface LedgerAccess {
  /** Settles `queued` rows (others are left alone), in the target's transaction when given. */
  settle(outcomes: readonly QueuedOutcome[], trx?: Knex.Transaction): Promise<void>;
  /** An operator requeued these (failed) deliveries in the target: they are `queued` again until settled. */
  reopen(ledgerIds: readonly number[], trx?: Knex.Transaction): Promise<void>;
  /**
   * Records what the peer said later of deliveries it took (an SMS
   * delivery report of `undelivered`): shown on the delivery (the admin
   * view, the console's trace) and counted in `notification_deliveries_total`.
   * The row's state stays as it is. Resolves to how many rows it changed.
   */
  reportOutcome(reports: readonly LaterOutcome[]): Promise<number>;
}

export interface CallerAuth {
  /** The caller of a request: anonymous, a user or an admin; throws 401 for a bearer token that does not verify. */
  authenticate(request: FastifyRequest): Caller;
  /** Throws 401 for anonymous callers and 403 for non-admins. */
  requireAdmin(caller: Caller): void;
  /**
   * An onRequest hook that lets only admins through (401 / 403), before the
   * body is parsed or validated: `{ onRequest: context.auth.adminOnly }`.
   * Routes under /api/admin/ get it whether they name it or not.
   */
  adminOnly(request: FastifyRequest): Promise<void>;
}
