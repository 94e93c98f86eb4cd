import type { LeasedQueueStore, PluginQueue, PluginQueueDefinition, QueuedOutcome } from '#plugin-api';
import type { EmailContext } from './config.ts';
import type { EmailComposer } from './email-composer.ts';
import { attemptsExhausted, nextState, OUTBOX_STATES, type SendResult } from './outbox-policy.ts';
import { claimDueItems, dropItems, nextDueInMs, recordResults, renewLease, type ClaimedItem, type ItemResult } from './outbox-repository.ts';
import type { SmtpSender } from './smtp-sender.ts';

export const OUTBOX_QUEUE = 'delivery-email.outbox';

/** What one claimed item came to: a send result to record, or dropped (its subscription stopped). */
export type OutboxAttempt = { readonly item: ClaimedItem } & ({ readonly result: ItemResult } | { readonly drop: true });

/**
 * The outbox table as a leased queue (times from the service clock). With
 * no relay configured nothing is leased: items wait `pending` instead of
 * using up their attempts. Settling records the results, drops the items
 * of stopped subscriptions, and settles the ledger rows they carry, in one
 * transaction.
 */
export function outboxStore(context: EmailContext, sender: SmtpSender): LeasedQueueStore<ClaimedItem, OutboxAttempt> {
  const { db, now } = context;
  const leaseSeconds = context.config.EmailOutbox.LeaseSeconds;
  return {
    lease: async (limit, token) => (sender.configured ? claimDueItems(db, { limit, claimToken: token, leaseSeconds, now: now() }) : []),
    renew: (token) => renewLease(db, token, leaseSeconds),
    nextDueInMs: () => (sender.configured ? nextDueInMs(db, now()) : Promise.resolve(null)),
    async settle(token, attempts) {
      const results = attempts.flatMap((a) => ('result' in a ? [a] : []));
      const dropped = attempts.flatMap((a) => ('drop' in a ? [a.item] : []));
      await db.transaction(async (trx) => {
        const recorded = await recordResults(
          trx,
          token,
          results.map((a) => a.result),
          now(),
        );
        const droppedIds = await dropItems(
          trx,
          token,
          dropped.map((item) => item.id),
        );
        const outcomes: QueuedOutcome[] = [];
        for (const { item, result } of results) {
          // Taken over after a lapsed lease, or deleted with its subscription: no longer this claim's to settle.
          if (!recorded.has(item.id) || item.ledgerId === null || result.state === 'failed' || result.state === 'deferred') continue;
          outcomes.push(
            result.state === 'sent'
              ? { ledgerId: item.ledgerId, kind: 'delivered' }
              : { ledgerId: item.ledgerId, kind: 'failed', reason: `email dead: ${result.error}` },
          );
        }
        for (const item of dropped) {
          if (droppedIds.has(item.id) && item.ledgerId !== null)
            outcomes.push({ ledgerId: item.ledgerId, kind: 'failed', reason: 'subscription is no longer active' });
        }
        await context.ledger.settle(outcomes, trx);
      });
    },
  };
}

/** Sends a claimed batch over the pooled transport; one attempt each, judged by the outbox policy. */
export function sendBatch(context: EmailContext, sender: SmtpSender, composer: EmailComposer) {
  const retry = {
    baseSeconds: context.config.EmailOutbox.RetryBaseSeconds,
    maxSeconds: context.config.EmailOutbox.RetryMaxSeconds,
    maxAttempts: context.config.EmailOutbox.MaxAttempts,
  };
  const attempt = async (item: ClaimedItem, active: ReadonlySet<number>, signal: AbortSignal): Promise<OutboxAttempt> => {
    if (attemptsExhausted(item.attempt, retry)) {
      return {
        item,
        result: { id: item.id, state: 'dead', dueAt: null, error: `lease lapsed during attempt ${item.attempt - 1} of ${retry.maxAttempts} (a crash?)` },
      };
    }
    // Unsubscribed (or the subscription stopped) after this email was queued: it is not sent.
    if (item.kind === 'notification' && !active.has(item.subscriptionId)) return { item, drop: true };
    // The lane's rate and pause hold for every email: the relay sees one pace, on every instance together.
    if (!(await context.lane.nextSlot(signal)))
      return { item, result: { id: item.id, state: 'deferred', dueAt: context.now(), error: 'not sent: the service is stopping, or the lease ran out' } };
    let outcome: SendResult;
    try {
      const composed = await composer.compose(item);
      // The first email of the item's thread is the one every later one answers.
      const answers = item.threadFirstId !== null && item.threadFirstId !== item.id ? `<email-outbox-${item.threadFirstId}@${sender.fromDomain}>` : undefined;
      outcome = await sender.send({
        ...composed,
        to: item.recipient,
        subject: item.subject,
        messageId: `<email-outbox-${item.id}@${sender.fromDomain}>`,
        ...(answers ? { inReplyTo: answers, references: answers } : {}),
      });
    } catch (err) {
      // Composing failed (a template fault): transient, so a fix and a restart still send it.
      context.log.error({ err, outboxId: item.id }, 'email could not be composed');
      outcome = { kind: 'rejected', permanent: false, reason: 'message could not be composed' };
    }
    if (outcome.kind === 'rejected' && outcome.slowDown) await context.lane.pause(undefined, outcome.reason);
    const next = nextState(item.attempt, outcome, context.now(), Math.random(), retry, context.lane.pausedForMs() / 1000);
    const dueAt = next.state === 'failed' || next.state === 'deferred' ? next.dueAt : null;
    return { item, result: { id: item.id, state: next.state, dueAt, error: next.state === 'sent' ? null : next.error } };
  };
  return async (batch: readonly ClaimedItem[], signal: AbortSignal): Promise<OutboxAttempt[]> => {
    const active = await context.subscriptions.activeAmong(batch.filter((item) => item.kind === 'notification').map((item) => item.subscriptionId));
    return Promise.all(batch.map((item) => attempt(item, active, signal)));
  };
}

/** Counts of a settled batch for its log line. */
export function tallyAttempts(attempts: readonly OutboxAttempt[]) {
  const counts: Record<string, number> = Object.fromEntries(OUTBOX_STATES.filter((s) => s !== 'pending' && s !== 'processing').map((s) => [s, 0]));
  counts.dropped = 0;
  counts.deferred = 0;
  for (const attempt of attempts) counts['drop' in attempt ? 'dropped' : attempt.result.state]++;
  return { counts, failures: counts.failed + counts.dead };
}

/** Declares the outbox queue through core's lease-and-retry mechanism. */
export function defineOutboxQueue(context: EmailContext, sender: SmtpSender, composer: EmailComposer): PluginQueue {
  const outbox = context.config.EmailOutbox;
  const definition: PluginQueueDefinition<ClaimedItem, OutboxAttempt> = {
    name: OUTBOX_QUEUE,
    store: outboxStore(context, sender),
    work: sendBatch(context, sender, composer),
    tally: tallyAttempts,
    batchSize: outbox.BatchSize,
    leaseSeconds: outbox.LeaseSeconds,
    // The next batch is claimed and queued on the SMTP pool while the previous one's last messages go out.
    batchesInFlight: 2,
    sweepSeconds: outbox.IntervalSeconds,
  };
  return context.queues.define(definition);
}
