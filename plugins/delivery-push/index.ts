import { defineDeliveryPlugin } from '#plugin-api';
import { pushConfig } from './config.ts';

/** Delivery through an ntfy-compatible push server (provider value Push). */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-push',
  description: 'Publishes notifications to an ntfy-compatible push-topic server.',
  provider: 'Push',
  config: pushConfig,
});
