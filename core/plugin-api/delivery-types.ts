import type { Knex } from 'knex';
import type { NotificationEvent, RenderedNotification } from './feed-types.ts';

export type SubscriptionScope = 'System' | 'User' | 'Anonymous';

/** What a delivery target sees of a subscription. */
export interface SubscriptionRecipient {
  readonly id: number;
  readonly publicId: string;
  readonly displayName: string;
  readonly feedId: string;
  readonly provider: string;
  readonly destination: string;
  readonly scope: SubscriptionScope;
  /** The subscriber's language (a code of LOCALES; core always sets it, `en` when they chose none): write what the target itself says in it. */
  readonly language?: string;
  /**
   * This message is an escalation step of an alert the subscriber did not
   * confirm: `destination` is the step's (a carer's phone), not the
   * subscription's. Leave out the subscription's own links (manage,
   * unsubscribe), and never stop the subscription for what this
   * destination's peer says. Only a target with `takesEscalationSteps` gets one.
   */
  readonly escalationStep?: boolean;
}

/** One claimed ledger row to deliver. */
export interface DeliveryRequest {
  readonly ledgerId: number;
  /** 1 on the first try. */
  readonly attempt: number;
  readonly subscription: SubscriptionRecipient;
  readonly event: NotificationEvent;
  readonly rendered: RenderedNotification;
  /**
   * The person must confirm this alert (their subscription confirms, and
   * it is urgent, or an escalation step of one). Core has added the line
   * that asks (a link, or the word to reply) to `rendered`, unless the
   * target asks by a key (`confirmsByKey`): then the target asks, and tells
   * `context.confirmations.confirmDelivery(ledgerId, 'key')` the answer.
   */
  readonly confirm?: boolean;
  /**
   * The line core added to `rendered.body` to ask for the confirmation (its
   * last paragraph), when it added one: a target that shortens a message to
   * fit (a text's segments) keeps this whole and shortens what is before it.
   */
  readonly asks?: string;
}

export type DeliveryOutcome =
  | { readonly kind: 'delivered'; readonly detail?: string }
  /** Transient: try again, at `notBefore` when the target knows (a quota), else after backoff. */
  | { readonly kind: 'retry'; readonly reason: string; readonly notBefore?: Date }
  /**
   * Permanent for this delivery; recorded, not retried by itself. With
   * `gone`, the destination is no more (a webhook receiver's 410 Gone, a
   * push service's 404 for a dropped browser subscription): core also stops
   * the subscription, so nothing more is sent there until its owner
   * subscribes again. `code` is the peer's own (an HTTP status), shown
   * on the delivery with a gone outcome.
   */
  | { readonly kind: 'failed'; readonly reason: string; readonly gone?: boolean; readonly code?: string }
  /**
   * The peer said to slow down (HTTP 429, SMTP 421/451/454): the delivery
   * waits and is tried again without the attempt counting, so a rate limit
   * alone never fails it. `retryAfterSeconds` is the peer's Retry-After
   * (read it with `retryAfterSeconds()` of the kit); without it core waits
   * 1 s, doubling while such answers repeat, at most 5 min. With `scope`
   * `lane` (the default) the whole lane pauses on every instance, since the
   * peer is shared (a gateway, a push server, an SMTP relay); `delivery`
   * defers this delivery alone (a webhook receiver of one subscriber).
   */
  | { readonly kind: 'slowDown'; readonly reason: string; readonly retryAfterSeconds?: number; readonly scope?: 'lane' | 'delivery' };

/**
 * A destination with what else the target keeps of it (a browser's
 * encryption keys): `details` is handed back to `onSubscriptionsCreated`,
 * never stored by core or shown.
 */
export interface PreparedDestination {
  readonly destination: string;
  readonly details: unknown;
}

/** Who a destination is prepared for. */
export interface DestinationRequest {
  readonly scope: SubscriptionScope;
}

/** Fields a target adds to the create answer of one subscription (a secret shown once), as its manifest's `createdProperties` declares them. */
export type CreatedAnswer = Readonly<Record<string, string>>;

