import { deleteOlderThan, type WorkerDefinition } from '#plugin-api';
import type { SmsContext } from './config.ts';

/**
 * The plugin keeps its texts' sids and delivery reports, the verification
 * texts it sent or gave up on, and the sids of replies it took, as long as core keeps
 * deliveries (Retention__Days), then forgets them in bounded batches.
 * Texts still to send are never removed.
 */
export function smsRetention(context: SmsContext): WorkerDefinition {
  const { Days, BatchSize, IntervalSeconds } = context.coreConfig.Retention;
  const drain = (table: string, where: string, cutoff: Date, signal: AbortSignal) => deleteOlderThan(context.db, table, where, cutoff, BatchSize, signal);
  return {
    name: 'delivery-sms.retention',
    intervalSeconds: IntervalSeconds,
    run: async ({ signal, log }) => {
      const cutoff = new Date(context.now().getTime() - Days * 24 * 3600 * 1000);
      const messages = await drain('delivery_sms_messages', 'updated_at < ?', cutoff, signal);
      const texts = await drain('delivery_sms_outbox', "state IN ('sent', 'dead') AND created_at < ?", cutoff, signal);
      const replies = await drain('delivery_sms_inbound', 'received_at < ?', cutoff, signal);
      if (messages + texts + replies > 0) {
        log.info({ messages, verificationTexts: texts, replies, olderThan: cutoff.toISOString() }, 'sms retention removed old rows');
      }
    },
  };
}
