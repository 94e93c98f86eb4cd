import { deleteOlderThan, type WorkerDefinition } from '#plugin-api';
import type { VoiceContext } from './config.ts';

/**
 * The plugin keeps its calls' sids, statuses and keys, and the
 * verification calls it placed or gave up on, as long as core keeps
 * deliveries (Retention__Days), then forgets them in bounded batches.
 * Calls still to place are never removed.
 */
export function voiceRetention(context: VoiceContext): WorkerDefinition {
  const { Days, BatchSize, IntervalSeconds } = context.coreConfig.Retention;
  const drain = (table: string, where: string, cutoff: Date, signal: AbortSignal) => deleteOlderThan(context.db, table, where, cutoff, BatchSize, signal);
  return {
    name: 'delivery-voice.retention',
    intervalSeconds: IntervalSeconds,
    run: async ({ signal, log }) => {
      const cutoff = new Date(context.now().getTime() - Days * 24 * 3600 * 1000);
      const calls = await drain('delivery_voice_calls', 'updated_at < ?', cutoff, signal);
      const verifications = await drain('delivery_voice_outbox', "state IN ('sent', 'dead') AND created_at < ?", cutoff, signal);
      if (calls + verifications > 0) log.info({ calls, verificationCalls: verifications, olderThan: cutoff.toISOString() }, 'voice retention removed old rows');
    },
  };
}
