import { defineDeliveryPlugin } from '#plugin-api';
import { pushConfig } from './config.ts';
import { createPushTarget } from './push-target.ts';

/**
 * Delivery through an ntfy-compatible push server (provider value Push).
 * No static `topics`: the generated-topic prefix comes from config, and the
 * target adds it (and AllowedTopics/AllowedTopicPrefixes) to its policy.
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-push',
  apiVersion: 4,
  description: 'Publishes notifications to an ntfy-compatible push-topic server.',
  provider: 'Push',
  displayName: 'Push notification',
  destination: {
    required: false,
    description: 'Omitted: the service makes a topic of its own for the subscription, and answers its subscribe link (subscribeUrl) for the ntfy app.',
  },
  subscribeLinkLabel: 'Open in the ntfy app',
  config: pushConfig,
  async setup(context) {
    return { target: await createPushTarget(context) };
  },
});
