import { defineDeliveryPlugin } from '#plugin-api';
import { emailConfig } from './config.ts';

/** Delivery by email through the outbox (provider value Email). */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-email',
  description: 'Sends notifications by email through a transactional outbox and an SMTP relay.',
  provider: 'Email',
  config: emailConfig,
});
