import { fileURLToPath } from 'node:url';
import { defineDeliveryPlugin } from '#plugin-api';
import { adminRoutes } from './admin-routes.ts';
import { emailConfig } from './config.ts';
import { emailRuntime } from './email-runtime.ts';
import { createEmailTarget } from './email-target.ts';
import { linkRoutes } from './link-routes.ts';

export const OUTBOX_WORKER = 'delivery-email.outbox';

/**
 * Delivery by email through the outbox (provider value Email). Emails are
 * queued in the caller's transaction (the ledger claim, or the create
 * request for a verification email) and sent only by the outbox worker.
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-email',
  description: 'Sends notifications by email through a transactional outbox and an SMTP relay.',
  provider: 'Email',
  config: emailConfig,
  migrationsDir: fileURLToPath(new URL('./migrations', import.meta.url)),
  createTarget: createEmailTarget,
  workers(context) {
    const runtime = emailRuntime(context);
    runtime.startWorking();
    const watched = new WeakSet<AbortSignal>();
    return [
      {
        name: OUTBOX_WORKER,
        intervalSeconds: context.config.EmailOutbox.IntervalSeconds,
        // Every instance sweeps; rows are claimed with SKIP LOCKED and a lease, never twice.
        exclusive: false,
        run: async ({ signal }) => {
          if (signal.aborted) return;
          // Shutdown: no new batch after the current one (the scheduler hands the same signal to every run).
          if (!watched.has(signal)) {
            watched.add(signal);
            signal.addEventListener('abort', () => runtime.worker.halt(), { once: true });
          }
          await runtime.worker.drain();
        },
      },
    ];
  },
  routes(app, context) {
    const runtime = emailRuntime(context);
    linkRoutes(app, runtime);
    adminRoutes(app, runtime);
  },
});