export interface DeliveryTarget {
  readonly provider: string;
  /**
   * Checks a destination and returns the one to store. For a client's
   * subscription (scope User or Anonymous) a target that generates
   * destinations (push topics) requires it absent and generates one; a bad
   * value throws Errors.InvalidField naming `body/delivery/destination`.
   * For a System subscription (from env or a migration) the destination is
   * given and must pass the target's policy (Errors.TopicNotAllowed).
   */
  prepareDestination(requested: string | undefined, context: DestinationRequest): string;
  /**
   * For a target whose manifest declares `deliveryProperties`: checks a
   * client's whole `delivery` object (its own properties included, e.g. a
   * browser's push subscription) and returns the destination with what
   * else it keeps of it. Core calls it instead of `prepareDestination` for
   * a client's create when it is defined; a bad value throws
   * Errors.InvalidField naming the field (`body/delivery/subscription/endpoint`).
   */
  prepareDelivery?(delivery: Readonly<Record<string, unknown>>, context: DestinationRequest): PreparedDestination;
  /** Where a subscriber subscribes (push topic URL), or null. */
  subscribeUrl(destination: string): string | null;
  /**
   * Why `subscribeUrl` is null for this destination, in words a client can
   * show (no push server configured; email has no such link). Without it
   * core says that this provider gives no subscribe link.
   */
  subscribeUrlUnavailableReason?(destination: string): string;
  /**
   * Why this target cannot deliver now, in words that name what to set
   * (`No push server is configured (Notifications__Push__BaseUrl is
   * unset)…`), or undefined when it can. Read for the providers list: the
   * subscribe page offers a target only while it can deliver.
   */
  unavailableReason?(): string | undefined;
  /**
   * What a person does with a subscribe link (steps in words, for the
   * subscribe and manage pages: install the app, enter the topic…), in
   * `language` (the subscription's: a code of `GET /api/locales`; English
   * when absent). Only called for a destination that has a subscribe link.
   */
  subscribeSteps?(destination: string, language?: string): readonly string[];
  /**
   * The languages (codes of LOCALES) this target can present, when not all
   * (a voice gateway reads only the languages it has a voice for): a
   * subscriber who chose another gets messages rendered in English, and
   * core's added lines in English too. Absent: every language.
   */
  languages?(): readonly string[];
  /** A new subscription starts active (push) or waits for verification (email). */
  readonly startsActive: boolean;
  /**
   * Its subscribers answer a message by replying to it (texts): a question
   * core adds to a message (a restoration's "still without power?") asks
   * for a reply word (OUT) instead of carrying a link, and the target takes
   * the reply (the `stillOut` port).
   */
  readonly answersByReply?: boolean;
  /**
   * Its subscribers answer by a key in the message itself (a call's "press
   * 1"): core adds no line asking for a confirmation, and sets `confirm`
   * on the request instead.
   */
  readonly confirmsByKey?: boolean;
  /**
   * It may be a provider of `preferences.escalation` steps: it handles a
   * request whose `subscription.escalationStep` is set (see there). An
   * admin's escalation naming another provider is a 400.
   */
  readonly takesEscalationSteps?: boolean;
  /**
   * For a target that verifies (startsActive false): the key the daily
   * limit of verification messages counts, one per mailbox or phone
   * however its destination is written (email: lower case, `+tag`
   * removed). Without it core counts the destination lower-cased.
   */
  verificationKey?(destination: string): string;
  /**
   * Transactional targets (email outbox) take the deliveries inside the
   * ledger claim's transaction; the claim then counts as delivered.
   */
  enqueue?(trx: Knex.Transaction, requests: readonly DeliveryRequest[]): Promise<void>;
  /**
   * Direct targets (push) deliver after the claim commits; one outcome per
   * request, same order. A target that reports each outcome as it comes
   * (`onOutcome(index, outcome)`) lets core record it at once, in small
   * groups, so fewer sends are unrecorded if the process dies mid-batch.
   */
  deliver?(
    requests: readonly DeliveryRequest[],
    signal: AbortSignal,
    onOutcome?: (index: number, outcome: DeliveryOutcome) => void,
  ): Promise<DeliveryOutcome[]>;
  /**
   * How many requests this direct target can usefully have in flight now
   * (its connections times what each can answer within its timeout): core's
   * lane hands it no more at once, so a pause (a peer's 429) stops what has
   * not gone out yet. Read before each group is given to it, so it may change with the
   * peer's speed. Without it core hands 64 at a time.
   */
  concurrency?(): number;
  /**
   * Runs inside the create transaction, once for this target's
   * subscriptions among creates that share it (concurrent creates are
   * written together): the verification emails of email subscriptions.
   * Write them set-based; the list is never empty. `details` holds, in the
   * same order, what `prepareDestination` returned beside each destination
   * (undefined for a plain one). It may answer, in the same order, fields
   * to add to each create answer (a webhook's signing secret, shown once).
   */
  onSubscriptionsCreated?(
    trx: Knex.Transaction,
    subscriptions: readonly SubscriptionRecipient[],
    details?: readonly unknown[],
    // biome-ignore lint/suspicious/noConfusingVoidType: a plugin's async hook that returns nothing is Promise<void>, which undefined would refuse
  ): Promise<void | readonly (CreatedAnswer | undefined)[]>;
  close?(): Promise<void>;
}
