import type { Knex } from 'knex';
import { Errors } from '../errors.ts';
import { randomToken } from '../plugin-api/random-token.ts';
import type { Caller } from '../http/caller-auth.ts';
import type { CreatedAnswer, DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { toRecipient } from '../delivery/index.ts';
import { withdrawConfirmationsOf } from '../ledger/index.ts';
import type { NotificationPipeline, ProcessResult } from '../plugin-api/pipeline-types.ts';
import type { SubscriptionFilter } from '../matching/index.ts';
import { createTestEvent } from '../pipeline/test-event.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import { limitKey } from '../http/client-address.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { GroupCommit, type ItemOutcome } from '../db/group-commit.ts';
import { addressLimitsApply, judgeCreates, type CreateCandidate, type SubscriptionLimits } from './create-limits.ts';
import * as repo from './subscription-repository.ts';
import { authorizeAccess, checkDisplayName, checkFilterAgainstFeed, checkPreferences, hashToken } from './subscription-policy.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';
import { withConfirmPreferences } from './confirm-preferences.ts';

export interface CreateRequest {
  displayName: string;
  feedId: string;
  filter?: SubscriptionFilter;
  preferences?: SubscriberPreferences;
  /** A target's own properties (as its manifest declares them) come beside these. */
  delivery: { provider: string; destination?: string; readonly [property: string]: unknown };
}

/** What PATCH may change. */
export interface UpdateRequest {
  displayName?: string;
  filter?: SubscriptionFilter;
  preferences?: SubscriberPreferences;
}

export interface SubscriptionView {
  publicId: string;
  displayName: string;
  feedId: string;
  filter: SubscriptionFilter;
  preferences: SubscriberPreferences;
  delivery: { provider: string; destination: string };
  scope: string;
  isActive: boolean;
  subscribeUrl: string | null;
  /** Why subscribeUrl is null; null when there is a subscribe URL. */
  subscribeUrlUnavailableReason: string | null;
  /** What a person does with the subscribe link, in words (the target's); empty without a link. */
  subscribeSteps: readonly string[];
  createdAt: string;
}

export interface SubscriptionServiceDependencies {
  db: Knex;
  registry: PluginRegistry;
  targets: ReadonlyMap<string, DeliveryTarget>;
  pipeline: NotificationPipeline;
  limits: SubscriptionLimits;
  /** NODE_ENV: outside production, loopback callers are not held to the address limits. */
  nodeEnv: string;
  cooldownSeconds: number;
  now: () => Date;
}

/** A create that passed validation, waiting for its batch. */
interface PendingCreate extends CreateCandidate {
  target: DeliveryTarget;
  row: repo.NewSubscription;
  /** What the target keeps beside the destination, handed back to it once the row exists. */
  details: unknown;
}

/** A stored create, and what its target adds to its answer. */
interface StoredCreate {
  readonly row: repo.SubscriptionRecord;
  readonly answer?: CreatedAnswer;
}

/** The locks a create holds while it is judged and stored: its caller's (address or user), and its destination's when it sends a verification email. */
const lockKeysOf = (create: CreateCandidate): string[] => [
  create.owner ? `user:${create.owner}` : `ip:${create.ip}`,
  ...(create.verifiedAddress ? [`verify:${create.verifiedAddress}`] : []),
];

function tooManyRequests(message: string, retryAfterSeconds: number): Error {
  return Object.assign(new Errors.TooManyRequests(message), { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** The subscription use cases behind the HTTP API: create with limits, read, delete, test. */
export class SubscriptionService {
  readonly #deps: SubscriptionServiceDependencies;
  // Concurrent creates share a transaction (see #writeCreates): under load the round trips per create fall from four to a fraction.
  readonly #creates = new GroupCommit<PendingCreate, StoredCreate>((creates) => this.#writeCreates(creates), {
    maxBatch: 64,
    concurrency: 1,
    // A database that is down fails every create of the batch alike: no use trying each again.
    retryAlone: (error) => !isDatabaseUnavailable(error),
  });

  constructor(deps: SubscriptionServiceDependencies) {
    this.#deps = deps;
  }

  /** `language`: the steps' language when a page asks in its own (`?language=`); the subscription's by default. */
  view(row: repo.SubscriptionRecord, language?: string): SubscriptionView {
    const target = this.#deps.targets.get(row.provider);
    const subscribeUrl = target?.subscribeUrl(row.destination) ?? null;
    const unavailable = () => target?.subscribeUrlUnavailableReason?.(row.destination) ?? `${row.provider} subscriptions have no subscribe link.`;
    return {
      publicId: row.public_id,
      displayName: row.display_name,
      feedId: row.feed_id,
      filter: row.filter_json ?? {},
      preferences: row.preferences ?? {},
      delivery: { provider: row.provider, destination: row.destination },
      scope: row.scope,
      isActive: row.is_active,
      subscribeUrl,
      subscribeUrlUnavailableReason: subscribeUrl === null ? unavailable() : null,
      // The steps in the language asked for (the reader's page), else the subscription's (that of its alerts).
      subscribeSteps: subscribeUrl === null ? [] : (target?.subscribeSteps?.(row.destination, language ?? row.preferences?.language) ?? []),
      createdAt: new Date(row.created_at).toISOString(),
    };
  }

  /** `clientAddress` is the normalised client address; the limits count it per IPv6 prefix. */
  /**
   * `joinToken`: the manage token of an existing subscription the caller
   * holds (X-Subscription-Token): the new one joins it, managed by the same
   * token, which the answer repeats. A token that manages nothing is a 403.
   */
  async create(
    request: CreateRequest,
    caller: Caller,
    clientAddress: string,
    joinToken?: string,
  ): Promise<SubscriptionView & { manageToken: string; readonly [field: string]: unknown }> {
    const { registry, targets, limits } = this.#deps;
    const filter = request.filter ?? {};
    const displayName = checkDisplayName(request.displayName);
    checkFilterAgainstFeed(request.feedId, registry.catalogFeed(request.feedId), filter);
    const target = targets.get(request.delivery.provider);
    if (!target) throw new Errors.InvalidField(`body/delivery/provider: ${request.delivery.provider} is not available`);
    const scope = caller.kind === 'user' ? 'User' : 'Anonymous';
    const prepared = target.prepareDelivery
      ? target.prepareDelivery(request.delivery, { scope })
      : { destination: target.prepareDestination(request.delivery.destination, { scope }), details: undefined };
    const destination = prepared.destination;
    if (joinToken !== undefined && (await repo.subscriptionsOfToken(this.#deps.db, hashToken(joinToken))).length === 0) {
      throw new Errors.Forbidden('the subscription token does not match a subscription to join');
    }
    const manageToken = joinToken ?? randomToken(32);
    const ip = limitKey(clientAddress, limits.Ipv6PrefixLength);
    const owner = caller.kind === 'user' ? caller.userId : null;
    const verifies = !target.startsActive;
    const created = await this.#creates.submit({
      caller,
      details: prepared.details,
      addressLimits: addressLimitsApply(caller, this.#deps.nodeEnv, clientAddress),
      verifies,
      ip,
      owner,
      // A verification message goes to someone who may not have asked: counted per mailbox (as the target knows it), kept as a digest.
      verifiedAddress: verifies ? hashToken(target.verificationKey?.(destination) ?? destination.toLowerCase()) : null,
      target,
      row: {
        public_id: randomToken(16),
        display_name: displayName,
        feed_id: request.feedId,
        filter_json: filter,
        preferences: withConfirmPreferences(caller, checkPreferences(request.preferences ?? {}), undefined, targets),
        provider: request.delivery.provider,
        destination,
        scope,
        is_active: target.startsActive,
        pending_verification: verifies,
        owner_user_id: owner,
        created_ip: ip,
        manage_token_hash: hashToken(manageToken),
      },
    });
    return { ...created.answer, ...this.view(created.row), manageToken };
  }

  /**
   * Writes the creates that arrived together in one transaction. It never
   * waits for a lock: it takes the free locks of its callers and
   * destinations, and a create whose lock another transaction holds (a
   * create of the same address on another instance, say) is handed on to
   * be written alone, after this batch, waiting for its lock as a create
   * always did. So one busy address holds up its own creates, not the
   * others'.
   */
  async #writeCreates(creates: PendingCreate[]): Promise<Array<ItemOutcome<StoredCreate>>> {
    const busy = new Set<string>();
    const stored = await this.#deps.db.transaction(async (trx) => {
      for (const key of await repo.tryLockCreatesOf(trx, creates.flatMap(lockKeysOf))) busy.add(key);
      const ready = creates.filter((create) => !lockKeysOf(create).some((key) => busy.has(key)));
      const outcomes = await this.#store(trx, ready);
      return new Map(ready.map((create, index) => [create, outcomes[index]!]));
    });
    return creates.map((create) => stored.get(create) ?? { ok: true, value: this.#writeAlone(create) });
  }

  /** One create in a transaction of its own, waiting for its locks (its own callers queue behind it; nobody else does). */
  async #writeAlone(create: PendingCreate): Promise<StoredCreate> {
    const [outcome] = await this.#deps.db.transaction(async (trx) => {
      await repo.lockCreatesOf(trx, lockKeysOf(create));
      return this.#store(trx, [create]);
    });
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.value;
  }

  /**
   * With the creates' locks held: their usage in one read, the judgement
   * (each as if it ran alone after the ones before it), the accepted rows
   * and their counters in one statement, then each target's own records
   * (the Email target's verification emails), one call per target. A
   * refused create gets its 429; nothing of it is stored.
   */
  async #store(trx: Knex.Transaction, creates: PendingCreate[]): Promise<Array<ItemOutcome<StoredCreate>>> {
    if (creates.length === 0) return [];
    const { limits, now } = this.#deps;
    const at = now();
    const day = at.toISOString().slice(0, 10);
    const usage = await repo.usageOf(trx, {
      ips: [...new Set(creates.map(({ ip }) => ip))],
      users: [...new Set(creates.flatMap(({ owner }) => (owner ? [owner] : [])))],
      addresses: [...new Set(creates.flatMap(({ verifiedAddress }) => (verifiedAddress ? [verifiedAddress] : [])))],
      day,
    });
    const verdicts = judgeCreates(creates, usage, limits, at);
    const accepted = creates.filter((_, index) => verdicts[index] === null);
    const rows = await repo.insertCreated(trx, accepted, day);
    const created = rows.map((row, index) => ({ target: accepted[index]!.target, details: accepted[index]!.details, recipient: toRecipient(row.id, row) }));
    const answers = new Map<number, CreatedAnswer>();
    for (const [target, ofTarget] of Map.groupBy(created, (entry) => entry.target)) {
      const added = await target.onSubscriptionsCreated?.(
        trx,
        ofTarget.map((entry) => entry.recipient),
        ofTarget.map((entry) => entry.details),
      );
      ofTarget.forEach((entry, index) => {
        const answer = added?.[index];
        if (answer) answers.set(entry.recipient.id, answer);
      });
    }
    let next = 0;
    return verdicts.map((breach) => {
      if (breach) return { ok: false as const, error: tooManyRequests(breach.message, breach.retryAfterSeconds) };
      const row = rows[next++]!;
      return { ok: true as const, value: { row, answer: answers.get(Number(row.id)) } };
    });
  }

  /** Every subscription a manage token manages (GET /api/subscribers/me); 401 without one, 403 when it manages none. */
  async ofToken(manageToken: string | undefined): Promise<SubscriptionView[]> {
    if (manageToken === undefined) throw new Errors.Unauthorized('send the X-Subscription-Token header');
    const rows = await repo.subscriptionsOfToken(this.#deps.db, hashToken(manageToken));
    if (rows.length === 0) throw new Errors.Forbidden('the subscription token does not match any subscription');
    return rows.map((row) => this.view(row));
  }

  async get(publicId: string, caller: Caller, manageToken: string | undefined): Promise<repo.SubscriptionRecord> {
    const row = await repo.findSubscription(this.#deps.db, publicId);
    if (!row) throw new Errors.NotFound(`subscription ${publicId} not found`);
    authorizeAccess(row, caller, manageToken);
    return row;
  }

  /**
   * Changes a subscription's name and filter, checked as a create checks
   * them (the feed and the delivery stay: subscribe again for others). The
   * next event is matched with the new filter.
   */
  async update(publicId: string, caller: Caller, manageToken: string | undefined, change: UpdateRequest): Promise<SubscriptionView> {
    const row = await this.get(publicId, caller, manageToken);
    const displayName = change.displayName === undefined ? undefined : checkDisplayName(change.displayName);
    if (change.filter !== undefined) checkFilterAgainstFeed(row.feed_id, this.#deps.registry.catalogFeed(row.feed_id), change.filter);
    const preferences =
      change.preferences === undefined ? undefined : withConfirmPreferences(caller, checkPreferences(change.preferences), row.preferences, this.#deps.targets);
    const values = { display_name: displayName, filter_json: change.filter, preferences };
    // An admin who takes `confirm` off ends what was still asked of the person: no more reminders or escalation steps.
    if (row.preferences?.confirm !== true || preferences === undefined || preferences.confirm === true) {
      return this.view(await repo.updateSubscription(this.#deps.db, Number(row.id), values));
    }
    const updated = await this.#deps.db.transaction(async (trx) => {
      await withdrawConfirmationsOf(trx, Number(row.id), this.#deps.now());
      return repo.updateSubscription(trx, Number(row.id), values);
    });
    return this.view(updated);
  }

  async delete(publicId: string, caller: Caller, manageToken: string | undefined): Promise<void> {
    const row = await this.get(publicId, caller, manageToken);
    await repo.deleteSubscription(this.#deps.db, Number(row.id));
  }

  /** Sends a test event to this one subscription through the pipeline, once per cooldown. */
  async test(publicId: string, caller: Caller, manageToken: string | undefined): Promise<ProcessResult> {
    const row = await this.get(publicId, caller, manageToken);
    if (!row.is_active)
      throw new Errors.Conflict(`subscription ${publicId} is not active${row.pending_verification ? ': its address is not verified yet' : ''}`);
    const wait = await repo.takeTestSlot(this.#deps.db, Number(row.id), this.#deps.cooldownSeconds);
    if (wait > 0) throw tooManyRequests(`one test per ${this.#deps.cooldownSeconds} s: try again in ${wait} s`, wait);
    const feed = this.#deps.registry.feed(row.feed_id);
    const event = createTestEvent(row.feed_id, feed?.feed.displayName ?? row.feed_id, row.display_name);
    return this.#deps.pipeline.processNotificationEvents([event], { onlySubscriptionIds: [Number(row.id)], awaitDelivery: true });
  }
}
