import {
  backoffSeconds,
  hashCode,
  newVerificationCode,
  type LeasedQueueStore,
  type PluginQueue,
  type VerificationItem as OutboxItem,
  type VerificationResult as OutboxResult,
} from '#plugin-api';
import { batchAbort, type GatewayClient } from './gateway-client.ts';
import { judgeGatewayResult } from './gateway-result.ts';
import type { SmsContext } from './config.ts';
import { smsVerifications as verifications } from './sms-repository.ts';
import { verificationText } from './sms-text.ts';

export const VERIFICATION_QUEUE = 'delivery-sms.verification';

/**
 * The verification texts as a leased queue (core's lease-and-retry
 * mechanism over the plugin's table). A text draws its code when it is
 * sent and stores only the code's hash, so a retry sends a new code and
 * the one before stops working. Without a gateway nothing is leased.
 */
export function defineVerificationOutbox(context: SmsContext, gateway: GatewayClient | null): PluginQueue {
  const { db, now } = context;
  const settings = context.config.SmsOutbox;
  const ttlMinutes = context.config.Sms.CodeTtlMinutes;
  const retry = { baseSeconds: settings.RetryBaseSeconds, maxSeconds: 3600, maxAttempts: settings.MaxAttempts };

  const store: LeasedQueueStore<OutboxItem, OutboxResult> = {
    lease: async (limit, token) => (gateway ? verifications.lease(db, limit, token, settings.LeaseSeconds, now()) : []),
    renew: (token) => verifications.renew(db, token, settings.LeaseSeconds),
    settle: (token, results) => verifications.settle(db, token, results, now()),
    nextDueInMs: () => (gateway ? verifications.nextDueInMs(db, now()) : Promise.resolve(null)),
  };

  const later = (seconds: number) => new Date(now().getTime() + seconds * 1000);
  const send = async (item: OutboxItem, abort: ReturnType<typeof batchAbort>): Promise<OutboxResult> => {
    if (item.attempt > retry.maxAttempts) return { id: item.id, state: 'dead', dueAt: null, error: 'attempts spent (a lease lapsed mid-send?)', sid: null };
    // The lane's rate and pause hold for these texts too: the gateway sees one pace.
    if (!(await context.lane.nextSlot(abort.signal)))
      return { id: item.id, state: 'deferred', dueAt: later(0), error: 'not sent: the service is stopping, or the lease ran out', sid: null };
    const code = newVerificationCode();
    const sentAt = now();
    await verifications.storeCode(db, item.subscriptionId, hashCode(item.subscriptionId, code), new Date(sentAt.getTime() + ttlMinutes * 60_000));
    const feedName = context.feeds.get(item.feedId, item.language)?.displayName ?? 'outage';
    const result = await gateway!.send({ to: item.recipient, body: verificationText(code, feedName, ttlMinutes, item.language) }, abort);
    const { outcome, sid } = judgeGatewayResult(result);
    if (outcome.kind === 'delivered') return { id: item.id, state: 'sent', dueAt: null, error: null, sid: sid ?? null };
    if (outcome.kind === 'slowDown') {
      await context.lane.pause(outcome.retryAfterSeconds, outcome.reason);
      return { id: item.id, state: 'deferred', dueAt: later(Math.max(1, context.lane.pausedForMs() / 1000)), error: outcome.reason, sid: null };
    }
    if (outcome.kind === 'failed' || item.attempt >= retry.maxAttempts) return { id: item.id, state: 'dead', dueAt: null, error: outcome.reason, sid: null };
    const backoff = later(backoffSeconds(item.attempt, Math.random(), retry));
    const dueAt = outcome.notBefore && outcome.notBefore > backoff ? outcome.notBefore : backoff;
    return { id: item.id, state: 'pending', dueAt, error: outcome.reason, sid: null };
  };

  return context.queues.define<OutboxItem, OutboxResult>({
    name: VERIFICATION_QUEUE,
    store,
    async work(batch, signal) {
      const abort = batchAbort(signal);
      try {
        // One text's fault (its code cannot be stored) retries that text alone; the batch's other texts are on the wire.
        return await Promise.all(
          batch.map((item) =>
            send(item, abort).catch((err: unknown) => {
              context.log.warn({ err: { message: (err as Error).message } }, 'a verification text could not be sent');
              return {
                id: item.id,
                state: 'pending',
                dueAt: new Date(now().getTime() + settings.RetryBaseSeconds * 1000),
                error: 'could not be sent',
                sid: null,
              } as const;
            }),
          ),
        );
      } finally {
        abort.dispose();
      }
    },
    tally: (results) => {
      const counts = { sent: 0, pending: 0, deferred: 0, dead: 0 };
      for (const result of results) counts[result.state]++;
      return { counts, failures: counts.dead };
    },
    batchSize: 50,
    leaseSeconds: settings.LeaseSeconds,
    sweepSeconds: settings.IntervalSeconds,
  });
}
