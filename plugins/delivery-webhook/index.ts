import { defineDeliveryPlugin, Type } from '#plugin-api';
import { webhookConfig } from './config.ts';
import { createWebhookTarget } from './webhook-target.ts';

/**
 * Delivery by signed webhook (provider value Webhook): every alert is
 * POSTed as JSON to the subscription's https URL, signed per the Standard
 * Webhooks specification with a secret the create answer shows once.
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-webhook',
  apiVersion: 4,
  description: 'Posts every alert as JSON to an https URL, signed per the Standard Webhooks specification.',
  provider: 'Webhook',
  displayName: 'Webhook',
  destination: {
    required: true,
    description:
      'The https URL every alert is posted to (a public host, or one of Webhook__AllowedHosts). The create answer holds its signing secret (webhookSecret) once.',
    label: 'Webhook URL',
    inputType: 'url',
    hint: 'For systems, not people: each alert is posted there as signed JSON.',
    placeholder: 'https://example.org/hooks/outages',
  },
  createdProperties: {
    webhookSecret: Type.String({
      description: 'The signing secret of this webhook, shown only this once: keep it to verify each delivery (Standard Webhooks).',
    }),
  },
  config: webhookConfig,
  async setup(context) {
    return { target: await createWebhookTarget(context) };
  },
});
