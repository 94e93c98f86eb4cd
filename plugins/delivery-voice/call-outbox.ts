import {
  backoffSeconds,
  hashCode,
  newVerificationCode,
  type LeasedQueueStore,
  type PluginQueue,
  type VerificationItem as CallOutboxItem,
  type VerificationResult as CallOutboxResult,
} from '#plugin-api';
import { judgeCallResult } from './call-result.ts';
import { callWords } from './call-words.ts';
import { callTwiml, spokenDigits } from './twiml.ts';
import { callVerifications as verifications, recordCalls } from './voice-repository.ts';
import type { VoiceContext } from './config.ts';
import type { VoiceGatewayClient } from './gateway-client.ts';

/** What placing a call needs (the runtime's share the outbox uses). */
export interface Calling {
  readonly context: VoiceContext;
  /** Null while no gateway is configured. */
  readonly gateway: VoiceGatewayClient | null;
  readonly voices: ReadonlyMap<string, string>;
  /** `https://alerts.example/api/voice/status`: where the gateway posts a call's status, and what its signature is over. */
  readonly statusCallbackUrl: string;
  /** Where a key pressed in a call is posted. */
  readonly gatherUrl: string;
}

export const VERIFICATION_CALL_QUEUE = 'delivery-voice.verification';

/**
 * The verification calls as a leased queue (core's lease-and-retry over the
 * plugin's table). A call draws its code when it is placed and stores only
 * the code's hash, so a retry reads a new code and the one before stops
 * working. The call reads the code twice, then asks for 1 to confirm the
 * number at once. The lane's rate and pause hold for these calls too.
 */
export function defineCallOutbox(calling: Calling): PluginQueue {
  const { context, gateway } = calling;
  const { db, now } = context;
  const settings = context.config.VoiceOutbox;
  const ttlMinutes = context.config.Voice.CodeTtlMinutes;
  const retry = { baseSeconds: settings.RetryBaseSeconds, maxSeconds: 3600, maxAttempts: settings.MaxAttempts };
  const later = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  const store: LeasedQueueStore<CallOutboxItem, CallOutboxResult> = {
    lease: async (limit, token) => (gateway ? verifications.lease(db, limit, token, settings.LeaseSeconds, now()) : []),
    renew: (token) => verifications.renew(db, token, settings.LeaseSeconds),
    settle: (token, results) => verifications.settle(db, token, results, now()),
    nextDueInMs: () => (gateway ? verifications.nextDueInMs(db, now()) : Promise.resolve(null)),
  };

  const place = async (item: CallOutboxItem, signal: AbortSignal): Promise<CallOutboxResult> => {
    if (item.attempt > retry.maxAttempts) return { id: item.id, state: 'dead', dueAt: null, error: 'attempts spent (a lease lapsed mid-call?)', sid: null };
    if (!(await context.lane.nextSlot(signal)))
      return { id: item.id, state: 'deferred', dueAt: later(0), error: 'not placed: the service is stopping', sid: null };
    const code = newVerificationCode();
    await verifications.storeCode(db, item.subscriptionId, hashCode(item.subscriptionId, code), later(ttlMinutes * 60));
    const words = callWords(calling.voices, item.language);
    const feed = context.feeds.get(item.feedId, item.language)?.displayName ?? 'outage';
    const twiml = callTwiml([words.spoken(words.t('call.verify', { feed, digits: spokenDigits(code) }))], {
      prompt: words.spoken(words.t('call.verifyPrompt')),
      action: calling.gatherUrl,
      noAnswer: words.spoken(words.t('call.goodbye')),
    });
    const { outcome, sid } = judgeCallResult(await gateway!.call({ to: item.recipient, twiml, statusCallback: calling.statusCallbackUrl }, signal));
    if (outcome.kind === 'delivered' && sid) {
      await recordCalls(db, [{ sid, purpose: 'verification', subscriptionId: item.subscriptionId, ledgerId: null, language: item.language }], now());
      return { id: item.id, state: 'sent', dueAt: null, error: null, sid };
    }
    if (outcome.kind === 'slowDown') {
      await context.lane.pause(outcome.retryAfterSeconds, outcome.reason);
      return { id: item.id, state: 'deferred', dueAt: later(Math.max(1, context.lane.pausedForMs() / 1000)), error: outcome.reason, sid: null };
    }
    if (outcome.kind === 'failed' || item.attempt >= retry.maxAttempts)
      return { id: item.id, state: 'dead', dueAt: null, error: 'reason' in outcome ? outcome.reason : null, sid: null };
    return {
      id: item.id,
      state: 'pending',
      dueAt: later(backoffSeconds(item.attempt, Math.random(), retry)),
      error: 'reason' in outcome ? outcome.reason : null,
      sid: null,
    };
  };

  return context.queues.define<CallOutboxItem, CallOutboxResult>({
    name: VERIFICATION_CALL_QUEUE,
    store,
    work: (batch, signal) =>
      Promise.all(
        batch.map((item) =>
          place(item, signal).catch((err: unknown) => {
            context.log.warn({ err: { message: (err as Error).message } }, 'a verification call could not be placed');
            return { id: item.id, state: 'pending', dueAt: later(settings.RetryBaseSeconds), error: 'could not be placed', sid: null } as const;
          }),
        ),
      ),
    tally: (results) => {
      const counts = { sent: 0, pending: 0, deferred: 0, dead: 0 };
      for (const result of results) counts[result.state]++;
      return { counts, failures: counts.dead };
    },
    batchSize: 20,
    leaseSeconds: settings.LeaseSeconds,
    sweepSeconds: settings.IntervalSeconds,
  });
}
