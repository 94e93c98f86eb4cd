import { drainInBatches, type DeliveryPluginContext, type WorkerDefinition } from '#plugin-api';
import type { emailConfig } from './config.ts';

/**
 * The outbox keeps what it sent or gave up on for as long as core keeps
 * deliveries (Retention__Days), then forgets it in bounded batches, with
 * the verification tokens that are used or expired by then. Items still
 * to send are never removed.
 */
export function outboxRetention(context: DeliveryPluginContext<typeof emailConfig>): WorkerDefinition {
  const { Days, BatchSize, IntervalSeconds } = context.coreConfig.Retention;
  return {
    name: 'delivery-email.retention',
    intervalSeconds: IntervalSeconds,
    run: async ({ signal, log }) => {
      const cutoff = new Date(context.now().getTime() - Days * 24 * 3600 * 1000);
      const items = await drainInBatches(BatchSize, signal, async (limit) => {
        const result = await context.db.raw(
          `DELETE FROM email_outbox WHERE id IN (
             SELECT id FROM email_outbox WHERE state IN ('sent', 'dead') AND updated_at < ? ORDER BY updated_at LIMIT ?)`,
          [cutoff, limit],
        );
        return Number(result.rowCount ?? 0);
      });
      const tokens = await context
        .db('email_verification_tokens')
        .where((q) => q.whereNotNull('used_at').orWhere('expires_at', '<', context.now()))
        .andWhere('created_at', '<', cutoff)
        .delete();
      if (items + Number(tokens) > 0) log.info({ items, tokens: Number(tokens), olderThan: cutoff.toISOString() }, 'email outbox retention removed old rows');
    },
  };
}
