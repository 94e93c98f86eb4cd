import { defineDeliveryPlugin } from '#plugin-api';
import { adminRoutes } from './admin-routes.ts';
import { emailConfig } from './config.ts';
import { createEmailRuntime } from './email-runtime.ts';
import { createEmailTarget } from './email-target.ts';
import { linkRoutes } from './link-routes.ts';
import { outboxRetention } from './outbox-retention.ts';

/**
 * Delivery by email through the outbox (provider value Email). Emails are
 * queued in the caller's transaction (the lane's enqueue of leased ledger
 * rows, or the create request for a verification email) and sent only by
 * the outbox queue's worker (`delivery-email.outbox`).
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-email',
  apiVersion: 4,
  description: 'Sends notifications by email through a transactional outbox and an SMTP relay.',
  provider: 'Email',
  displayName: 'Email',
  destination: {
    required: true,
    description: 'An email address. A link to confirm it is sent there first; nothing else is sent until it is opened.',
    label: 'Email address',
    inputType: 'email',
    autocomplete: 'email',
    hint: 'We first send you a link to confirm the address.',
  },
  confirmation: {
    heading: 'Check your inbox',
    text: 'We sent a link to {destination}. Open it to confirm the address: your alerts start then. Nothing there after a few minutes? Look in the spam folder.',
  },
  config: emailConfig,
  async setup(context) {
    // One SMTP pool, one composer and the outbox queue, shared by the target and the routes.
    const runtime = createEmailRuntime(context);
    return {
      target: await createEmailTarget(runtime),
      workers: [outboxRetention(context)],
      async routes(app) {
        await linkRoutes(app, runtime);
        adminRoutes(app, runtime);
      },
    };
  },
});
